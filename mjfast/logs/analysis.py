"""Replaying one logged game and analysing every decision in it.

The game is replayed by mjfast.game.Replay, which checks every rule and re-scores the result;
this module only looks at the table before each action, and stages what it sees
(staging.Staged):

* at each Play, the player's discard decision: the hand, its melds, what the table shows, the
  waiting hand the player held before the turn;
* at the first action after a discard (or an added kong), every other player's claim
  opportunity: the claims the rules allowed them (TableState decides; a win must reach 8
  fans, and is found once the waiting hands' waits are known), what they did (the action, or
  the log's Ignore clause for a claim that lost on priority).

When the replay is over, two kernel calls fill every row of the game (kernels.discard_rows,
kernels.claim_rows), in the order the replay met the decisions.

A game read from Botzone's JSON log also gives each decision its bot's answer time and
verdict (the log's bots' entries), and its game row the judge's figures as the replay checked
them, each bot's total time and first verdict other than OK, and the bots' names.

Rows go into integer matrices laid out as columns.DECISION_CELLS and columns.GAME_CELLS.
"""

from __future__ import annotations

import numpy as np

from ..efficiency.lookup_table import load_table
from ..fan.encode import pack_melds
from ..fan.ruleset import JUDGE
from ..game.gamelog import GameLog, LogError
from ..game.logformat import botzone_fans
from ..game.replay import Replay
from ..game.state import CLAIM, ROB, IllegalAction
from ..tiles import N_KINDS, TILE_INDEX, TILE_NAMES
from . import kernels as K
from .columns import DECISION_CELLS, GAME_CELLS, NA, OPTION_BITS, RESULTS, VALUE_CELLS, VERDICTS, G
from .staging import OTHERS, Staged, answer_cells, claimed

_CHI_BIT, _PENG_BIT, _GANG_BIT = (OPTION_BITS[a] for a in ("chi", "peng", "gang"))
# The phases in which the others may claim the pending tile.
_CLAIMABLE = frozenset((CLAIM, ROB))
_NO_MELDS = bytes(2 * N_KINDS)  # the tiles of no melds, all and exposed
# A game row's cells, in the order _game_row fills them: every game's, and a win's.
_GAME_ROW_CELLS = np.array([G[c] for c in ("game", "line", "prevalent_wind", "result", "score_line_matches",
                                           "discards", "plain_agreements", "fan_aware_agreements", "acceptance_lost",
                                           "score_0", "score_1", "score_2", "score_3")])
_WIN_CELLS = np.array([G["winner"], G["fan_total"], G["fan_line_matches"]])
_JUDGE_CELLS = np.array([G[c] for c in ("tile_counts_checked", "tile_counts_matched", "can_hu_checked",
                                        "can_hu_matched")])
_RESPONSE_CELLS = np.array([G[f"response_ms_{p}"] for p in range(4)])
_VERDICT_CELLS = np.array([G[f"verdict_{p}"] for p in range(4)])
_VERDICT = {verdict: i for i, verdict in enumerate(VERDICTS)}
__all__ = ["GameAnalyser", "Rows", "VALUE_CELLS", "value_cells"]


class Rows:
    """A growing int32 matrix: rows are appended in place and can be dropped from a mark."""

    def __init__(self, width: int, capacity: int = 1024):
        self.data = np.full((capacity, width), NA, np.int32)
        self.n = 0

    def append(self) -> np.ndarray:
        if self.n == len(self.data):
            self._grow(self.n + 1)
        self.n += 1
        return self.data[self.n - 1]

    def extend(self, rows: np.ndarray) -> None:
        """Append `rows` (a matrix as wide)."""
        if self.n + len(rows) > len(self.data):
            self._grow(self.n + len(rows))
        self.data[self.n:self.n + len(rows)] = rows
        self.n += len(rows)

    def _grow(self, needed: int) -> None:
        grown = np.full((max(needed, 2 * len(self.data)), self.data.shape[1]), NA, np.int32)
        grown[:self.n] = self.data[:self.n]
        self.data = grown

    def truncate(self, n: int) -> None:
        self.data[n:self.n] = NA
        self.n = n

    def take(self) -> np.ndarray:
        """The rows so far (a copy), and start again empty."""
        rows = self.data[:self.n].copy()
        self.truncate(0)
        return rows


class _Seat:
    """What the analysis keeps of one player between their turns: the waiting hand (its id
    among the staged game's hands: staging.Staged), the turns played, and the melds as last
    seen with their tiles (all and exposed, as bytes) and packed form."""

    __slots__ = ("hand", "turns", "melds", "melded", "packed")

    def __init__(self, hand: int):
        self.hand, self.turns = hand, 0
        self.melds, self.melded, self.packed = (), _NO_MELDS, 0

    def melds_now(self, melds: list) -> tuple[bytes, int]:
        """(tiles of the player's melds now, then those of the exposed ones, 2 x 34 bytes;
        packed melds), recomputed only when the melds changed (a new meld, or a pung grown
        into a kong)."""
        held = tuple(melds)
        if held != self.melds:
            melded, exposed = [0] * N_KINDS, [0] * N_KINDS
            for m in held:
                for t in m.tiles:
                    melded[t] += 1
                    if not m.concealed:
                        exposed[t] += 1
            self.melds, self.melded, self.packed = held, bytes(melded + exposed), pack_melds(held)
        return self.melded, self.packed


def value_cells(options, deal_in, tile: int) -> tuple:
    """The value ranking's cells of a discard row (see columns.py; in VALUE_CELLS' order) from
    best_discards' options in the value ranking and the danger of every tile (deal_in: per
    tile id), the tile played being `tile`. The review (mjfast.review) fills its rows with it.
    Options without value figures (value.FAN_AWARE: a hand whose graph would pass its memory
    bound) give NA but for the played tile's danger."""
    played = TILE_NAMES[tile]
    rank = next(i for i, o in enumerate(options) if o.tile == played)
    best, mine = options[0], options[rank]
    if best.expected_score is None:  # no value figures (a hand too far from ready for the value graph)
        return (NA, NA, NA, NA, NA, NA, round(1000 * deal_in[tile]), NA)
    return (TILE_INDEX[best.tile], rank + 1, round(1000 * mine.expected_score), round(1000 * best.expected_score),
            round(1000 * mine.win_probability), round(1000 * best.win_probability), round(1000 * deal_in[tile]),
            round(1000 * deal_in[TILE_INDEX[best.tile]]))


def _value_cells(table, player: int, tile: int, ruleset) -> tuple:
    """A discard row's value cells, with the danger of the tiles (danger.table_danger: shown,
    not counted, as MjfastBot plays by default), the wins scored under `ruleset`."""
    from ..advice.danger import table_danger
    from ..advice.model import draws_left
    from ..advice.options import best_discards

    draws = draws_left(table.own_draws_left(player))
    options = best_discards(table.hand(player), visible=table.visible_to(player), seat_wind=player,
                            prevalent_wind=table.prevalent_wind, flowers=table.seats[player].flowers,
                            draws=draws, drawn=table.drawn(player), ruleset=ruleset)
    return value_cells(options, table_danger(table, player, draws).deal_in, tile)


class GameAnalyser:
    """Analyses games one after another into its decision and game rows.

    fan_aware: also rank every discard by the lexicographic fan-aware ranking (knowing the
    8-fan minimum); that ranking costs far more than the rest (see docs/logs.md). value: and
    by the value ranking, mjfast.best_discards' default (milliseconds a discard: an option).
    """

    def __init__(self, fan_aware: bool = True, value: bool = False):
        self.fan_aware = fan_aware
        self.value = value
        self.lookup = load_table()
        self.scratch = K.Scratch()
        self.decisions = Rows(len(DECISION_CELLS))
        self.games = Rows(len(GAME_CELLS), 64)
        self.match_ids: list[str] = []
        self.fans: list[str] = []
        self.names: list[tuple] = []
        self.judge_mismatches: list[tuple] = []  # (game, match id, line, what)
        self._taken: tuple = ([], [])  # names and mismatches of the last take
        self.ruleset = JUDGE  # the ruleset of the game being analysed (its GameLog.ruleset)

    def analyse(self, game: GameLog, index: int) -> None:
        """Replay and analyse one game (its position among the games read: `index`); raises
        LogError for a game that breaks a rule, leaving no row of it behind."""
        replay = Replay(game)
        self.ruleset = game.ruleset
        staged = self._stage(game, replay)
        check = replay.check()
        ruleset = self.ruleset
        facts = np.array([index, game.prevalent_wind, ruleset.code, ruleset.minimum, self.fan_aware], np.int64)
        rows, failed = staged.rows(self.lookup, facts, self.scratch, self.ruleset, game.judge)
        if failed is not None:
            # the replay raises for an illegal action: only a game it took whole gets here
            seat, line, status = failed
            reason = "the tile is not in the hand" if status == K.NOT_HELD else f"kernel status {status}"
            raise LogError(game.match_id, line, f"the analysis cannot read player {seat}'s discard: {reason}")
        self.decisions.extend(rows)
        self._game_row(game, index, check, rows)

    def take(self) -> tuple[np.ndarray, np.ndarray, list, list]:
        """(decision rows, game rows, match ids, fans) of the games analysed since the last
        take, and start again empty."""
        match_ids, fans = self.match_ids, self.fans
        self.match_ids, self.fans = [], []
        self._taken = self.names, self.judge_mismatches
        self.names, self.judge_mismatches = [], []
        return self.decisions.take(), self.games.take(), match_ids, fans

    def take_botzone(self) -> tuple[list, list]:
        """What Botzone JSON logs add to the games of the last take(): (the bots' names, one
        tuple per game, "" for the text format; the judge's figures mjfast does not
        reproduce, as (game, match id, line, what))."""
        return self._taken

    def _stage(self, game: GameLog, replay: Replay) -> Staged:
        """Replay the game, staging every decision (raises the replay's LogError)."""
        record = game.judge  # a Botzone JSON log's: the bots' answers
        staged = seats = None
        last = len(game.actions) - 1
        offered = 0  # the line of the action that offered the pending tile
        for k, (action, line, table) in enumerate(replay):
            if staged is None:
                staged = Staged([s.concealed for s in table.seats], [s.flowers for s in table.seats])
                seats = [_Seat(p) for p in range(4)]
            if table.pending is not None and table.phase in _CLAIMABLE:
                self._claims(staged, table, action, line, seats, record, offered)
            if action.kind == "Play":
                after = game.actions[k + 1] if k < last else None
                dealt_in = after is not None and after.kind == "Hu" and after.player != action.player
                self._discard(staged, table, action, line, seats[action.player], record, dealt_in)
                if k == last:  # nothing follows: the others' claims on it all passed
                    after_table = table.copy()
                    try:
                        after_table.play(action.player, action.tile)
                    except IllegalAction:
                        continue  # the replay raises the game's LogError as it applies the discard
                    self._claims(staged, after_table, None, line, seats, record, line)
            if action.kind in ("Play", "BuGang"):
                offered = line
        return staged if staged is not None else Staged([[0] * N_KINDS] * 4, [0] * 4)

    def _discard(self, staged: Staged, table, action, line: int, seat: _Seat, record, dealt_in: bool) -> None:
        player, tile = action.player, action.tile
        table_seat = table.seats[player]
        melds = table_seat.melds
        melded, packed = seat.melds_now(melds)
        seat.turns += 1
        response, verdict = answer_cells(record.answer(line, player)) if record is not None else (NA, NA)
        if self.value:
            staged.values.append((len(staged.facts), _value_cells(table, player, tile, self.ruleset)))
        before, seat.hand = seat.hand, staged.next_hand()
        staged.discard(bytes(table_seat.concealed) + melded + bytes(table.shown),
                       (player, tile, len(melds), packed, before, seat.hand, seat.turns, line, dealt_in, response,
                        verdict, 0), (seat.melds, table_seat.flowers, seat.turns))

    def _claims(self, staged: Staged, table, action, line: int, seats: list, record, offered: int) -> None:
        """The claim opportunities of the players after the pending tile's giver; `action` is
        what followed (None when nothing did); offered: the line of the action that offered
        the tile (the players' answers to it follow it in a Botzone JSON log). A win is found
        later (staging.Staged.rows); the other claims here."""
        giver, tile = table.pending
        after, across, before = OTHERS[giver]
        place = staged.moment(table.pending_win(), (seats[after].hand, seats[across].hand, seats[before].hand), action,
                              line, offered)
        if table.phase == ROB:  # an added kong can only be robbed: a win
            return
        for k, player in enumerate((after, across, before)):
            # a pung needs two copies of the tile, a chow (the player after the giver only) a tile
            # beside it: else there is nothing to ask the rules
            concealed = table.seats[player].concealed
            if concealed[tile] < 2 and (k or tile >= 27 or not ((tile % 9 and concealed[tile - 1])
                                                                  or (tile % 9 != 8 and concealed[tile + 1]))):
                continue
            options, middles = self._options(table, player, tile, k == 0)
            if options:
                done, done_tile, overruled = claimed(action, player)
                answer = answer_cells(record.response(offered + 1, player)) if record is not None else (NA, NA)
                staged.claim(place + k, [seats[player].hand, tile, options, middles, done,
                                         tile if done_tile is None else done_tile, overruled, player,
                                         seats[player].turns + 1, line, *answer])

    @staticmethod
    def _options(table, player: int, tile: int, chows: bool) -> tuple[int, int]:
        """(option bits, mask of the chows' middle tiles) of the pungs, kongs and chows the rules
        allow one player on the discarded `tile`; chows: the player is the next after its giver."""
        bits = 0
        held = table.seats[player].concealed[tile]
        try:
            if held >= 2:
                table.check_claim(player, "Peng", tile)
                bits |= _PENG_BIT
            if held >= 3:
                table.check_claim(player, "Gang", tile)
                bits |= _GANG_BIT
        except IllegalAction:  # a kong needs a tile left to draw (a pung's rules are a kong's too)
            pass
        middles = 0
        if chows:
            for middle in table.chow_middles(player):
                middles |= 1 << middle
            if middles:
                bits |= _CHI_BIT
        return bits, middles

    def _game_row(self, game: GameLog, index: int, check, decisions: np.ndarray) -> None:
        row = self.games.append()
        win = check.win
        result = "win" if win is not None else ("draw" if game.drawn else "foul")
        discards, plain, fan_aware, lost = K.discard_totals(decisions)
        row[_GAME_ROW_CELLS] = (
            index, game.line, game.prevalent_wind, RESULTS.index(result), check.score_line_matches, discards, plain,
            fan_aware if self.fan_aware else NA, lost, *game.scores)
        if game.fan_total is not None:
            row[G["fan_line"]] = game.fan_total
        fans = ""
        if win is not None:
            row[_WIN_CELLS] = win.winner, check.fans.total, check.fan_line_matches
            if win.discarder is not None:
                row[G["discarder"]] = win.discarder
            fans = "+".join(f"{name}*{count}" for name, count in botzone_fans(check.fans))
        self.match_ids.append(game.match_id)
        self.fans.append(fans)
        self.names.append(game.names)
        if check.judge is not None:
            judged = check.judge
            row[_JUDGE_CELLS] = (judged.tile_counts, judged.tile_counts_matched, judged.can_hu, judged.can_hu_matched)
            self.judge_mismatches += [(index, game.match_id, line, what) for line, what in judged.mismatches]
            self._answers_row(row, game.judge)

    @staticmethod
    def _answers_row(row: np.ndarray, record) -> None:
        """Each seat's total answer time (µs) and first verdict other than OK over the game."""
        times, verdicts, timed = [0.0] * 4, ["OK"] * 4, [False] * 4
        for answers in record.responses.values():
            for p, answer in enumerate(answers):
                if answer.time is not None:
                    times[p] += answer.time
                    timed[p] = True
                if verdicts[p] == "OK" and answer.verdict != "OK":
                    verdicts[p] = answer.verdict
        for p in range(4):
            if timed[p]:
                row[_RESPONSE_CELLS[p]] = round(times[p] * 1000)
            row[_VERDICT_CELLS[p]] = _VERDICT.get(verdicts[p], _VERDICT["other"])
