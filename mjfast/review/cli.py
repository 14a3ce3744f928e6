"""`mjfast review LOG... [--player N | --bot NAME] [--out DIR] [--fan-aware]`: the command's arguments and
its run. Importing this module is cheap: the review is imported when the command runs."""

from __future__ import annotations

import argparse
import sys
import time


def add_parser(subparsers) -> None:
    """Add the `review` command to the `mjfast` command's subparsers."""
    review = subparsers.add_parser(
        "review", help="a player's games, decision by decision against mjfast: an HTML page and JSON per game",
        description="Replay every game of the logs (text or Botzone JSON, files or folders) and review every "
                    "decision of the player (discards, claims, kongs, wins) against mjfast's ranked options: a "
                    "self-contained page to step through and the same data as JSON per game, and summary.json "
                    "(docs/review.md).")
    review.add_argument("logs", nargs="+", metavar="LOG",
                        help="log files or folders (plain or gzip): Botzone's text or JSON logs, Tziakcha sessions")
    who = review.add_mutually_exclusive_group()
    who.add_argument("--player", type=int, choices=range(4), metavar="N", help="review seat N (0-3) only")
    who.add_argument("--bot", metavar="NAME",
                     help="review the seats of this player (the names in Botzone JSON logs and Tziakcha records)")
    review.add_argument("--out", default="review", metavar="DIR", help="folder for the pages (default: review)")
    ranking = review.add_mutually_exclusive_group()
    ranking.add_argument("--fan-aware", action="store_true",
                         help="rank the discards in the fan-aware ranking (milliseconds a game) instead of by value "
                              "(the default: expected score, win probability and points lost; seconds a game)")
    ranking.add_argument("--value", action="store_true", help=argparse.SUPPRESS)  # the default; the older spelling
    review.add_argument("--workers", type=int, default=None, metavar="N",
                        help="local worker processes (default: every core; 1: no worker process)")
    from ..commands.options import add_log_size_argument, add_ruleset_argument  # argparse only

    add_ruleset_argument(review, of_the_log=True)
    add_log_size_argument(review)
    review.set_defaults(run=run)


def run(args) -> int:
    from ..logs.sources import LogsError
    from .run import review_logs
    from .summary import plus_minus

    start = time.perf_counter()
    try:
        s = review_logs(args.logs, args.out, player=args.player, bot=args.bot, value=not args.fan_aware,
                        ruleset=args.ruleset, workers=args.workers, max_log_size=args.max_log_size)
    except LogsError as exc:
        print(f"mjfast review: {exc}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - start
    each = f", {seconds / s['games_reviewed']:.2f} s a game" if s["games_reviewed"] else ""
    print(f"{s['games_reviewed']} games reviewed of {s['games_read']} read ({s['games_rejected']} rejected, "
          f"{s['games_without_the_player']} without the player) in {seconds:.1f} s{each}; pages and data in "
          f"{args.out}/")
    for name, p in s["players"].items():
        agreement = "–" if p["agreement"] is None else f"{100 * p['agreement']:.1f}%"
        if p["agreement_interval"] is not None:
            low, high = p["agreement_interval"]
            agreement += f" (95% {100 * low:.1f}-{100 * high:.1f}%)"
        costs = ", ".join(f"{name.replace('_', ' ')} {plus_minus(figure)}" for name, figure in p["cost"].items()
                          if name not in ("win_probability", "expected_score"))
        top3 = "–" if p["top3"] is None else f"{100 * p['top3']:.1f}%"
        value = ""
        if p["valued"]:
            value = (f"; bad moves {p['bad_moves']} ({100 * p['bad_move_rate']:.1f}%), points lost per decision "
                     f"{plus_minus(p['points_lost'])}")
        print(f"  {name}: {p['decisions']} decisions in {p['games']} games, agreement {agreement}, top 3 {top3}"
              f"{value}; mean cost per decision: {costs or '–'}")
    from ..commands.options import nothing_read

    return nothing_read("review", s["unreadable_files"], s["rejected"], s["games_read"] - s["games_rejected"])
