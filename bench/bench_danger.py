"""The danger model against what happened: calibration on the real logs of tests/data.

    pytest bench/bench_danger.py -s

At every discard of every game in tests/data/logs (the 16 Botzone matches, the three 2026
matches and the games under the judge with flowers), mjfast.advice.danger's probability that the
tile played deals in, from what its player saw (danger.table_danger), against whether the
next action was another player's win on it. The table gives, in bins of the predicted
probability, the discards, the mean prediction and the rate that happened; then the mean
chance of being ready the model gives the opponents against the share of them that were
(their hands are in the logs).
"""

from __future__ import annotations

import numpy as np

from mjfast.advice.danger import table_danger
from mjfast.fan import winning_tiles
from mjfast.game import LogError, Replay, read_games
from mjfast.game.state import DISCARD, DISCARD_AFTER_CLAIM
from tests.data import LOGS

BINS = (0.0, 0.005, 0.01, 0.02, 0.04, 0.08, 1.0)


def _discards():
    """(predicted deal-in, dealt in, the opponents' predicted ready, their hands' ready) of
    every discard of the real logs."""
    found = []
    for path in sorted(LOGS.rglob("*")):
        if not path.is_file() or path.suffix not in (".txt", ".json"):
            continue
        for game in read_games(path):
            if hasattr(game, "reason"):
                continue
            rows = []
            try:
                actions = game.actions
                for i, step in enumerate(Replay(game)):
                    table, action = step.table, step.action
                    if action.kind != "Play" or table.phase not in (DISCARD, DISCARD_AFTER_CLAIM):
                        continue
                    p = action.player
                    danger = table_danger(table, p)
                    after = actions[i + 1] if i + 1 < len(actions) else None
                    dealt_in = after is not None and after.kind == "Hu" and after.player != p
                    ready = [any(r.meets_minimum for r in winning_tiles(table.hand(o), seat_wind=o,
                                                                        prevalent_wind=table.prevalent_wind).values())
                             for o in range(4) if o != p]
                    rows.append((danger.deal_in[action.tile], dealt_in, danger.ready, ready))
            except LogError:
                continue  # the judge's crafted failures break a rule
            found += rows
    return found


def bench_danger_calibration(benchmark):
    results = {}
    benchmark.pedantic(lambda: results.update(rows=_discards()), rounds=1, iterations=1)
    rows = results["rows"]
    predicted = np.array([r[0] for r in rows])
    happened = np.array([r[1] for r in rows], float)
    print(f"\n{len(rows)} discards of the real logs of tests/data: predicted deal-in {100 * predicted.mean():.2f}%, "
          f"dealt in {100 * happened.mean():.2f}% ({int(happened.sum())})")
    print(f"{'predicted':>14s} {'discards':>9s} {'mean predicted':>15s} {'dealt in':>9s} {'difference':>11s}")
    for low, high in zip(BINS, BINS[1:]):
        inside = (predicted >= low) & (predicted < high)
        if inside.any():
            mean, rate = predicted[inside].mean(), happened[inside].mean()
            print(f"{f'{100 * low:.1f}-{100 * high:.1f}%':>14s} {int(inside.sum()):9d} {100 * mean:14.2f}% "
                  f"{100 * rate:8.2f}% {100 * (rate - mean):+10.2f}")
            benchmark.extra_info[f"{low}-{high}"] = f"{int(inside.sum())} discards: {mean:.4f} vs {rate:.4f}"
    ready_predicted = np.array([x for r in rows for x in r[2]])
    ready_found = np.array([x for r in rows for x in r[3]], float)
    print(f"opponents ready with a wait worth 8 fans: predicted {100 * ready_predicted.mean():.1f}%, "
          f"in the hands {100 * ready_found.mean():.1f}%")
