"""Where the test data lives (a copy of the project's shared rule data, see data/README.md)."""

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
VECTORS = DATA / "vectors"
LOGS = DATA / "logs"
