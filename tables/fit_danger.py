"""Fits mjfast/advice/danger.py's models on games whose every hand is known, and prints the weights.

    python tables/fit_danger.py GAMES... > weights.txt

GAMES: game logs `mjfast.game.read_games` reads (text or Botzone JSON; files or folders) or
files of the judge harness (../shared/judge/runner.py: a JSON object whose `botzone_log` is the
Botzone log). At every discard of every game, for each opponent of the discarder, what the
discarder sees of them (mjfast.advice.danger.Opponent) and whether their hand is ready with a wait
worth 8 fans on a discard win (mjfast.fan.winning_tiles under their conditions, flowers
aside): the ready model's rows; for a ready opponent, each of the 34 tiles and whether it is
one of those waits: the wait model's rows. Both are logistic regressions (Newton's method, a
small ridge). LOSS is 8 + the mean fans (flowers included) of the wins on a discard.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mjfast.advice.danger import READY_FEATURES, WAIT_FEATURES, Opponent, ready_features, wait_features  # noqa: E402
from mjfast.fan import winning_tiles  # noqa: E402
from mjfast.game import LogError, Replay, read_botzone, read_games  # noqa: E402
from mjfast.game.state import DISCARD, DISCARD_AFTER_CLAIM  # noqa: E402
from mjfast.tiles import TILE_NAMES  # noqa: E402

TILE_ID = {name: t for t, name in enumerate(TILE_NAMES)}


def games(paths):
    """Every game of the files and folders (the judge harness's files too)."""
    for path in map(Path, paths):
        for file in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if file.suffix == ".json":
                data = json.loads(file.read_text())
                if isinstance(data, dict) and "botzone_log" in data:
                    yield read_botzone({"logs": data["botzone_log"], "initdata": data["initdata"]})
                    continue
            if file.is_file():
                yield from (g for g in read_games(file) if not hasattr(g, "reason"))


def decisions(game):
    """(Opponents, unseen, prevalent wind, each opponent's valid waits {tile: fans}, tile played,
    dealt in) of every discard of a game."""
    replay = Replay(game)
    actions = game.actions
    for i, step in enumerate(replay):
        table, action = step.table, step.action
        if action.kind != "Play" or table.phase not in (DISCARD, DISCARD_AFTER_CLAIM):
            continue
        p = action.player
        hand = table.hand(p)
        unseen = np.maximum(0, 4 - hand.counts.astype(np.int64) - hand.meld_counts - table.visible_to(p))
        opponents, waits = [], []
        for o in range(4):
            if o == p:
                continue
            seat = table.seats[o]
            opponents.append(Opponent(o, tuple(seat.discards), tuple(seat.melds), table.draws[o]))
            wins = winning_tiles(table.hand(o), seat_wind=o, prevalent_wind=table.prevalent_wind)
            waits.append({TILE_ID[name]: r.total for name, r in wins.items() if r.meets_minimum})
        after = actions[i + 1] if i + 1 < len(actions) else None
        dealt_in = after is not None and after.kind == "Hu" and after.player != p and after.tile == action.tile
        yield opponents, unseen, table.prevalent_wind, waits, action.tile, dealt_in


def logistic_fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-4) -> np.ndarray:
    w = np.zeros(x.shape[1])
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (p - y) + ridge * len(y) * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge * len(y) * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def main(paths) -> None:
    ready_x, ready_y, wait_x, wait_y, fans = [], [], [], [], []
    n_games = 0
    for game in games(paths):
        try:
            found = list(decisions(game))
        except LogError:
            continue  # a game that breaks a rule (the judge's crafted failures)
        n_games += 1
        for opponents, unseen, prevalent, waits, _, _ in found:
            for opponent, wins in zip(opponents, waits):
                ready_x.append(ready_features(opponent))
                ready_y.append(bool(wins))
                if wins:
                    wait_x.append(wait_features(opponent, unseen, prevalent))
                    label = np.zeros(34)
                    label[list(wins)] = 1.0
                    wait_y.append(label)
        last = game.actions[-2:] if len(game.actions) >= 2 else ()
        if game.fan_total is not None and [a.kind for a in last] == ["Play", "Hu"] and last[0].player != last[1].player:
            fans.append(game.fan_total)  # a win on a discard
    ready_w = logistic_fit(np.array(ready_x), np.array(ready_y, float))
    wait_w = logistic_fit(np.concatenate(wait_x), np.concatenate(wait_y))
    print(f"# {n_games} games, {len(ready_y)} (discard, opponent) pairs, {np.mean(ready_y):.3f} ready; "
          f"{len(wait_x)} ready, {np.concatenate(wait_y).mean():.4f} of the tiles a wait; "
          f"{len(fans)} wins on a discard")
    for name, weights, names in (("READY_WEIGHTS", ready_w, READY_FEATURES), ("WAIT_WEIGHTS", wait_w, WAIT_FEATURES)):
        print(f"{name} = np.array([" + ", ".join(f"{w:.3f}" for w in weights) + "])")
        for feature, w in zip(names, weights):
            print(f"#   {feature:40s} {w:+.3f}")
    print(f"LOSS = float(discarder_pays({np.mean(fans):.1f}))")


if __name__ == "__main__":
    main(sys.argv[1:])
