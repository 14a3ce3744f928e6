"""Measures how often the other players discard a tile, for the value model's claims
(mjfast/advice/claim_rates.py holds what it prints), on real game logs.

    python tables/fit_claims.py [GAMES...]     # default: the real matches of tests/data

At every discard of every game, for each player who could take it (the three others), the
tiles that player has not seen (4 less their hand, their melds and what is on the table): if
discards fell on the unseen tiles in proportion to their copies, a tile of class c would be
discarded with probability (unseen copies of c) / (unseen tiles). The rate of a class at a
stage of the game is how many discards of it there were over that expectation: honours, whose
copies are many early and wanted by few, come out far above 1, the middle tiles below. The
stage is the own draws that player could still make (TableState.own_draws_left).

Then three checks of the model as the value graph uses it, after each discard of a player:
- each tile they could pung (a pair held): the predicted chance that one of the next three
  discards (by the others, before their next draw) is that tile, against how often it was:
  what PUNG_HELD corrects;
- each tile they could chow: the left player's next discard, the same: CHOW_HELD;
- a hand not ready: the chance that the round brings it a step closer (a useful draw only,
  or a useful draw or claim as the model counts them) against how often the player's next
  discard left a closer hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mjfast import Hand, shanten, useful_tiles  # noqa: E402
from mjfast.advice.claim_rates import (  # noqa: E402
    CHOW_HELD,
    PUNG_HELD,
    STAGE_DRAWS,
    discard_share,
    stage_of,
    tile_class,
)
from mjfast.game import Replay, read_games  # noqa: E402
from mjfast.game.state import DISCARD, DISCARD_AFTER_CLAIM  # noqa: E402
from mjfast.tiles import tile_id  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "logs"
SOURCES = [DATA / "botzone_mahjong_gb_16matches.txt"] + sorted((DATA / "botzone_json").glob("*.json"))
CLASSES = ("honours", "terminals", "2 and 8", "3 to 7")


def chowable(counts, t):
    """Whether the hand holds two tiles that make a chow with t."""
    if t >= 27:
        return False
    r = t % 9
    return any(0 <= r + a and r + b <= 8 and counts[t + a] and counts[t + b] for a, b in ((-2, -1), (-1, 1), (1, 2)))


def discards(paths):
    """Every game's discards in order: (table before it, player, tile, whether it follows a claim)."""
    for path in paths:
        for game in read_games(path):
            if hasattr(game, "reason"):
                continue
            yield [(step.table.copy(), step.action.player, step.action.tile,  # the replay goes on with its table
                    step.table.phase == DISCARD_AFTER_CLAIM)
                   for step in Replay(game)
                   if step.action.kind == "Play" and step.table.phase in (DISCARD, DISCARD_AFTER_CLAIM)]


def measure(paths):
    """(observed, expected) discards by class and stage, and every turn after a discard: (the
    game's discards, the index of the discard, the hand left, its unseen tiles, its stage)."""
    observed = np.zeros((4, len(STAGE_DRAWS)))
    expected = np.zeros((4, len(STAGE_DRAWS)))
    turns = []
    for plays in discards(paths):
        for i, (table, giver, tile, _) in enumerate(plays):
            for p in range(4):
                hand = table.hand(p)
                unseen = np.maximum(0, 4 - hand.counts.astype(np.int64) - hand.meld_counts - table.visible_to(p))
                stage = stage_of(table.own_draws_left(p))
                if p == giver:
                    counts = hand.counts.copy()
                    counts[tile] -= 1
                    turns.append((plays, i, Hand(counts, hand.melds), unseen, stage))
                    continue
                observed[tile_class(tile), stage] += 1
                for t in range(34):
                    expected[tile_class(t), stage] += unseen[t] / unseen.sum()
    return observed, expected, turns


def claim_chance(counts, t, q):
    """The model's chance that a round offers t to claim, q the chance a discard is t."""
    if counts[t] >= 2:
        return 1.0 - (1.0 - PUNG_HELD * q) ** 3
    return CHOW_HELD * q if chowable(counts, t) else 0.0


def checks(turns):
    """The three checks of the module doc, printed."""
    held = {True: [0.0, 0, 0], False: [0.0, 0, 0]}  # pung / chow: predicted, seen, chances
    closer = {}  # shanten band: [turns, closer, of them by a claim, draw only, draw or claim]
    for plays, i, hand, unseen, stage in turns:
        after = plays[i + 1:i + 4]
        p = plays[i][1]
        in_turn = len(after) == 3 and [g for _, g, _, _ in after] == [(p + 1) % 4, (p + 2) % 4, (p + 3) % 4]
        counts, total = hand.counts, unseen.sum()
        for t in range(34):
            pung = counts[t] >= 2
            if in_turn and unseen[t] > 0 and (pung or chowable(counts, t)):
                q = discard_share(tile_class(t), stage) * unseen[t] / total
                f = held[bool(pung)]
                f[0] += 1.0 - (1.0 - q) ** 3 if pung else q
                f[1] += any(x == t for _, _, x, _ in after) if pung else after[2][2] == t
                f[2] += 1
        s = shanten(hand)
        later = next((j for j in range(i + 1, len(plays)) if plays[j][1] == p), None)
        if s < 1 or later is None:
            continue
        useful = [tile_id(x) for x in useful_tiles(hand)]
        draw = sum(unseen[u] for u in useful) / total
        missed = np.prod([1.0 - claim_chance(counts, u, discard_share(tile_class(u), stage) * unseen[u] / total)
                          for u in useful])
        table, _, _, claimed = plays[later]
        band = closer.setdefault(min(s, 3), [0, 0, 0, 0.0, 0.0])
        gained = shanten(table.hand(p)) < s
        band[0] += 1
        band[1] += gained
        band[2] += gained and claimed
        band[3] += draw
        band[4] += 1.0 - (1.0 - draw) * missed
    for pung, (predicted, seen, n) in held.items():
        print(f"# {'pung: any of the next three discards' if pung else 'chow: the left player next discard'}: "
              f"{n} chances, predicted {predicted / n:.4f}, seen {seen / n:.4f}: HELD {seen / predicted:.2f}")
    print("# a step closer by the player's next discard: shanten, turns, seen (by a claim), model draw only, "
          "model draw or claim")
    for s, (n, gained, by_claim, draw, either) in sorted(closer.items()):
        print(f"  {s}{'+' if s == 3 else ' '} {n:5d}  {gained / n:.3f} ({by_claim / n:.3f})  {draw / n:.3f}  "
              f"{either / n:.3f}")


def main(paths):
    observed, expected, turns = measure(paths)
    rates = observed / np.maximum(expected, 1e-9)
    print("# discards by class and stage: observed / expected if in proportion to unseen copies")
    print(f"{'class':>10s} " + " ".join(f"{'stage ' + str(s):>18s}" for s in range(len(STAGE_DRAWS))))
    for c, name in enumerate(CLASSES):
        print(f"{name:>10s} " + " ".join(f"{observed[c, s]:6.0f}/{expected[c, s]:7.1f}={rates[c, s]:4.2f}"
                                         for s in range(len(STAGE_DRAWS))))
    print("RATES = (" + ", ".join("(" + ", ".join(f"{rates[c, s]:.2f}" for s in range(len(STAGE_DRAWS))) + ")"
                                  for c in range(4)) + ")")
    checks(turns)


if __name__ == "__main__":
    main(sys.argv[1:] or SOURCES)
