"""The `mjfast` command.

    mjfast advise HAND [--visible TILES] [--json]   every discard, ranked
    mjfast shanten HAND                             shanten per form
    mjfast waits HAND                               waits of a ready hand
    mjfast warmup                                   compile every kernel once

Only the modules a command needs are imported, so that a query starts quickly.
Errors print one line naming the problem and exit with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def _advise(args) -> int:
    import mjfast

    hand = mjfast.parse_hand(args.hand)
    options = mjfast.best_discards(hand, visible=args.visible)
    by_form = mjfast.shanten_by_form(hand)
    if args.json:
        print(json.dumps({
            "hand": hand.to_compact(),
            "shanten": min(v for v in by_form.values() if v is not None),
            "shanten_by_form": by_form,
            "options": [
                {"tile": o.tile, "shanten": o.shanten, "useful": list(o.useful),
                 "acceptance": o.acceptance, "next_acceptance": round(o.next_acceptance, 3)}
                for o in options
            ],
        }, ensure_ascii=False))
        return 0
    forms = "  ".join(f"{name}={value}" for name, value in by_form.items() if value is not None)
    print(f"{hand.to_compact()}   shanten {min(v for v in by_form.values() if v is not None)}   ({forms})")
    current = None
    for o in options:
        if o.shanten != current:
            current = o.shanten
            print(f"-- discards to {'ready' if current == 0 else f'{current}-shanten'} --")
        nxt = f"   next {o.next_acceptance:5.2f}" if o.shanten > 0 else ""
        print(f"  {o.tile:>2s}  {o.acceptance:3d} tiles / {o.useful_kinds:2d} kinds{nxt}   {' '.join(o.useful)}")
    return 0


def _shanten(args) -> int:
    import mjfast

    hand = mjfast.parse_hand(args.hand)
    for name, value in mjfast.shanten_by_form(hand).items():
        print(f"{name:18s} {'-' if value is None else value}")
    print(f"{'shanten':18s} {mjfast.shanten(hand)}")
    return 0


def _waits(args) -> int:
    import mjfast

    hand = mjfast.parse_hand(args.hand)
    waits = mjfast.waits(hand)
    if not waits:
        print(f"not ready (shanten {mjfast.shanten(hand)})")
        return 0
    print(" ".join(waits), f"  ({mjfast.acceptance(hand, visible=args.visible)} unseen)")
    return 0


def _warmup(args) -> int:
    start = time.perf_counter()
    from .warmup import warm_up

    names = warm_up()
    print(f"compiled or loaded {len(names)} kernels in {time.perf_counter() - start:.1f} s")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mjfast", description="Chinese Official Mahjong analyzer")
    sub = parser.add_subparsers(dest="command", required=True)
    advise = sub.add_parser("advise", help="rank every discard of a 14-tile hand")
    advise.add_argument("hand")
    advise.add_argument("--visible", default=None, help="tiles seen elsewhere (discards, melds)")
    advise.add_argument("--json", action="store_true")
    advise.set_defaults(run=_advise)
    shanten = sub.add_parser("shanten", help="shanten of a hand, per form")
    shanten.add_argument("hand")
    shanten.set_defaults(run=_shanten)
    waits = sub.add_parser("waits", help="waits of a ready 13-tile hand")
    waits.add_argument("hand")
    waits.add_argument("--visible", default=None)
    waits.set_defaults(run=_waits)
    warmup = sub.add_parser("warmup", help="compile every kernel now (first use is otherwise slow)")
    warmup.set_defaults(run=_warmup)
    return parser


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    from .errors import HandError

    try:
        return args.run(args)
    except HandError as exc:
        print(f"mjfast: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
