"""Fits mjfast/advice/race.py's model on games and prints its weights and calibration.

    python tables/fit_race.py GAMES... [--check GAMES...]

GAMES as tables/fit_danger.py reads them (logs, or the judge harness's files). At every draw
of every player, the round's stage (the draws the player made before it), the melds the
other players have exposed, and whether another player's win ends the hand before the
player's next draw (a round the player wins themselves, or after which the wall ends the
hand, is not one the race ended). A logistic regression (fit_danger.logistic_fit); the check
games' rounds are then binned by the predicted chance, about 100 a bin. RACE_ENDING: what a
player pays, on average, when another player's win ends the hand and they did not deal in
(8 + fans to a self-drawn win, 8 to a win on a third player's discard).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fit_danger import games, logistic_fit  # noqa: E402

from mjfast.advice.race import RACE_FEATURES, race_features  # noqa: E402
from mjfast.game import LogError, Replay  # noqa: E402


def endings(game):
    """What each player who neither won nor dealt in paid for the game's win (none without one)."""
    actions = game.actions
    if not actions or actions[-1].kind != "Hu" or game.fan_total is None:
        return []
    winner = actions[-1].player
    last = [a for a in actions[:-1] if a.kind != "BuHua"][-1]  # the draw or the discard won on
    if last.player == winner:
        return [8 + game.fan_total] * 3
    return [8] * 2


def rounds(game):
    """(stage, the others' melds, ended by another player's win) of every draw of a game."""
    seen, winner = [], None
    table = None
    for step in Replay(game):
        action, table = step.action, step.table
        if action.kind == "Draw":
            p = action.player
            melds = sum(len(table.seats[o].melds) for o in range(4) if o != p)
            seen.append((p, table.draws[p], melds))
        elif action.kind == "Hu":
            winner = action.player
    last = {p: i for i, (p, _, _) in enumerate(seen)}
    return [(stage, melds, winner is not None and winner != p and last[p] == i)
            for i, (p, stage, melds) in enumerate(seen)]


def table_of(paths):
    rows, paid = [], []
    for game in games(paths):
        try:
            rows += rounds(game)
        except LogError:
            continue  # a game that breaks a rule (the judge's crafted failures)
        paid += endings(game)
    data = np.array(rows, np.float64).reshape(-1, 3)
    return race_features(data[:, 0], data[:, 1]), data[:, 2], paid


def main(argv) -> None:
    fit_paths, check_paths = (argv[:argv.index("--check")], argv[argv.index("--check") + 1:]) \
        if "--check" in argv else (argv, [])
    x, y, paid = table_of(fit_paths)
    weights = logistic_fit(x, y, ridge=1e-7)
    print(f"# {len(y)} rounds, {y.mean():.4f} ended by another player's win; {len(paid)} such payments")
    print("RACE_WEIGHTS = np.array([" + ", ".join(f"{w:.3f}" for w in weights) + "])")
    print(f"RACE_ENDING = {np.mean(paid):.1f}")
    for feature, w in zip(RACE_FEATURES, weights):
        print(f"#   {feature:40s} {w:+.3f}")
    for name, (cx, cy, _) in [("fit", (x, y, paid))] + ([("check", table_of(check_paths))] if check_paths else []):
        predicted = 1.0 / (1.0 + np.exp(-(cx @ weights)))
        order = np.argsort(predicted, kind="stable")
        print(f"# {name}: {len(cy)} rounds; predicted / seen by bin")
        for part in np.array_split(order, max(1, min(10, len(cy) // 100))):
            print(f"#   {100 * predicted[part].mean():5.1f}%  {100 * cy[part].mean():5.1f}%  ({len(part)})")


if __name__ == "__main__":
    main(sys.argv[1:])
