"""AISC 360-22, one module per chapter."""
