"""EN 1993-1-1: members, one module per chapter."""
