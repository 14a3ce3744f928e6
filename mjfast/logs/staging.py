"""One game's decisions staged for the kernels: the replay (analysis.py) adds each discard and
each claim opportunity as it meets it, and rows() fills every row in two kernel calls
(kernels.discard_rows, kernels.claim_rows) and puts them in the order the replay met them.

A player's waiting hand between their turns (the deal's, then the hand each discard leaves)
is a hand id: the deal's are 0-3 and discard d leaves hand 4 + d. Its shanten and waits are
known only once discard_rows has run, so a claim opportunity is kept as the moment of the
offer (state.WinMoment) and the three players' hand ids; a win on it is found and scored then
(the claims the rules allow otherwise, a pung, a kong or a chow, the replay finds as it goes).
"""

from __future__ import annotations

import numpy as np

from ..game.outcome import score_win
from ..game.state import IllegalAction
from . import kernels as K
from .columns import CLAIM_ACTION, DECISION_CELLS, NA, OPTION_BITS, VALUE_CELLS, VERDICTS

_PASS = K._PASS
_HU_BIT = OPTION_BITS["hu"]
_VERDICT = {verdict: i for i, verdict in enumerate(VERDICTS)}
# The players who may claim a discard of each player, in turn after it.
OTHERS = tuple(((giver + 1) % 4, (giver + 2) % 4, (giver + 3) % 4) for giver in range(4))


def answer_cells(answer) -> tuple[int, int]:
    """(time in µs, verdict index) of a bot's answer (gamelog.Response), NA for none."""
    if answer is None:
        return NA, NA
    return (NA if answer.time is None else round(answer.time * 1000)), _VERDICT.get(answer.verdict, _VERDICT["other"])


def claimed(action, player: int) -> tuple[int, int, int]:
    """(what `player` did with the offered tile as an ACTIONS index, its tile as the log writes
    it or None, whether that claim lost on priority): the action that followed, or the log's
    Ignore clauses (the last one of the player, if several); a pass otherwise."""
    if action is not None and action.player == player and action.kind in CLAIM_ACTION:
        return CLAIM_ACTION[action.kind], action.tile, 0
    if action is not None:
        lost = [claim for who, claim, _ in action.ignored if who == player]
        if lost:
            return CLAIM_ACTION[lost[-1]], None, 1
    return _PASS, None, 0


class Staged:
    """The decisions of one game, staged (see the module doc). deals: the four dealt hands'
    standing counts, flowers: the flowers each player showed at the deal."""

    def __init__(self, deals, flowers):
        self.dealt = b"".join(bytes(d) for d in deals)
        self.tiles: list[bytes] = []  # four lines of 34 a discard (kernels.T_ columns)
        self.facts: list[tuple] = []  # a tuple a discard (kernels.F_ columns but the status)
        self.places: list[int] = []  # each discard's place among the game's decisions
        self.values: list[tuple] = []  # (discard, its VALUE_CELLS) for the value ranking
        self.hands: list[tuple] = [((), f, 0) for f in flowers]  # a hand id's (melds, flowers, turns)
        self.claims: dict[int, list] = {}  # place -> kernels.C_ columns, for a claim the replay allowed
        self.moments: list[tuple] = []  # (place, WinMoment, the players' hand ids, what followed, line, offered)
        self.place = 0

    def next_hand(self) -> int:
        """The id of the waiting hand the next discard leaves."""
        return K.DEALT + len(self.facts)

    def discard(self, tiles: bytes, facts: tuple, hand: tuple) -> None:
        """Add a discard: its four lines of tiles, its facts (the F_ columns, its status 0;
        F_AFTER is next_hand()) and (melds, flowers, turns) of the hand it leaves."""
        self.tiles.append(tiles)
        self.facts.append(facts)
        self.places.append(self.place)
        self.place += 1
        self.hands.append(hand)

    def moment(self, win, hands: tuple, action, line: int, offered: int) -> int:
        """Add the offer of a tile to the three players after its giver (`hands`: their hand
        ids, in turn), `win` its state.WinMoment, `action` what followed it (None: nothing) at
        `line`, `offered` the line of the action that offered it; returns the place of the
        first player's opportunity (the others' follow)."""
        place = self.place
        self.moments.append((place, win, hands, action, line, offered))
        self.place += 3
        return place

    def claim(self, place: int, cells: list) -> None:
        """A claim opportunity the replay found allowed (a pung, a kong or a chow; the win, if
        any, is added in rows()): its C_ columns."""
        self.claims[place] = cells

    def rows(self, table, game: np.ndarray, scratch, rules, record) -> "tuple[np.ndarray, tuple | None]":
        """(the game's decision rows in the order met, None), or (no rows, (seat, line,
        status) of the first discard the kernels could not read). game: the kernels.G_ facts;
        rules: the Ruleset wins are scored by; record: a Botzone JSON log's JudgeRecord (the
        answers to the claims found here), or None."""
        n = len(self.facts)
        tiles = np.frombuffer(b"".join(self.tiles), np.uint8).reshape(n, 4, 34)
        facts = np.array(self.facts, np.int64).reshape(n, K.FACTS)
        hands = np.zeros((K.DEALT + n, 2, 34), np.uint8)
        hands[:K.DEALT, 0] = np.frombuffer(self.dealt, np.uint8).reshape(K.DEALT, 34)
        figures = np.zeros((K.DEALT + n, 3), np.int64)
        discards = np.full((n, len(DECISION_CELLS)), NA, np.int32)
        failed = K.discard_rows(table, tiles, facts, hands, figures, game, scratch.plain_rows, scratch.fan_rows,
                                scratch.wait_points, scratch.work, discards)
        if failed >= 0:
            return discards[:0], tuple(int(facts[failed, c]) for c in (K.F_SEAT, K.F_LINE, K.F_STATUS))
        for d, values in self.values:
            discards[d, VALUE_CELLS] = values
        self._wins(hands, figures, rules, record)
        places = sorted(self.claims)
        claims = np.array([self.claims[p] for p in places], np.int64).reshape(len(places), K.CLAIMS)
        claim_rows = np.full((len(places), len(DECISION_CELLS)), NA, np.int32)
        K.claim_rows(table, claims, hands, figures, game, scratch.work, claim_rows)
        order = np.argsort(np.array(self.places + places, np.int64), kind="stable")
        return np.concatenate([discards, claim_rows])[order], None

    def _wins(self, hands: np.ndarray, figures: np.ndarray, rules, record) -> None:
        """Add the win to each claim opportunity whose waiting hand waits on the tile offered,
        when the win scores the minimum (a new opportunity where the rules allowed no other
        claim)."""
        if not self.moments:
            return
        ids = np.array([m[2] for m in self.moments], np.int64)
        offered = np.array([m[1].tile for m in self.moments], np.int64)[:, None]
        waits = (figures[ids, K.H_SHANTEN] == 0) & ((figures[ids, K.H_USEFUL] >> offered) & 1 == 1)
        for m, k in zip(*np.nonzero(waits)):
            place, win, hand_ids, action, line, offered_at = self.moments[m]
            hand = int(hand_ids[k])
            melds, flowers, turns = self.hands[hand]
            counts = hands[hand, 0].tolist()
            counts[win.tile] += 1
            player = (win.discarder + 1 + int(k)) % 4
            try:
                score_win(win.win(player, counts, melds, flowers), rules)
            except IllegalAction:  # complete, but under the minimum
                continue
            cells = self.claims.get(place + k)
            if cells is None:
                done, done_tile, overruled = claimed(action, player)
                answer = record.response(offered_at + 1, player) if record is not None else None
                cells = [hand, win.tile, 0, 0, done, win.tile if done_tile is None else done_tile, overruled,
                         player, turns + 1, line, *answer_cells(answer)]
                self.claims[place + k] = cells
            cells[K.C_OPTIONS] |= _HU_BIT
