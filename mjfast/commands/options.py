"""The command line's shared pieces: its parser class, CommandError, and the options several
commands take (mjfast.cli's, `mjfast logs`' and `mjfast review`'s). A leaf: it imports only
argparse and mjfast.errors, and the rulesets' names when --ruleset is added."""

from __future__ import annotations

import argparse
import sys

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


def nothing_read(command: str, unreadable_files: list, rejected: list, games: int) -> int:
    """The end of `mjfast logs` and `mjfast review`: every file that could not be read and the
    first games rejected, on standard error; the exit status, 1 when no game (`games`: those
    that read) could be read, else 0."""
    for f in unreadable_files:
        print(f"unreadable: {f['file']}: {f['reason']}", file=sys.stderr)
    for r in rejected[:5]:
        print(f"rejected: {r['file']}: match {r['match_id']}, line {r['line']}: {r['reason']}", file=sys.stderr)
    if games:
        return 0
    print(f"mjfast {command}: no game could be read", file=sys.stderr)
    return 1


_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def _size(text: str) -> int:
    """A number of bytes written as a number and a binary unit: 300000000, 512M, 2G, 1.5GiB."""
    number = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = number[-1:] if number[-1:] in _UNITS else ""
    try:
        size = float(number[:len(number) - len(unit)]) * _UNITS[unit]
    except ValueError:
        size = -1
    if not 0 < size < 2**63:
        raise argparse.ArgumentTypeError(f"a size is a number of bytes, K, M or G (256M, 2G), got {text!r}")
    return int(size)


def add_log_size_argument(parser) -> None:
    """--max-log-size SIZE: the most a log file may hold once decompressed (mjfast.game.read_games)."""
    from ..bounds import JSON_SHARE, MAX_LOG_SIZE, SIZE_FLAG, size_text

    parser.add_argument(SIZE_FLAG, type=_size, default=None, metavar="SIZE",
                        help=f"the most a log file may hold once decompressed (default {size_text(MAX_LOG_SIZE)}; "
                             f"a JSON log, read whole, 1/{JSON_SHARE} of it): a file past it is refused, the rest "
                             "goes on; e.g. 1G")
