"""The hand commands: mjfast advise, shanten, waits, fan, and warmup (their kernels)."""

from __future__ import annotations

import os
import sys
import time

from .options import CommandError
from .terminal import (
    FORM_LABELS,
    RANKED_BY,
    columns,
    hand_tiles,
    option_line,
    pad,
    shanten_words,
    style_of,
    value_text,
)


def parse(text: str):
    import mjfast

    return mjfast.parse_hand(text)


def win_conditions(args, *names) -> dict:
    """The win conditions given on the command line, as mjfast.fan.score() takes them."""
    given = {"seat_wind": args.seat, "prevalent_wind": args.wind, "flowers": args.flowers,
             "ruleset": getattr(args, "ruleset", None)}
    for name in ("self_drawn", "last_copy", "kong", "last_tile"):
        given[name] = getattr(args, name, False)
    return {name: given[name] for name in names}


def advise(args) -> int:
    from ..service.ops import advice, claim

    hand = parse(args.hand)
    conditions = win_conditions(args, "seat_wind", "prevalent_wind", "flowers", "ruleset")
    opponents = [opponent_of(text) for text in args.opponent] or None
    if args.claim is not None:
        result = claim(hand, args.claim, {"left": 1, "across": 2, "right": 3}[args.offered_by], args.visible,
                       opponents=opponents, ranking=args.ranking, draws=args.draws, budget_ms=args.budget_ms,
                       **conditions)
        return print_claims(result, args)
    result = advice(hand, args.visible, ranking=args.ranking, draws=args.draws, drawn=args.drawn,
                    budget_ms=args.budget_ms, opponents=opponents, **conditions)
    if args.json:
        import json

        print(json.dumps(result, ensure_ascii=False))
        return 0
    style = style_of(args)
    forms = " · ".join(f"{FORM_LABELS[name]} {value}" for name, value in result["shanten_by_form"].items()
                       if value is not None)
    shown = style.tiles(hand_tiles(hand)) if style.glyphs else hand.to_compact()
    print(f"{style(shown, 'bold')}   {style(shanten_words(result['shanten']), 'bold')}   {style(forms, 'dim')}")
    if result["options"] and "win_probability" in result["options"][0]:
        draws = len(result["options"][0]["win_by_draw"])
        print()
        print(style(f"discards by {RANKED_BY[args.ranking or 'expected-score']}: the chance of a win of 8 fans "
                    f"within {draws} draws, the points it is worth on average", "bold", "yellow"))
        if result["model"] == "value-no-exchange":
            print(style(f"(lower bounds without exchanges: {_no_room(args)})", "dim"))
        if "ready" in result:
            ready = ", ".join(f"{100 * r:.0f}%" for r in result["ready"])
            print(style(f"(net of dealing in: the opponents are ready with a wait worth 8 fans at {ready}; "
                        "each line's last figures: this discard's chance to deal in and its cost)", "dim"))
        for option in result["options"]:
            print(option_line(option, style, value_text(option, style)))
        return 0
    if result["model"] == "fan-aware" and (args.ranking or "expected-score") in RANKED_BY:
        print(style(f"(no value figures: {_no_room(args)}; the fan-aware ranking)", "dim"))
    group = None
    for option in result["options"]:
        # fan-aware advice ranks by effective shanten: a ready hand whose waits cannot
        # reach 8 fans is still a step away, and is listed with those
        level = option.get("effective_shanten", option["shanten"])
        if level != group:
            group = level
            counted = " (waits must reach 8 fans)" if "effective_shanten" in option else ""
            print()
            print(style(f"discards to {shanten_words(group)}{counted}", "bold", "yellow"))
        print(option_line(option, style))
    return 0


def _no_room(args) -> str:
    """Why the value figures are of a smaller model than asked (mjfast.advice.value.MODELS)."""
    if args.budget_ms is not None:
        return "the time budget had no room for them, or their graph would be too large"
    return "their graph would be too large (a hand far from ready)"


def opponent_of(text: str):
    """An --opponent SEAT:DISCARDS:MELDS:DRAWS:PASSED (all but the seat may be empty or left out)."""
    from ..advice.danger import opponent

    parts = text.split(":")
    if len(parts) > 5:
        raise CommandError(f"--opponent takes SEAT:DISCARDS:MELDS:DRAWS:PASSED, got {text!r}")
    seat, discards, melds, draws, passed = parts + [""] * (5 - len(parts))
    if draws and not draws.isdigit():
        raise CommandError(f"--opponent {text!r}: DRAWS is a number of tiles drawn, got {draws!r}")
    return opponent(seat, discards, melds, int(draws or 0), passed)


def print_claims(result: dict, args) -> int:
    """The answers to another player's discard, best first (mjfast advise --claim)."""
    if args.json:
        import json

        print(json.dumps(result, ensure_ascii=False))
        return 0
    style = style_of(args)
    print(style(f"{result['hand']}, {result['tile']} discarded by the player {result['from']}:", "bold"))
    if result["model"] != "value":
        print(style({"value-no-exchange": f"(lower bounds without exchanges: {_no_room(args)})",
                     "fan-aware": "(the fan-aware ranking: a step closer to a wait worth 8 fans first)"}
                    [result["model"]], "dim"))
    for option in result["options"]:
        what = option["action"] + (f" {option['meld']}" if option["meld"] else "")
        what += f", then discard {style.tile(option['discard'])}" if option["discard"] else ""
        if option["action"] == "win":
            what += f" ({option['fans']} fans)"
        if "win_probability" in option:
            figures = value_text(option, style)
        else:
            valid = option.get("valid_acceptance")
            figures = f"{shanten_words(option['shanten']):9s}" + (f" {valid:2d} valid" if valid is not None else "")
        print("  " + figures + "  " + what)
    return 0


def shanten(args) -> int:
    import mjfast

    hand = parse(args.hand)
    by_form = mjfast.shanten_by_form(hand)
    for name, value in by_form.items():
        print(f"{FORM_LABELS[name]:20s} {'-' if value is None else value}")
    print(f"{'shanten':20s} {min(v for v in by_form.values() if v is not None)}")
    return 0


def waits(args) -> int:
    import mjfast

    from ..fan import winning_tiles

    hand = parse(args.hand)
    waits = mjfast.waits(hand)  # a hand that has drawn raises: waits are a waiting hand's
    style = style_of(args)
    if not waits:
        print(f"not ready: {shanten_words(mjfast.shanten(hand))}")
        return 0
    print(f"waits {style.tiles(waits)}   {mjfast.acceptance(hand, visible=args.visible)} unseen")
    wins = winning_tiles(hand, **win_conditions(args, "self_drawn", "seat_wind", "prevalent_wind", "flowers",
                                                "ruleset"))
    for tile, result in wins.items():
        verdict = style(f"{result.total:3d} fans", "green" if result.meets_minimum else "red")
        below = "" if result.meets_minimum else style("  below the 8-fan minimum", "red")
        print(f"  {pad(style.tile(tile), 3)} {verdict}   {result.fan_line()}{below}")
    return 0


def fan(args) -> int:
    from ..fan import score, score_best_tile

    conditions = win_conditions(args, "self_drawn", "last_copy", "kong", "last_tile", "seat_wind", "prevalent_wind",
                             "flowers", "ruleset")
    result = (score_best_tile if args.best_tile else score)(args.hand, **conditions)
    style = style_of(args)
    best = " (the best of its tiles)" if args.best_tile else ""
    print(style(result.hand.to_compact(), "bold"), f"  wins on {style.tile(result.win_tile)}{best}")
    name_width = max(columns(f.name_cn) for f in result.fans)
    for fan in result.fans:
        count = f"x{fan.count}" if fan.count > 1 else ""
        print(f"  {pad(fan.name_cn, name_width)}  {fan.name_en:34s} {fan.points:3d} {count:>3s} {fan.total:4d}")
    minimum = result.ruleset.minimum
    verdict = (f"meets the {minimum}-fan minimum" if result.meets_minimum
               else f"below the {minimum}-fan minimum: not a legal win")
    flowers = f" (flowers {result.flowers})" if result.flowers else ""
    print(style(f"  total {result.total}{flowers}: {verdict}", "bold", "green" if result.meets_minimum else "red"))
    return 0


def warmup(args) -> int:
    start = time.perf_counter()
    from .. import warmup

    parts = warmup.process_parts(os.cpu_count() or 1)
    if len(parts) == 1:
        warmup.warm_up(**parts[0])
    else:
        print(f"mjfast: compiling (or loading) every kernel in {len(parts)} processes at once, "
              "about a minute on 2 cores when nothing is cached", file=sys.stderr, flush=True)

        def progress(kernels: int, seconds: float) -> None:
            print(f"mjfast: {kernels} kernels compiled in {seconds:.0f} s so far", file=sys.stderr, flush=True)

        failure = warmup.warm_up_in_processes(parts, warmup.child_env(), progress=progress)
        if failure is not None:
            raise CommandError(f"the warm-up failed: {failure}")
    print(f"compiled or loaded the kernels of every call in {time.perf_counter() - start:.1f} s")
    return 0
