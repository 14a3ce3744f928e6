"""The game commands: mjfast botzone (a bot), table (bots play) and replay (logs checked)."""

from __future__ import annotations

import os
import sys

from .options import CommandError


def botzone(args) -> int:
    from ..bots import BOTS, Clock
    from ..bots.botzone import run

    for name in ("first_limit", "limit", "budget_ms"):
        if not getattr(args, name) > 0:
            raise CommandError(f"--{name.replace('_', '-')} takes a positive number, got {getattr(args, name)}")
    if (args.danger is not None or args.race is not None or args.claims is not None) and args.bot != "mjfast":
        raise CommandError("--[no-]danger, --[no-]race and --claims are options of mjfast's bot; the others have "
                           "no value model")
    if args.claims is not None and not 0 <= args.claims <= 1:
        raise CommandError(f"--claims takes the share of the claims counted, 0 to 1, got {args.claims}")
    clock = None if args.no_clock else Clock(args.first_limit, args.limit, budget_ms=args.budget_ms)
    options = {name: getattr(args, name) for name in ("danger", "race") if getattr(args, name) is not None}
    if args.claims is not None:
        options["claims"] = args.claims
    bot = BOTS[args.bot](wall=args.wall, clock=clock, **options)
    return run(bot, keep_running=args.keep_running)


def table(args) -> int:
    from ..bots.match import run_match

    names = args.bots.split(",")
    if len(names) != 4:
        raise CommandError(f"--bots takes four bot names separated by commas, got {args.bots!r}")
    from ..bots import BOTS

    unknown = [n for n in names if n not in BOTS]
    if unknown:
        raise CommandError(f"unknown bot {unknown[0]!r}; known: {', '.join(BOTS)}")
    json_folder = None
    if args.format == "json":
        if not args.log:
            raise CommandError("--format json writes one Botzone JSON log per game into the folder --log DIR")
        if args.wall == "shared":
            raise CommandError("Botzone JSON logs hold the judge's walls: --wall duplicate or duplicate-flowers")
        json_folder = args.log
        os.makedirs(json_folder, exist_ok=True)
    log = open(args.log, "w", encoding="utf-8") if args.log and json_folder is None else None
    try:
        from ..game.table import TimeLimits

        limits = TimeLimits(args.first_limit, args.limit) if args.clock else None
        summary = run_match(names, range(args.seed, args.seed + args.games), wall=args.wall, rotate=args.rotate,
                            processes=args.process, log=log, timeout=args.timeout, json_folder=json_folder,
                            duplicate=args.duplicate, limits=limits)
    finally:
        if log is not None:
            log.close()
    print(summary.report())
    return 0


def replay(args) -> int:
    from ..game.gamelog import BrokenGame
    from ..game.reading import check_games
    from ..logs.sources import UNREADABLE, LogsError, log_files, unreadable

    try:
        files = log_files(args.logs)  # the files and folders `mjfast logs` reads
    except LogsError as exc:
        raise CommandError(str(exc)) from None
    read = broken = fan_ok = fan_lines = score_ok = 0
    judged = tiles = tiles_ok = can_hu = can_hu_ok = 0  # the judge's figures of Botzone JSON logs
    bad_files: list = []
    for path in files:
        in_file = 0
        try:
            for item in check_games(path, args.ruleset, args.max_log_size):
                read += 1
                in_file += 1
                if isinstance(item, BrokenGame):
                    broken += 1
                    print(f"{path}: {item}")
                    continue
                if item.fan_line_matches is not None:
                    fan_lines += 1
                    fan_ok += item.fan_line_matches
                score_ok += item.score_line_matches
                if item.judge is not None:
                    judged += 1
                    check = item.judge
                    tiles, tiles_ok = tiles + check.tile_counts, tiles_ok + check.tile_counts_matched
                    can_hu, can_hu_ok = can_hu + check.can_hu, can_hu_ok + check.can_hu_matched
                    for line, what in check.mismatches:
                        print(f"{path}: match {item.game.match_id}, line {line}: the judge's {what}")
        except UNREADABLE as exc:
            bad_files.append(str(path))
            print(f"{path}: cannot be read: {unreadable(path, exc, in_file)}", file=sys.stderr)
    judge = f"; tileCnt matched {tiles_ok}/{tiles}, canHu matched {can_hu_ok}/{can_hu}" if judged else ""
    unread = f"; {len(bad_files)} file(s) could not be read: {', '.join(bad_files)}" if bad_files else ""
    print(f"{read} games read, {read - broken} replayed, {broken} broken; Fan lines matched {fan_ok}/{fan_lines}, "
          f"Score lines matched {score_ok}/{read - broken}{judge}{unread}")
    if read == broken:
        print("mjfast replay: no game could be read", file=sys.stderr)
    matched = fan_ok == fan_lines and score_ok == read - broken and tiles_ok == tiles and can_hu_ok == can_hu
    return 0 if broken == 0 and not bad_files and read and matched else 1
