"""`python -m mjfast ...` runs the mjfast command (mjfast.cli)."""

from .cli import command

command()
