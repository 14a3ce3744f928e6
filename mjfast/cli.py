"""The `mjfast` command.

    mjfast advise HAND [--visible T] [--seat W --wind W --flowers N] [--json]   every discard, ranked
    mjfast advise HAND13 --claim TILE [--from left|across|right]   pass and every claim, ranked
    mjfast shanten HAND                        shanten per form
    mjfast waits HAND [conditions]             waits of a ready hand and what each scores
    mjfast fan HAND [conditions]               the fans of a winning hand (tile written last wins)
    mjfast warmup                              compile every kernel once
    mjfast serve [--http [HOST:]PORT]          JSON service for bots (docs/protocol.md)
    mjfast web [--port P] [--open]             the page for players on localhost (docs/web.md)
    mjfast botzone [--keep-running]            a bot for Botzone's Chinese Standard Mahjong
    mjfast table [--games N] [--bots A,B,C,D]  bots play seeded games; logs in Botzone's formats
    mjfast replay LOG...                       check game logs (files or folders), re-score their wins
    mjfast logs PATH... --out DIR              analyse every decision of game logs (mjfast.logs)
    mjfast review LOG... [--player N | --bot NAME] [--out DIR]   a player's decisions against mjfast

Each command imports only what it needs, so that a query starts quickly. Errors print one
line naming the problem and exit with status 2 (MJFAST_DEBUG=1 shows the traceback of an
unexpected one).
"""

from __future__ import annotations

import argparse
import os
import sys

from .commands import games, hand, service
from .commands.options import (
    CommandError,
    Parser,
    Renamed,
    add_display,
    add_http_options,
    add_log_size_argument,
    add_ruleset_argument,
    add_win_flags,
    add_winds,
)


def _parser() -> argparse.ArgumentParser:
    parser = Parser(prog="mjfast", description="Chinese Official Mahjong (MCR) analyzer")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    advise = sub.add_parser("advise", help="rank every discard of a 14-tile hand (or the claims of a discard)")
    advise.add_argument("hand", help="e.g. 123m456p789s1357sE or [123m1]456p789s1357sE")
    advise.add_argument("--visible", default=None, help="tiles seen elsewhere (discards, other melds)")
    advise.add_argument("--json", action="store_true", help="the result as one JSON object")
    advise.add_argument("--ranking", choices=("expected-score", "win-probability", "fan-aware", "efficiency"),
                        default=None, help="how to rank (default: expected-score; see docs/advice.md)")
    advise.add_argument("--draws", type=int, default=None, help="the draws left in the game (default 10)")
    advise.add_argument("--opponent", action="append", default=[], metavar="SEAT:DISCARDS:MELDS:DRAWS:PASSED",
                        help="an opponent as seen (their discards in order, their exposed melds, the tiles they have "
                             "drawn, the others' discards since theirs, which they passed), e.g. S:19mEC:[CCC1]:8:5p; "
                             "repeat for each: the discards' danger is counted")
    advise.add_argument("--budget-ms", type=float, default=None, metavar="MS",
                        help="the milliseconds the value ranking may take (the richest model that fits; default: none)")
    advise.add_argument("--drawn", default=None, metavar="TILE",
                        help="the tile just drawn: it is discarded when within 0.1%% of the best (docs/advice.md)")
    advise.add_argument("--claim", default=None, metavar="TILE",
                        help="a 13-tile hand: rank passing and every claim of TILE discarded by another player")
    add_ruleset_argument(advise)
    advise.add_argument("--from", dest="offered_by", choices=("left", "across", "right"), default="left",
                        help="who discarded the --claim tile (only the player on the left can be chowed)")
    add_winds(advise)
    add_display(advise)
    advise.set_defaults(run=hand.advise, one_answer=True)

    shanten = sub.add_parser("shanten", help="shanten of a hand, per form")
    shanten.add_argument("hand")
    shanten.set_defaults(run=hand.shanten, one_answer=True)

    waits = sub.add_parser("waits", help="waits of a ready 13-tile hand and their fans")
    waits.add_argument("hand")
    waits.add_argument("--visible", default=None, help="tiles seen elsewhere (for the unseen count)")
    waits.add_argument("--self-drawn", action="store_true", help="score the wins as self-drawn")
    add_ruleset_argument(waits)
    add_winds(waits)
    add_display(waits)
    waits.set_defaults(run=hand.waits, one_answer=True)

    fan = sub.add_parser("fan", help="fans of a winning hand; the tile written last is the winning tile")
    fan.add_argument("hand")
    fan.add_argument("--best-tile", action="store_true",
                     help="the winning tile is not named: score the hand with the tile worth most, and say which")
    add_ruleset_argument(fan)
    add_win_flags(fan)
    add_winds(fan)
    add_display(fan)
    fan.set_defaults(run=hand.fan, one_answer=True)

    warmup = sub.add_parser("warmup", help="compile every kernel now (first use is otherwise slow)")
    warmup.set_defaults(run=hand.warmup)

    serve = sub.add_parser("serve", help="JSON service: JSON lines on stdin/stdout, or HTTP")
    serve.add_argument("--http", metavar="[HOST:]PORT", default=None,
                       help="serve HTTP instead, on 127.0.0.1 unless HOST is given (port 0: any free)")
    add_http_options(serve)
    serve.set_defaults(run=service.serve)

    web = sub.add_parser("web", help="the page for players: advice to click through, the fan calculator")
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    web.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks any free port)")
    web.add_argument("--open", action="store_true", help="open the page in a browser tab")
    add_http_options(web, 4 * 1024 * 1024)  # the page's reviews send a whole match log (100-150 KB)
    web.set_defaults(run=service.web)

    from_bots = ("mjfast", "fan-aware", "random", "shanten")  # bots.BOTS, without importing it here
    walls = ("duplicate", "duplicate-flowers", "shared")  # game.state.WALLS
    wall_help = ("duplicate: Botzone's private wall of 34 per player; duplicate-flowers: the Botzone judge with "
                 "flowers, private walls of 36; shared: one 144-tile wall with flowers")
    botzone = sub.add_parser("botzone", help="a Botzone bot (JSON or simple interaction on stdin/stdout)")
    botzone.add_argument("--keep-running", action="store_true", help="stay running between turns")
    botzone.add_argument("--bot", choices=from_bots, default="mjfast")
    botzone.add_argument("--first-limit", type=float, default=6.0, metavar="S",
                         help="seconds for the first answer of a game (default 6, Botzone's)")
    botzone.add_argument("--limit", type=float, default=1.0, metavar="S",
                         help="seconds for every later answer (default 1, Botzone's)")
    botzone.add_argument("--budget-ms", type=float, default=200.0, metavar="MS",
                         help="the most the value ranking may take in one answer (default 200)")
    botzone.add_argument("--think-ms", type=float, dest="budget_ms", action=Renamed, new="--budget-ms",
                         help=argparse.SUPPRESS)  # its name until issue 58
    botzone.add_argument("--no-clock", action="store_true", help="keep no time limit (the value ranking unbounded)")
    botzone.add_argument("--danger", action=argparse.BooleanOptionalAction,
                         help="mjfast's bot: count the cost of dealing in (mjfast.advice.danger), in the race "
                              "(default: on; docs/advice.md)")
    botzone.add_argument("--claims", type=float, metavar="SHARE",
                         help="mjfast's bot: the share (0 to 1) of the other players' discards' chances to chow "
                              "and pung that its value model counts (ValueModel.claims; docs/advice.md)")
    botzone.add_argument("--race", action=argparse.BooleanOptionalAction,
                         help="mjfast's bot: value the rest of its wall, each round a chance that another player "
                              "ends the hand (mjfast.advice.race; default: on; docs/advice.md)")
    botzone.add_argument("--wall", choices=walls, default="duplicate",
                         help=wall_help + " (duplicate turns into duplicate-flowers at the first flower)")
    botzone.set_defaults(run=games.botzone)

    table = sub.add_parser("table", help="bots play seeded games; prints scores, writes logs")
    table.add_argument("--games", type=int, default=100)
    table.add_argument("--seed", type=int, default=0, help="first seed (game k uses seed + k)")
    table.add_argument("--bots", default="mjfast,shanten,shanten,shanten", help=f"four of {', '.join(from_bots)}")
    table.add_argument("--wall", choices=walls, default="duplicate", help=wall_help)
    table.add_argument("--rotate", action="store_true", help="rotate the seats every game")
    table.add_argument("--duplicate", action="store_true",
                       help="play each seed's walls four times, the seats rotated: --games seeds, 4 x games games")
    table.add_argument("--process", action="store_true", help="run each bot as a `mjfast botzone` process")
    table.add_argument("--timeout", type=float, default=30.0, help="seconds a bot process may take per request")
    table.add_argument("--clock", action="store_true",
                       help="the judge's time limits: bots keep Botzone's clock, a late answer is a TLE foul (-30), "
                            "and each bot's answer times are reported")
    table.add_argument("--first-limit", type=float, default=6.0, metavar="S",
                       help="with --clock: seconds for a bot's first answer of a game (default 6)")
    table.add_argument("--limit", type=float, default=1.0, metavar="S",
                       help="with --clock: seconds for every later answer (default 1)")
    table.add_argument("--log", default=None, help="write the games to this file (Botzone log format), or with "
                       "--format json to this folder")
    table.add_argument("--format", choices=("text", "json"), default="text",
                       help="text: the Botzone/PKU log text, every game in the --log file; json: Botzone's own JSON "
                            "match log, one file per game (<match id>.json) in the --log folder")
    table.set_defaults(run=games.table)

    replay = sub.add_parser("replay", help="replay game logs, check every rule, re-score the wins")
    replay.add_argument("logs", nargs="+", metavar="LOG",
                        help="a log file (plain or gzip; the text format, Botzone's JSON match log or a Tziakcha "
                             "session), or a folder: its .txt, .log and .json files, gzipped or not")
    add_ruleset_argument(replay, of_the_log=True)
    add_log_size_argument(replay)
    replay.set_defaults(run=games.replay)

    from .logs.cli import add_parser as add_logs  # argparse only: the analysis is imported when it runs
    from .review.cli import add_parser as add_review

    add_logs(sub)
    add_review(sub)
    return parser


def main(argv=None) -> int:
    """Run the command `argv` (sys.argv's by default) and return its exit status."""
    return _run(_parser().parse_args(argv))


def command() -> None:
    """The installed `mjfast` command (and `python -m mjfast`): main, then the process ends.
    A command that answers one hand (advise, shanten, waits, fan) ends its process as soon as
    its answer is written out, without Python's teardown, which frees numba's and LLVM's
    objects one by one: 0.2 s of a fresh process's 0.7 s answer."""
    args = _parser().parse_args()
    status = _run(args)
    if getattr(args, "one_answer", False):
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # the reader went away, or the stream is closed
                pass
        os._exit(status)
    sys.exit(status)


def _run(args: argparse.Namespace) -> int:
    from .errors import ArgumentError, HandError

    try:
        return args.run(args)
    except (HandError, ArgumentError, CommandError) as exc:
        print(f"mjfast: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):  # the reader went away (mjfast ... | head)
            sys.stdout = open(os.devnull, "w")
            return 0
        print(f"mjfast: {exc.strerror or exc}: {exc.filename}" if exc.filename else f"mjfast: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        if os.environ.get("MJFAST_DEBUG"):
            raise
        print(f"mjfast: internal error ({type(exc).__name__}: {exc}); MJFAST_DEBUG=1 shows where", file=sys.stderr)
        return 2


if __name__ == "__main__":
    command()
