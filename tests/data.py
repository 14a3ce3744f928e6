"""Where the test data lives (a copy of the project's shared rule data, see data/README.md)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # the checkout
DATA = ROOT / "tests" / "data"
VECTORS = DATA / "vectors"
LOGS = DATA / "logs"
