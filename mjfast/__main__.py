"""`python -m mjfast ...` runs the mjfast command (mjfast.cli)."""

import sys

from .cli import main

sys.exit(main())
