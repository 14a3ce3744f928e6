"""Replaying one logged game and analysing every decision in it.

The game is replayed by mjfast.game.Replay, which checks every rule and re-scores the result;
this module only looks at the table before each action:

* at each Play, the player's discard decision (kernels.discard_row);
* at the first action after a discard (or an added kong), every other player's claim
  opportunity: the claims the rules allowed them (TableState decides; a win must reach 8
  fans), what they did (the action, or the log's Ignore clause for a claim that lost on
  priority) and the shanten each claim would have given.

A player's waiting hand between their turns is the hand left by their last discard (or the
deal): its shanten and waits are known from that decision, and so are the discards its
standing tiles could pung or chow, so claims cost nothing to find except where a claim is
possible.

A game read from Botzone's JSON log also gives each decision its bot's answer time and
verdict (the log's bots' entries), and its game row the judge's figures as the replay checked
them, each bot's total time and first verdict other than OK, and the bots' names.

Rows go into integer matrices laid out as columns.DECISION_CELLS and columns.GAME_CELLS.
"""

from __future__ import annotations

import numpy as np

from ..efficiency.lookup_table import load_table
from ..efficiency.status import OK
from ..fan.encode import pack_melds
from ..fan.ruleset import JUDGE
from ..game.gamelog import GameLog, LogError
from ..game.logformat import botzone_fans
from ..game.outcome import score_win
from ..game.replay import Replay
from ..game.state import CLAIM, ROB, IllegalAction
from ..tiles import N_KINDS, TILE_INDEX, TILE_NAMES
from . import kernels as K
from .columns import ACTIONS, CLAIM_ACTION, DECISION_CELLS, GAME_CELLS, NA, OPTION_BITS, RESULTS, VERDICTS, D, G

_PASS = ACTIONS.index("pass")
_CHI_BIT, _PENG_BIT, _GANG_BIT, _HU_BIT = (OPTION_BITS[a] for a in ("chi", "peng", "gang", "hu"))
# The phases in which the others may claim the pending tile.
_CLAIMABLE = frozenset((CLAIM, ROB))
_NO_MELDS = np.zeros(N_KINDS, np.uint8)
# The players who may claim a discard of each player, in turn after it.
_OTHERS = tuple(((giver + 1) % 4, (giver + 2) % 4, (giver + 3) % 4) for giver in range(4))
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


def _verdict(verdict: str) -> int:
    return _VERDICT.get(verdict, _VERDICT["other"])


def _answer(row: np.ndarray, answer) -> None:
    """A decision row's answer cells: the bot's time (µs) and verdict (gamelog.Response)."""
    if answer is not None:
        if answer.time is not None:
            row[D["response_ms"]] = round(answer.time * 1000)
        row[D["verdict"]] = _verdict(answer.verdict)


class Rows:
    """A growing int32 matrix: rows are appended in place and can be dropped from a mark."""

    def __init__(self, width: int, capacity: int = 1024):
        self.data = np.full((capacity, width), NA, np.int32)
        self.n = 0

    def append(self) -> np.ndarray:
        if self.n == len(self.data):
            grown = np.full((2 * len(self.data), self.data.shape[1]), NA, np.int32)
            grown[:self.n] = self.data
            self.data = grown
        self.n += 1
        return self.data[self.n - 1]

    def truncate(self, n: int) -> None:
        self.data[n:self.n] = NA
        self.n = n

    def take(self) -> np.ndarray:
        """The rows so far (a copy), and start again empty."""
        rows = self.data[:self.n].copy()
        self.truncate(0)
        return rows


class _Seat:
    """What the analysis keeps of one player between their turns: the waiting hand as the
    kernels read it (counts, meld_counts, n_melds; kernels.discard_row updates counts in
    place), its shanten, useful tiles and waits (tile masks; no waits unless ready), the
    discards it could claim from anyone (a win or a pung) and from the player before (a chow
    too), the turns played, and the melds as last seen with their tile counts (all, and the
    exposed ones) and packed form."""

    __slots__ = ("counts", "meld_counts", "n_melds", "shanten", "useful", "waits", "claims_any", "claims_next",
                 "turns", "melds", "melded", "exposed", "packed")

    def __init__(self, counts: np.ndarray, figures: tuple):
        """figures: kernels.waiting_figures of the hand."""
        self.counts, self.meld_counts, self.n_melds = counts, _NO_MELDS, 0
        self.turns = 0
        self.melds, self.melded, self.exposed, self.packed = (), _NO_MELDS, _NO_MELDS, 0
        self.figures(*figures)

    def figures(self, shanten: int, useful: int, pungs: int, chows: int) -> None:
        """Set the waiting hand's shanten and useful tiles, and its claim masks (pungs, chows:
        kernels.claim_masks); they are kept as masks so that the test of every discard for
        claims is one shift (see _claims)."""
        self.shanten, self.useful = shanten, useful
        self.waits = useful if shanten == 0 else 0
        self.claims_any = self.waits | pungs
        self.claims_next = self.claims_any | chows

    def melds_now(self, melds: list) -> tuple[np.ndarray, np.ndarray, int]:
        """(meld tile counts, exposed meld tile counts, packed melds) of the player's melds
        now; recomputed only when they changed (a new meld, or a pung grown into a kong)."""
        held = tuple(melds)
        if held != self.melds:
            melded, exposed = np.zeros(N_KINDS, np.uint8), np.zeros(N_KINDS, np.uint8)
            for m in held:
                for t in m.tiles:
                    melded[t] += 1
                    if not m.concealed:
                        exposed[t] += 1
            self.melds, self.melded, self.exposed, self.packed = held, melded, exposed, pack_melds(held)
        return self.melded, self.exposed, self.packed


VALUE_CELLS = [D[name] for name in ("best_value", "value_rank", "expected_score_after", "best_expected_score",
                                      "win_probability_after", "best_win_probability", "deal_in_after",
                                      "best_deal_in")]


def value_cells(options, deal_in, tile: int) -> tuple:
    """The value ranking's cells of a discard row (see columns.py; in VALUE_CELLS' order) from
    best_discards' options in the value ranking and the danger of every tile (deal_in: per
    tile id), the tile played being `tile`. The review (mjfast.review) fills its rows with it."""
    played = TILE_NAMES[tile]
    rank = next(i for i, o in enumerate(options) if o.tile == played)
    best, mine = options[0], options[rank]
    return (TILE_INDEX[best.tile], rank + 1, round(1000 * mine.expected_score), round(1000 * best.expected_score),
            round(1000 * mine.win_probability), round(1000 * best.win_probability), round(1000 * deal_in[tile]),
            round(1000 * deal_in[TILE_INDEX[best.tile]]))


def _value_cells(row, table, player: int, tile: int, ruleset) -> None:
    """Fill a discard row's value cells, with the danger of the tiles (danger.table_danger:
    shown, not counted, as MjfastBot plays by default), the wins scored under `ruleset`."""
    from ..advice.danger import table_danger
    from ..advice.model import draws_left
    from ..advice.options import best_discards

    draws = draws_left(table.own_draws_left(player))
    options = best_discards(table.hand(player), visible=table.visible_to(player), seat_wind=player,
                            prevalent_wind=table.prevalent_wind, flowers=table.seats[player].flowers,
                            draws=draws, drawn=table.drawn(player), ruleset=ruleset)
    row[VALUE_CELLS] = value_cells(options, table_danger(table, player, draws).deal_in, tile)


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
        self._rejection: "LogError | None" = None  # a decision the kernels could not read (see _discard)
        self.rules = JUDGE  # the rules of the game being analysed (its GameLog.ruleset)

    def analyse(self, game: GameLog, index: int) -> None:
        """Replay and analyse one game (its position among the games read: `index`); raises
        LogError for a game that breaks a rule, leaving no row of it behind."""
        mark = self.decisions.n
        try:
            self._analyse(game, index)
        except LogError:
            self.decisions.truncate(mark)
            raise

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

    def _analyse(self, game: GameLog, index: int) -> None:
        replay = Replay(game)
        self.rules = game.ruleset
        record = game.judge  # a Botzone JSON log's: the bots' answers
        seats = None
        last = len(game.actions) - 1
        first_decision = self.decisions.n
        self._rejection = None
        offered = 0  # the line of the action that offered the pending tile
        for k, (action, line, table) in enumerate(replay):
            if self._rejection is not None:
                raise self._rejection
            if seats is None:
                seats = [self._dealt(table, p) for p in range(4)]
            if table.pending is not None and table.phase in _CLAIMABLE:
                self._claims(table, action, line, seats, index, record, offered)
            if action.kind == "Play":
                self._discard(table, action, line, seats[action.player], index, game.match_id, record)
                after = game.actions[k + 1] if k < last else None
                if self._rejection is None:  # the row is there: whether another player won on the tile
                    self.decisions.data[self.decisions.n - 1, D["dealt_in"]] = int(
                        after is not None and after.kind == "Hu" and after.player != action.player)
                if k == last:  # nothing follows: the others' claims on it all passed
                    after = table.copy()
                    try:
                        after.play(action.player, action.tile)
                    except IllegalAction:
                        continue  # the replay raises the game's LogError as it applies the discard
                    self._claims(after, None, line, seats, index, record, line)
            if action.kind in ("Play", "BuGang"):
                offered = line
        check = replay.check()
        if self._rejection is not None:
            raise self._rejection
        self._game_row(game, index, check, self.decisions.data[first_decision:self.decisions.n])

    def _dealt(self, table, player: int) -> _Seat:
        counts = np.array(table.seats[player].concealed, np.uint8)
        return _Seat(counts, K.waiting_figures(self.lookup, counts, _NO_MELDS, 0, self.scratch.work))

    def _discard(self, table, action, line: int, seat: _Seat, index: int, match_id: str, record) -> None:
        player, tile = action.player, action.tile
        table_seat = table.seats[player]
        melds = table_seat.melds
        meld_counts, exposed, packed = seat.melds_now(melds)
        s = self.scratch
        seat.turns += 1
        row = self.decisions.append()
        # bytearrays go to the kernel as they are: numpy's conversions of a list (or even of a
        # bytearray) cost more than the kernel's own copies. Loose arguments, not records, for
        # the same reason: four NamedTuples a discard take about 1 µs, 5-20% of this call.
        status, shanten, useful, pungs, chows = K.discard_row(
            self.lookup, bytearray(table_seat.concealed), meld_counts, exposed, len(melds), packed,
            table.shown, player, table.prevalent_wind, self.rules.code, self.rules.minimum, tile, seat.counts,
            seat.meld_counts, seat.shanten, seat.useful, self.fan_aware, s.plain_rows, s.fan_rows, s.wait_points,
            s.work, row, index, line, seat.turns)
        if status != OK:
            # An illegal action makes the replay raise with its reason as soon as it applies
            # it; only if it does not is the kernels' rejection the game's error.
            self.decisions.truncate(self.decisions.n - 1)
            reason = ("the tile is not in the hand" if status == K.NOT_HELD else f"kernel status {status}")
            self._rejection = LogError(match_id, line, f"the analysis cannot read player {player}'s discard: {reason}")
            return
        if record is not None:
            _answer(row, record.answer(line, player))
        if self.value:
            _value_cells(row, table, player, tile, self.rules)
        seat.meld_counts, seat.n_melds = meld_counts, len(melds)
        seat.figures(shanten, useful, pungs, chows)

    def _claims(self, table, action, line: int, seats: list, index: int, record, offered: int) -> None:
        """A row for each player who could claim the pending tile; `action` is what followed
        (None when nothing did); offered: the line of the action that offered the tile (the
        players' answers to it follow it in a Botzone JSON log)."""
        giver, tile = table.pending
        after_giver, across, before_giver = _OTHERS[giver]
        # the players' standing tiles are their waiting hands until their turns: their masks
        # say when there is no win, no pung and no chow, nothing to ask the rules (the
        # common case, tested at once for the three players)
        if not ((seats[after_giver].claims_next | seats[across].claims_any | seats[before_giver].claims_any)
                >> tile) & 1:
            return
        robbing = table.phase == ROB
        for player in _OTHERS[giver]:
            seat = seats[player]
            if not ((seat.claims_next if player == after_giver else seat.claims_any) >> tile) & 1:
                continue
            options, middles = self._options(table, player, tile, robbing, seat, player == after_giver)
            if not options:
                continue
            done, done_tile, lost = _PASS, tile, 0
            if action is not None and action.player == player and action.kind in CLAIM_ACTION:
                done, done_tile = CLAIM_ACTION[action.kind], action.tile
            elif action is not None:
                # the log's Ignore clauses (the last one of the player, if several) say what
                # the player claimed in vain
                claimed = [claim for who, claim, _ in action.ignored if who == player]
                if claimed:
                    done, lost = CLAIM_ACTION[claimed[-1]], 1
            row = self.decisions.append()
            K.claim_row(self.lookup, seat.counts, seat.meld_counts, seat.n_melds, self.scratch.work, tile, options,
                        middles, done, done_tile, lost, seat.shanten, row, index, line, player, seat.turns + 1)
            if record is not None:
                _answer(row, record.response(offered + 1, player))

    def _options(self, table, player: int, tile: int, robbing: bool, seat: _Seat, chows: bool) -> tuple[int, int]:
        """(option bits, mask of the chows' middle tiles) of the claims the rules allow one
        player on `tile`; chows: the player is the next after the tile's giver."""
        bits = 0
        if (seat.waits >> tile) & 1:
            try:
                score_win(table.win(player, tile), self.rules)
                bits = _HU_BIT
            except IllegalAction:  # complete, but under the minimum
                pass
        if robbing:
            return bits, 0
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
            row[_VERDICT_CELLS[p]] = _verdict(verdicts[p])
