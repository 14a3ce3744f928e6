"""`mjfast logs PATH... --out DIR [--dask ADDRESS] [--workers N]`: the command's arguments
and its run. Importing this module is cheap: the analysis is imported when the command runs."""

from __future__ import annotations

import sys
import time


def add_parser(subparsers) -> None:
    """Add the `logs` command to the `mjfast` command's subparsers."""
    logs = subparsers.add_parser(
        "logs", help="analyse every decision of game logs: tables, summary and report (extra 'logs')",
        description="Replay and check every game of Botzone's logs (text or JSON) or Tziakcha's records, analyse "
                    "every discard and claim opportunity, and write decisions.parquet/.csv, games.parquet/.csv, "
                    "summary.json and report.md with its plots into DIR.")
    logs.add_argument("paths", nargs="+", metavar="PATH",
                      help="log files or folders (plain or gzip): the text format, Botzone's JSON match logs, or "
                           "Tziakcha sessions")
    logs.add_argument("--out", required=True, metavar="DIR", help="folder for the tables, summary and report")
    logs.add_argument("--dask", metavar="ADDRESS", default=None,
                      help="run on this Dask scheduler (e.g. tcp://10.0.0.5:8786; extra 'dask')")
    logs.add_argument("--workers", type=int, default=None, metavar="N",
                      help="local worker processes (default: every core)")
    logs.add_argument("--no-fan-aware", action="store_true",
                      help="skip the fan-aware ranking of discards (its columns stay empty): many times faster")
    logs.add_argument("--value", action="store_true",
                      help="also rank every discard by value (expected score): the value columns and agreements; "
                           "milliseconds a discard")
    from ..commands.options import add_log_size_argument, add_ruleset_argument  # argparse only

    add_ruleset_argument(logs, of_the_log=True)
    add_log_size_argument(logs)
    logs.set_defaults(run=run)


MAX_PLAYERS_PRINTED = 20  # the rest are in summary.json and report.md


def run(args) -> int:
    from .run import analyse_logs
    from .sources import LogsError

    start = time.perf_counter()
    try:
        s = analyse_logs(args.paths, args.out, workers=args.workers, dask=args.dask,
                         fan_aware=not args.no_fan_aware, value=args.value, ruleset=args.ruleset,
                         max_log_size=args.max_log_size)
    except LogsError as exc:
        print(f"mjfast logs: {exc}", file=sys.stderr)
        return 2
    judge = (f", tileCnt matched {s['tile_counts_matched']}/{s['tile_counts_checked']}, canHu matched "
             f"{s['can_hu_matched']}/{s['can_hu_checked']}" if s["botzone_json_games"] else "")
    print(f"{s['games_read']} games read, {s['games_analysed']} analysed, {s['games_rejected']} rejected; "
          f"{s['decisions']} decisions; Fan lines matched {s['fan_lines_matched']}/{s['fan_lines']}, "
          f"Score lines matched {s['score_lines_matched']}/{s['games_analysed']}{judge}; "
          f"{time.perf_counter() - start:.1f} s; report: {args.out}/report.md")
    for name, f in list(s["players_by_name"].items())[:MAX_PLAYERS_PRINTED]:
        value = ""
        if s["value"] and f["discards"]:
            value = (f", value agreement {100 * f['value_agreement']:.1f}%, bad moves {f['bad_moves']} "
                     f"({100 * f['bad_move_rate']:.1f}%), points lost per discard {f['points_lost']['mean']:.2f}")
        print(f"  {name}: {f['games']} games, mean score {f['mean_score']:+.2f}{value}")
    from ..commands.options import nothing_read

    return nothing_read("logs", s["unreadable_files"], s["rejected"], s["games_analysed"])
