"""EN 1993-1-8: joints, one module per chapter."""
