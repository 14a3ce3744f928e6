"""The command line's shared pieces: its parser class, CommandError, and the options several
commands take (mjfast.cli's, `mjfast logs`' and `mjfast review`'s). A leaf: it imports only
argparse and mjfast.errors, and the rulesets' names when --ruleset is added."""

from __future__ import annotations

import argparse

from ..errors import MjfastError


class CommandError(MjfastError):
    """A problem with what the user asked, reported as one line."""


class Renamed(argparse.Action):
    """An option under its old name: it still sets the new one's value, and says on stderr,
    once, what it is called now."""

    def __init__(self, option_strings, dest, new: str = "", **kwargs):
        super().__init__(option_strings, dest, **kwargs)
        self.new = new

    def __call__(self, parser, namespace, values, option_string=None):
        import sys

        print(f"mjfast: {option_string} is now {self.new} (it still works)", file=sys.stderr)
        setattr(namespace, self.dest, values)


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not argparse's usage block
        self.exit(2, f"mjfast: {message} (see mjfast {self.prog.split(' ', 1)[-1]} --help)\n"
                  if " " in self.prog else f"mjfast: {message} (see mjfast --help)\n")


def add_display(parser) -> None:
    parser.add_argument("--no-color", action="store_true", help="no colour (also: NO_COLOR set)")
    parser.add_argument("--color", action="store_true", help="colour even when not writing to a terminal")
    parser.add_argument("--unicode", action="store_true", help="tiles as Unicode mahjong glyphs")


def add_winds(parser) -> None:
    parser.add_argument("--seat", default="E", help="seat wind: E S W N (default E)")
    parser.add_argument("--wind", default="E", help="prevalent wind: E S W N (default E)")
    parser.add_argument("--flowers", type=int, default=0, help="flowers (they add fans, not toward 8)")


def add_win_flags(parser) -> None:
    parser.add_argument("--self-drawn", action="store_true", help="自摸: won on one's own draw")
    parser.add_argument("--last-copy", action="store_true", help="和绝张: the last unseen copy")
    parser.add_argument("--kong", action="store_true", help="杠上开花 (self-drawn) or 抢杠和 (on a discard)")
    parser.add_argument("--last-tile", action="store_true", help="妙手回春 / 海底捞月: the wall's last tile")


def add_ruleset_argument(parser, of_the_log: bool = False) -> None:
    """--ruleset NAME, a preset of mjfast.fan.RULESETS: the judge's by default, or with
    `of_the_log` each log's own server's (the judge's for Botzone's, Tziakcha's for Tziakcha's)."""
    from ..fan.ruleset import RULESETS

    default = "each log's server's (judge for Botzone logs, tziakcha for Tziakcha records)" if of_the_log else "judge"
    parser.add_argument("--ruleset", choices=list(RULESETS), default=None if of_the_log else "judge",
                        help=f"the rules the wins are scored by and the advice counts with (default: {default}; "
                             "docs/fan.md, 'Rulebooks')")


def add_http_options(parser, max_body: int = 64 * 1024) -> None:
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="a web origin (https://example.org) whose pages may call the service; repeat for more, "
                             "'*' for any (default: none)")
    parser.add_argument("--max-body", type=int, default=max_body, metavar="BYTES",
                        help=f"largest request body accepted over HTTP (default {max_body})")
    parser.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                        help="the seconds an HTTP connection has to send each whole request, idle time before it "
                             "included; then it is closed (default 10)")
    parser.add_argument("--max-connections", type=int, default=512, metavar="N",
                        help="HTTP connections open at once; when full, the one that has waited longest for its "
                             "request is closed to make room (default 512)")
