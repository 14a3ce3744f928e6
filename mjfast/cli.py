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
import time

from .errors import MjfastError

FORM_LABELS = {"regular": "regular", "seven_pairs": "seven pairs", "thirteen_orphans": "thirteen orphans",
               "honors_knitted": "honours and knitted", "knitted_straight": "knitted straight"}


class CommandError(MjfastError):
    """A problem with what the user asked, reported as one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not argparse's usage block
        self.exit(2, f"mjfast: {message} (see mjfast {self.prog.split(' ', 1)[-1]} --help)\n"
                  if " " in self.prog else f"mjfast: {message} (see mjfast --help)\n")


# --- terminal output -----------------------------------------------------------------------------

class Style:
    """ANSI colours when wanted, nothing otherwise; tile names or Unicode glyphs."""

    CODES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}
    # U+1F000.. : winds E S W N, dragons 中 发 白, then 1-9 characters, bamboo, dots
    GLYPH_START = {"m": 0x1F007, "s": 0x1F010, "p": 0x1F019}
    HONOR_GLYPHS = {letter: chr(0x1F000 + i) for i, letter in enumerate("ESWNCFP")}

    def __init__(self, colour: bool, glyphs: bool):
        self.colour, self.glyphs = colour, glyphs

    def __call__(self, text: str, *styles: str) -> str:
        if not self.colour or not styles:
            return text
        return f"\033[{';'.join(self.CODES[s] for s in styles)}m{text}\033[0m"

    def tile(self, name: str) -> str:
        if not self.glyphs:
            return name
        if name in self.HONOR_GLYPHS:
            return self.HONOR_GLYPHS[name] + " "  # a space: glyph widths differ between terminals
        return chr(self.GLYPH_START[name[1]] + int(name[0]) - 1) + " "

    def tiles(self, names) -> str:
        return ("" if self.glyphs else " ").join(self.tile(n) for n in names)


def _wants_colour(args) -> bool:
    """--color and --no-color first, then NO_COLOR (https://no-color.org), then the terminal."""
    if args.color or args.no_color:
        return args.color and not args.no_color
    if os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty() and os.environ.get("TERM") != "dumb"


def _style(args) -> Style:
    return Style(_wants_colour(args), args.unicode)


def _width(text: str) -> int:
    """Columns `text` takes in a terminal (CJK characters take two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


# --- the commands ------------------------------------------------------------------------------

def _parse(text: str):
    import mjfast

    return mjfast.parse_hand(text)


def _conditions(args, *names) -> dict:
    """The win conditions given on the command line, as mjfast.fan.score() takes them."""
    given = {"seat_wind": args.seat, "prevalent_wind": args.wind, "flowers": args.flowers,
             "ruleset": getattr(args, "ruleset", None)}
    for name in ("self_drawn", "last_copy", "kong", "last_tile"):
        given[name] = getattr(args, name, False)
    return {name: given[name] for name in names}


def _advise(args) -> int:
    from .service.ops import advice, claim

    hand = _parse(args.hand)
    conditions = _conditions(args, "seat_wind", "prevalent_wind", "flowers", "ruleset")
    opponents = [_opponent(text) for text in args.opponent] or None
    if args.claim is not None:
        result = claim(hand, args.claim, {"left": 1, "across": 2, "right": 3}[args.offered_by], args.visible,
                       opponents=opponents, ranking=args.ranking, draws=args.draws, budget_ms=args.budget_ms,
                       **conditions)
        return _print_claims(result, args)
    result = advice(hand, args.visible, ranking=args.ranking, draws=args.draws, drawn=args.drawn,
                    budget_ms=args.budget_ms, opponents=opponents, **conditions)
    if args.json:
        import json

        print(json.dumps(result, ensure_ascii=False))
        return 0
    style = _style(args)
    forms = " · ".join(f"{FORM_LABELS[name]} {value}" for name, value in result["shanten_by_form"].items()
                       if value is not None)
    shown = style.tiles(_hand_tiles(hand)) if style.glyphs else hand.to_compact()
    print(f"{style(shown, 'bold')}   {style(_shanten_words(result['shanten']), 'bold')}   {style(forms, 'dim')}")
    if result["options"] and "win_probability" in result["options"][0]:
        draws = len(result["options"][0]["win_by_draw"])
        print()
        print(style(f"discards by {_RANKED_BY[args.ranking or 'expected-score']}: the chance of a win of 8 fans "
                    f"within {draws} draws, the points it is worth on average", "bold", "yellow"))
        if result["model"] == "value-no-exchange":
            print(style("(lower bounds without exchanges: the time budget had no room for them)", "dim"))
        if "ready" in result:
            ready = ", ".join(f"{100 * r:.0f}%" for r in result["ready"])
            print(style(f"(net of dealing in: the opponents are ready with a wait worth 8 fans at {ready}; "
                        "each line's last figures: this discard's chance to deal in and its cost)", "dim"))
        for option in result["options"]:
            print(_option_line(option, style, _value_text(option, style)))
        return 0
    if result["model"] == "fan-aware" and (args.ranking or "expected-score") in _RANKED_BY:
        print(style("(no value figures: the time budget had no room for them; the fan-aware ranking)", "dim"))
    group = None
    for option in result["options"]:
        # fan-aware advice ranks by effective shanten: a ready hand whose waits cannot
        # reach 8 fans is still a step away, and is listed with those
        level = option.get("effective_shanten", option["shanten"])
        if level != group:
            group = level
            counted = " (waits must reach 8 fans)" if "effective_shanten" in option else ""
            print()
            print(style(f"discards to {_shanten_words(group)}{counted}", "bold", "yellow"))
        print(_option_line(option, style))
    return 0


_RANKED_BY = {"expected-score": "expected score", "win-probability": "win probability"}


def _opponent(text: str):
    """An --opponent SEAT:DISCARDS:MELDS:DRAWS (the last three may be empty or left out)."""
    from .advice.danger import opponent

    parts = text.split(":")
    if len(parts) > 4:
        raise CommandError(f"--opponent takes SEAT:DISCARDS:MELDS:DRAWS, got {text!r}")
    seat, discards, melds, draws = parts + [""] * (4 - len(parts))
    if draws and not draws.isdigit():
        raise CommandError(f"--opponent {text!r}: DRAWS is a number of tiles drawn, got {draws!r}")
    return opponent(seat, discards, melds, int(draws or 0))


def _value_text(option: dict, style: Style) -> str:
    """An option's value figures and shanten."""
    win = style(f"{100 * option['win_probability']:5.1f}%", "green" if option["win_probability"] else "red")
    text = f"{win} {option['expected_score']:6.2f}  {_shanten_words(option['shanten']):9s}"
    if "deal_in" in option:
        danger = f" {100 * option['deal_in']:4.1f}% -{option['deal_in_cost']:.2f}"
        text += style(danger, "red" if option["deal_in"] >= 0.05 else "dim")
    return text


def _print_claims(result: dict, args) -> int:
    """The answers to another player's discard, best first (mjfast advise --claim)."""
    if args.json:
        import json

        print(json.dumps(result, ensure_ascii=False))
        return 0
    style = _style(args)
    print(style(f"{result['hand']}, {result['tile']} discarded by the player {result['from']}:", "bold"))
    if result["model"] != "value":
        print(style({"value-no-exchange": "(lower bounds without exchanges: the time budget had no room for them)",
                     "fan-aware": "(the fan-aware ranking: a step closer to a wait worth 8 fans first)"}
                    [result["model"]], "dim"))
    for option in result["options"]:
        what = option["action"] + (f" {option['meld']}" if option["meld"] else "")
        what += f", then discard {style.tile(option['discard'])}" if option["discard"] else ""
        if option["action"] == "win":
            what += f" ({option['fans']} fans)"
        if "win_probability" in option:
            figures = _value_text(option, style)
        else:
            valid = option.get("valid_acceptance")
            figures = f"{_shanten_words(option['shanten']):9s}" + (f" {valid:2d} valid" if valid is not None else "")
        print("  " + figures + "  " + what)
    return 0


def _hand_tiles(hand) -> list:
    """Tile names of a hand for glyph display: melds in brackets, then standing tiles."""
    from .tiles import TILE_NAMES

    names = []
    for m in hand.melds:
        names += ["["] + [TILE_NAMES[t] for t in m.tiles] + ["]"]
    names += [TILE_NAMES[t] for t in range(34) for _ in range(int(hand.counts[t]))]
    return names


def _shanten_words(shanten: int) -> str:
    return {-1: "a win", 0: "ready"}.get(shanten, f"{shanten}-shanten")


def _option_line(option: dict, style: Style, value: str = "") -> str:
    """One discard: tile, its value figures if given, acceptance (copies, kinds), how much of it
    can reach 8 fans, then the waits with their fans (ready) or next-step acceptance and the
    useful tiles."""
    tile = style(_pad(style.tile(option["tile"]), 3), "bold", "cyan") + (f" {value}" if value else "")
    kinds = option["useful_kinds"]
    figures = f"{option['acceptance']:3d} tiles {kinds:2d} kind{'s' if kinds != 1 else ' '}"
    if "valid_acceptance" in option:
        valid = option["valid_acceptance"]
        figures += "  " + style(f"{valid:3d} reach 8 fans", "green" if valid else "red")
    if option["shanten"] == 0:
        waits = [_wait_text(w, style) for w in option.get("waits", ())] or [style.tile(t) for t in option["useful"]]
        return f"  {tile} {figures}   waits {', '.join(waits)}"
    # next acceptance is worked out only where it ranks (0.0 elsewhere): leave those blank
    following = f"next {option['next_acceptance']:6.2f}" if option["next_acceptance"] else " " * 11
    return f"  {tile} {figures}   {style(following, 'dim')}   {style.tiles(option['useful'])}"


def _wait_text(wait: dict, style: Style) -> str:
    """A wait and its fans on a discard, then self-drawn: green when the discard win reaches 8."""
    ok = wait["fans"] >= 8
    fans = f"{wait['fans']} fans, {wait['fans_self_drawn']} self-drawn"
    return f"{style.tile(wait['tile'])} {style(fans, 'green' if ok else 'red')}"


def _shanten(args) -> int:
    import mjfast

    hand = _parse(args.hand)
    by_form = mjfast.shanten_by_form(hand)
    for name, value in by_form.items():
        print(f"{FORM_LABELS[name]:20s} {'-' if value is None else value}")
    print(f"{'shanten':20s} {min(v for v in by_form.values() if v is not None)}")
    return 0


def _waits(args) -> int:
    import mjfast

    from .fan import winning_tiles

    hand = _parse(args.hand)
    waits = mjfast.waits(hand)  # a hand that has drawn raises: waits are a waiting hand's
    style = _style(args)
    if not waits:
        print(f"not ready: {_shanten_words(mjfast.shanten(hand))}")
        return 0
    print(f"waits {style.tiles(waits)}   {mjfast.acceptance(hand, visible=args.visible)} unseen")
    wins = winning_tiles(hand, **_conditions(args, "self_drawn", "seat_wind", "prevalent_wind", "flowers", "ruleset"))
    for tile, result in wins.items():
        verdict = style(f"{result.total:3d} fans", "green" if result.meets_minimum else "red")
        below = "" if result.meets_minimum else style("  below the 8-fan minimum", "red")
        print(f"  {_pad(style.tile(tile), 3)} {verdict}   {result.fan_line()}{below}")
    return 0


def _fan(args) -> int:
    from .fan import score, score_best_tile

    conditions = _conditions(args, "self_drawn", "last_copy", "kong", "last_tile", "seat_wind", "prevalent_wind",
                             "flowers", "ruleset")
    result = (score_best_tile if args.best_tile else score)(args.hand, **conditions)
    style = _style(args)
    best = " (the best of its tiles)" if args.best_tile else ""
    print(style(result.hand.to_compact(), "bold"), f"  wins on {style.tile(result.win_tile)}{best}")
    name_width = max(_width(f.name_cn) for f in result.fans)
    for fan in result.fans:
        count = f"x{fan.count}" if fan.count > 1 else ""
        print(f"  {_pad(fan.name_cn, name_width)}  {fan.name_en:34s} {fan.points:3d} {count:>3s} {fan.total:4d}")
    minimum = result.ruleset.minimum
    verdict = (f"meets the {minimum}-fan minimum" if result.meets_minimum
               else f"below the {minimum}-fan minimum: not a legal win")
    flowers = f" (flowers {result.flowers})" if result.flowers else ""
    print(style(f"  total {result.total}{flowers}: {verdict}", "bold", "green" if result.meets_minimum else "red"))
    return 0


def _warmup(args) -> int:
    start = time.perf_counter()
    from . import warmup

    parts = warmup.process_parts(os.cpu_count() or 1)
    if len(parts) == 1:
        warmup.warm_up(**parts[0])
    else:
        print(f"mjfast: compiling (or loading) every kernel in {len(parts)} processes at once, "
              "about 70 s on 2 cores when nothing is cached", file=sys.stderr, flush=True)
        failure = warmup.warm_up_in_processes(parts, warmup.child_env())
        if failure is not None:
            raise CommandError(f"the warm-up failed: {failure}")
    print(f"compiled or loaded the kernels of every call in {time.perf_counter() - start:.1f} s")
    return 0


def _http_options(args):
    from .service.server import HttpOptions

    if args.max_body < 0 or args.timeout <= 0 or args.max_connections < 1:
        raise CommandError("--max-body takes a number of bytes >= 0, --timeout a number of seconds > 0 and "
                           "--max-connections a number >= 1")
    return HttpOptions(max_body=args.max_body, timeout=args.timeout, max_connections=args.max_connections,
                       allowed_origins=tuple(args.allow_origin))


def _serve(args) -> int:
    from .service import server

    if args.http is None:
        return server.serve_lines()
    host, _, port = args.http.rpartition(":")
    if not port.isdigit() or int(port) > 65535:
        raise CommandError(f"--http takes HOST:PORT or PORT (port 0-65535), got {args.http!r}")
    return _listening(lambda: server.serve_http(host.strip("[]") or "127.0.0.1", int(port), _http_options(args)),
                      int(port))


def _web(args) -> int:
    from .service.page_server import run

    if not 0 <= args.port <= 65535:
        raise CommandError(f"--port takes 0-65535, got {args.port}")
    return _listening(lambda: run(args.host, args.port, _http_options(args), open_browser=args.open), args.port)


def _listening(serve, port: int) -> int:
    """serve(), with a busy port said in words."""
    import errno

    try:
        return serve()
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise CommandError(f"port {port} is in use: pick another (0 picks any free port)") from None
        raise


def _botzone(args) -> int:
    from .bots import BOTS, Clock
    from .bots.botzone import run

    for name in ("first_limit", "limit", "think_ms"):
        if not getattr(args, name) > 0:
            raise CommandError(f"--{name.replace('_', '-')} takes a positive number, got {getattr(args, name)}")
    if args.danger and args.bot != "mjfast":
        raise CommandError("--danger is an option of mjfast's bot; the others count no danger")
    clock = None if args.no_clock else Clock(args.first_limit, args.limit, think_ms=args.think_ms)
    bot = BOTS[args.bot](wall=args.wall, clock=clock, **({"danger": True} if args.danger else {}))
    return run(bot, keep_running=args.keep_running)


def _table(args) -> int:
    from .bots.match import run_match

    names = args.bots.split(",")
    if len(names) != 4:
        raise CommandError(f"--bots takes four bot names separated by commas, got {args.bots!r}")
    from .bots import BOTS

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
        from .game.table import TimeLimits

        limits = TimeLimits(args.first_limit, args.limit) if args.clock else None
        summary = run_match(names, range(args.seed, args.seed + args.games), wall=args.wall, rotate=args.rotate,
                            processes=args.process, log=log, timeout=args.timeout, json_folder=json_folder,
                            duplicate=args.duplicate, limits=limits)
    finally:
        if log is not None:
            log.close()
    print(summary.report())
    return 0


def _replay(args) -> int:
    from .game.gamelog import BrokenGame
    from .game.reading import check_games
    from .logs.sources import UNREADABLE, LogsError, log_files, unreadable

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


def _add_display(parser) -> None:
    parser.add_argument("--no-color", action="store_true", help="no colour (also: NO_COLOR set)")
    parser.add_argument("--color", action="store_true", help="colour even when not writing to a terminal")
    parser.add_argument("--unicode", action="store_true", help="tiles as Unicode mahjong glyphs")


def _add_winds(parser) -> None:
    parser.add_argument("--seat", default="E", help="seat wind: E S W N (default E)")
    parser.add_argument("--wind", default="E", help="prevalent wind: E S W N (default E)")
    parser.add_argument("--flowers", type=int, default=0, help="flowers (they add fans, not toward 8)")


def _add_win_flags(parser) -> None:
    parser.add_argument("--self-drawn", action="store_true", help="自摸: won on one's own draw")
    parser.add_argument("--last-copy", action="store_true", help="和绝张: the last unseen copy")
    parser.add_argument("--kong", action="store_true", help="杠上开花 (self-drawn) or 抢杠和 (on a discard)")
    parser.add_argument("--last-tile", action="store_true", help="妙手回春 / 海底捞月: the wall's last tile")


def add_ruleset_argument(parser, of_the_log: bool = False) -> None:
    """--ruleset NAME, a preset of mjfast.fan.RULESETS: the judge's by default, or with
    `of_the_log` each log's own server's (the judge's for Botzone's, Tziakcha's for Tziakcha's)."""
    from .fan.ruleset import RULESETS

    default = "each log's server's (judge for Botzone logs, tziakcha for Tziakcha records)" if of_the_log else "judge"
    parser.add_argument("--ruleset", choices=list(RULESETS), default=None if of_the_log else "judge",
                        help=f"the rules the wins are scored by and the advice counts with (default: {default}; "
                             "docs/fan.md, 'Rulebooks')")


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
    from .bounds import JSON_SHARE, MAX_LOG_SIZE, SIZE_FLAG, size_text

    parser.add_argument(SIZE_FLAG, type=_size, default=None, metavar="SIZE",
                        help=f"the most a log file may hold once decompressed (default {size_text(MAX_LOG_SIZE)}; "
                             f"a JSON log, read whole, 1/{JSON_SHARE} of it): a file past it is refused, the rest "
                             "goes on; e.g. 1G")


def _add_http_options(parser, max_body: int = 64 * 1024) -> None:
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


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mjfast", description="Chinese Official Mahjong (MCR) analyzer")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    advise = sub.add_parser("advise", help="rank every discard of a 14-tile hand (or the claims of a discard)")
    advise.add_argument("hand", help="e.g. 123m456p789s1357sE or [123m1]456p789s1357sE")
    advise.add_argument("--visible", default=None, help="tiles seen elsewhere (discards, other melds)")
    advise.add_argument("--json", action="store_true", help="the result as one JSON object")
    advise.add_argument("--ranking", choices=("expected-score", "win-probability", "fan-aware", "efficiency"),
                        default=None, help="how to rank (default: expected-score; see docs/advice.md)")
    advise.add_argument("--draws", type=int, default=None, help="the draws left in the game (default 10)")
    advise.add_argument("--opponent", action="append", default=[], metavar="SEAT:DISCARDS:MELDS:DRAWS",
                        help="an opponent as seen (their discards in order, their exposed melds, the tiles they have "
                             "drawn), e.g. S:19mEC:[CCC1]:8; repeat for each: the discards' danger is counted")
    advise.add_argument("--budget-ms", type=float, default=None, metavar="MS",
                        help="the milliseconds the value ranking may take (the richest model that fits; default: none)")
    advise.add_argument("--drawn", default=None, metavar="TILE",
                        help="the tile just drawn: it is discarded when within 0.1%% of the best (docs/advice.md)")
    advise.add_argument("--claim", default=None, metavar="TILE",
                        help="a 13-tile hand: rank passing and every claim of TILE discarded by another player")
    add_ruleset_argument(advise)
    advise.add_argument("--from", dest="offered_by", choices=("left", "across", "right"), default="left",
                        help="who discarded the --claim tile (only the player on the left can be chowed)")
    _add_winds(advise)
    _add_display(advise)
    advise.set_defaults(run=_advise)

    shanten = sub.add_parser("shanten", help="shanten of a hand, per form")
    shanten.add_argument("hand")
    shanten.set_defaults(run=_shanten)

    waits = sub.add_parser("waits", help="waits of a ready 13-tile hand and their fans")
    waits.add_argument("hand")
    waits.add_argument("--visible", default=None, help="tiles seen elsewhere (for the unseen count)")
    waits.add_argument("--self-drawn", action="store_true", help="score the wins as self-drawn")
    add_ruleset_argument(waits)
    _add_winds(waits)
    _add_display(waits)
    waits.set_defaults(run=_waits)

    fan = sub.add_parser("fan", help="fans of a winning hand; the tile written last is the winning tile")
    fan.add_argument("hand")
    fan.add_argument("--best-tile", action="store_true",
                     help="the winning tile is not named: score the hand with the tile worth most, and say which")
    add_ruleset_argument(fan)
    _add_win_flags(fan)
    _add_winds(fan)
    _add_display(fan)
    fan.set_defaults(run=_fan)

    warmup = sub.add_parser("warmup", help="compile every kernel now (first use is otherwise slow)")
    warmup.set_defaults(run=_warmup)

    serve = sub.add_parser("serve", help="JSON service: JSON lines on stdin/stdout, or HTTP")
    serve.add_argument("--http", metavar="[HOST:]PORT", default=None,
                       help="serve HTTP instead, on 127.0.0.1 unless HOST is given (port 0: any free)")
    _add_http_options(serve)
    serve.set_defaults(run=_serve)

    web = sub.add_parser("web", help="the page for players: advice to click through, the fan calculator")
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)")
    web.add_argument("--port", type=int, default=8765, help="port (default 8765; 0 picks any free port)")
    web.add_argument("--open", action="store_true", help="open the page in a browser tab")
    _add_http_options(web, 4 * 1024 * 1024)  # the page's reviews send a whole match log (100-150 KB)
    web.set_defaults(run=_web)

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
    botzone.add_argument("--think-ms", type=float, default=200.0, metavar="MS",
                         help="the most the value ranking may take in one answer (default 200)")
    botzone.add_argument("--no-clock", action="store_true", help="keep no time limit (the value ranking unbounded)")
    botzone.add_argument("--danger", action="store_true",
                         help="mjfast's bot: count the cost of dealing in (mjfast.advice.danger; measured weaker "
                              "against wr786's bot, docs/advice.md)")
    botzone.add_argument("--wall", choices=walls, default="duplicate",
                         help=wall_help + " (duplicate turns into duplicate-flowers at the first flower)")
    botzone.set_defaults(run=_botzone)

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
    table.set_defaults(run=_table)

    replay = sub.add_parser("replay", help="replay game logs, check every rule, re-score the wins")
    replay.add_argument("logs", nargs="+", metavar="LOG",
                        help="a log file (plain or gzip; the text format, Botzone's JSON match log or a Tziakcha "
                             "session), or a folder: its .txt, .log and .json files, gzipped or not")
    add_ruleset_argument(replay, of_the_log=True)
    add_log_size_argument(replay)
    replay.set_defaults(run=_replay)

    from .logs.cli import add_parser as add_logs  # argparse only: the analysis is imported when it runs
    from .review.cli import add_parser as add_review

    add_logs(sub)
    add_review(sub)
    return parser


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
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
    sys.exit(main())
