"""The terminal face: `python main.py` for the interactive prompt, `python main.py --once "question"` for one answer.

    python main.py [--model M] [--server URL] [--workspace NAME|ID] [--db PATH] [--env-file FILE]

The face itself lives in `faces/cli`.
"""

import sys

from faces.cli import main

if __name__ == "__main__":
    sys.exit(main())
