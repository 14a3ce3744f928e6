"""Fan-aware discard advice: speed beside plain best_discards, and the expert puzzle figures.

    pytest bench/bench_advice.py

Hands come from the expert puzzles (real best-discard questions): those whose best discard
leaves a ready hand, and those one step from ready.
"""

from __future__ import annotations

import numpy as np

import mjfast
from mjfast.advice import fan_aware as advice
from mjfast.advice import plain
from mjfast.advice.position import new_position
from mjfast.efficiency import api
from mjfast.fan.encode import pack_melds
from mjfast.fan.ruleset import ruleset_of
from mjfast.hand import parse_hand
from tests.puzzles import agreement, load_puzzles

PUZZLES = load_puzzles()
READY = [p.hand for p in PUZZLES if p.ready][:100]
ONE_STEP = [p.hand for p in PUZZLES if not p.ready][:100]


def _info(benchmark, task, hands):
    benchmark.extra_info.update(task=task, lib="mjfast", hands=hands)


def bench_fan_aware_ready(benchmark):
    mjfast.best_discards(READY[0], ranking="fan-aware")
    _info(benchmark, "fan-aware best discard, result ready", len(READY))
    benchmark(lambda: [mjfast.best_discards(h, ranking="fan-aware") for h in READY])


def bench_plain_ready(benchmark):
    _info(benchmark, "plain best discard (+next), same ready hands", len(READY))
    benchmark(lambda: [mjfast.best_discards(h, fan_aware=False) for h in READY])


def _kernel_inputs(hands):
    """The kernels' inputs for hands parsed beforehand: (counts, meld counts, melds, packed melds)."""
    parsed = [parse_hand(h) for h in hands]
    return [h.kernel_arrays() + (pack_melds(h.melds) if h.melds else 0,) for h in parsed]


def bench_fan_aware_ready_kernel(benchmark):
    """The fan-aware kernel alone on the ready hands (parsed, packed and allocated
    beforehand): what best_discards spends beyond it is Python (parsing, options)."""
    inputs = _kernel_inputs(READY)
    table, work, rules, seen = *api.kernel_context(), ruleset_of(None), np.zeros(34, np.uint8)
    rows, wait_points = np.empty((34, 9)), np.zeros((34, 34, 2), np.int64)

    positions = [new_position(table, counts, meld_counts, n_melds, melds, 14, seen, 0, 0, rules.code, rules.minimum, 0)
                 for counts, meld_counts, n_melds, melds in inputs]

    def run():
        for position in positions:
            advice.fan_discards_of(position, True, rows, wait_points, work)

    _info(benchmark, "fan-aware kernel alone (parsed), result ready", len(READY))
    benchmark(run)


def bench_plain_ready_kernel(benchmark):
    inputs = _kernel_inputs(READY)
    table, work, seen, rows = *api.kernel_context(), np.zeros(34, np.uint8), np.empty((34, 5))

    def run():
        for counts, meld_counts, n_melds, _ in inputs:
            plain.discards_of(table, counts, meld_counts, n_melds, seen, True, rows, work)

    _info(benchmark, "plain kernel alone (parsed), same ready hands", len(READY))
    benchmark(run)


def bench_fan_aware_one_step(benchmark):
    _info(benchmark, "fan-aware best discard, result one step from ready", len(ONE_STEP))
    benchmark.pedantic(lambda: [mjfast.best_discards(h, ranking="fan-aware") for h in ONE_STEP], rounds=3,
                       iterations=1)


def bench_plain_one_step(benchmark):
    _info(benchmark, "plain best discard (+next), same one-step hands", len(ONE_STEP))
    benchmark(lambda: [mjfast.best_discards(h, fan_aware=False) for h in ONE_STEP])


def bench_expert_puzzle_agreement(benchmark):
    """Not a speed figure: how many of the 927 puzzles mjfast answers as the experts do."""
    results = {}

    def run():
        for name, concealed in (("chows shown as melds", False), ("chows concealed", True)):
            results[name] = agreement(load_puzzles(concealed),
                                      lambda h: mjfast.best_discards(h, ranking="fan-aware")[0].tile)[0]
            results[f"value, {name}"] = agreement(load_puzzles(concealed),
                                                  lambda h: mjfast.best_discards(h)[0].tile)[0]
            plain = agreement(load_puzzles(concealed), lambda h: mjfast.best_discards(h, fan_aware=False)[0].tile)[0]
            results[name + ", plain efficiency"] = plain

    benchmark.pedantic(run, rounds=1, iterations=1)
    for name, tally in results.items():
        line = f"expert puzzles ({name}): ready {tally['ready'][0]}/{tally['ready'][1]}, " \
               f"one step {tally['one_step'][0]}/{tally['one_step'][1]}"
        benchmark.extra_info[name] = line
        print("\n" + line)
