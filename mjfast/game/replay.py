"""Replaying a game log action by action, checking every rule, and re-scoring its result.

    for item in read_games("games.txt"):          # reading.read_games
        if isinstance(item, BrokenGame): ...      # unreadable block: match id, line, reason
        game = Replay(item)
        for step in game:                         # step.action, step.table (before the action)
            ...
        check = game.check()                      # recomputed fans and scores vs the log's

Each action is applied to a TableState, which raises for anything the rules forbid: a tile
the hand does not hold, a claim out of turn or without the tiles for it, a fifth copy of a
tile, a draw from an empty wall, a Hu at the wrong moment; Ignore clauses must be claims the
player could make that lose on priority (Hu > Peng = Gang > Chi, ties to the first player in
turn after the discarder). A broken rule raises LogError with the match id and line number.

The winner's fans are recomputed by mjfast.fan.score with the conditions derived as the
Botzone judge derives them (see TableState.win), under the rules of the log's server
(GameLog.ruleset), and compared with the Fan line; the scores with the Score line. A game
read from Botzone's JSON log also carries the judge's tiles left and canHu at every step: they
are compared with mjfast's as the replay goes (judge.py). A mismatch is reported in the
GameCheck, it does not break the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, NamedTuple, Sequence

from .gamelog import Action, GameLog, LogError
from .judge import JudgeCheck
from .outcome import DRAWN_SCORES, foul_scores
from .state import CLAIM_RANK, DUPLICATE, IllegalAction, TableState, WinContext


class Step(NamedTuple):
    """One action of the log, its line number, and the table just before it. The table is
    live: it changes when the replay goes on, so copy what must outlive the step."""

    action: Action
    line: int
    table: TableState


@dataclass
class GameCheck:
    """The replayed game and how its result lines compare with mjfast's.

    win: the WinContext of the Hu (None without one); fans: mjfast's FanResult for it;
    scores: the deltas mjfast computes (None for a win under the minimum, which settles
    nothing); fan_line_matches: None when the game has no win; judge: the judge's tiles left
    and canHu compared with mjfast's (a JSON log's game; None for the text format)."""

    game: GameLog
    table: TableState
    win: "WinContext | None"
    fans: object
    scores: "tuple | None"
    fan_line_matches: "bool | None"
    score_line_matches: bool
    judge: "JudgeCheck | None" = None


class Replay:
    """Iterate to replay a GameLog step by step; check() finishes the replay (if needed) and
    re-scores the result. Both raise LogError for a game that breaks a rule."""

    def __init__(self, game: GameLog):
        self.game = game
        self.table = TableState(game.prevalent_wind, game.wall)
        self.win: "WinContext | None" = None
        # the judge's figures, compared as the replay reaches them (a JSON log's game)
        self.judge = JudgeCheck() if game.judge is not None else None
        self._done = False

    def _fail(self, line: int, reason: str) -> LogError:
        return LogError(self.game.match_id, line, reason)

    def __iter__(self) -> Iterator[Step]:
        if self._done:
            return
        game, table = self.game, self.table
        record = game.judge
        deal_lines: "Sequence[int]"
        if record is None:
            deal_lines = range(game.line + 2 + (game.wall != DUPLICATE), game.line + 6 + (game.wall != DUPLICATE))
        else:
            deal_lines = [record.deal_entry] * 4  # one DEAL entry deals the four hands
        for p, tiles in enumerate(game.deals):
            try:
                table.deal(p, tiles)
            except IllegalAction as exc:
                raise self._fail(deal_lines[p], str(exc)) from None
        # (actions applied, line, tileCnt, canHu) of the judge's entries, in order
        points = list(reversed(record.points)) if record is not None else []
        while points and points[-1][0] == 0:
            self.judge.compare(table, *points.pop()[1:])
        apply = {
            "Draw": table.draw, "Play": table.play, "Chi": table.chi, "Peng": table.peng,
            "Gang": table.gang, "AnGang": table.an_gang, "BuGang": table.bu_gang, "BuHua": table.bu_hua,
        }
        new_step = tuple.__new__  # a Step without NamedTuple's keyword handling: once per action
        applied = 0
        for action, line in zip(game.actions, game.action_lines or [0] * len(game.actions)):
            yield new_step(Step, (action, line, table))
            try:
                if action.ignored:
                    self._check_ignored(action)
                step = apply.get(action.kind)
                if step is not None:
                    step(action.player, action.tile)
                else:  # Hu, or Invalid: either ends the game
                    if action.kind == "Hu":
                        self.win = table.win(action.player, action.tile)
                    table.finish()
            except IllegalAction as exc:
                raise self._fail(line, str(exc)) from None
            applied += 1
            while points and points[-1][0] == applied:
                self.judge.compare(table, *points.pop()[1:])
        self._done = True
        self._check_end()

    def _check_ignored(self, a: Action) -> None:
        table = self.table
        if table.pending is None:
            raise IllegalAction("Ignore clauses without a discard or kong to claim")
        giver = table.pending[0]
        order = (a.player - giver) % 4
        for who, claim, tile in a.ignored:
            table.check_claim(who, claim, tile)
            rank, winner_rank = CLAIM_RANK[claim], CLAIM_RANK[a.kind]
            if who == a.player or rank > winner_rank or (rank == winner_rank and (who - giver) % 4 < order):
                raise IllegalAction(f"player {who}'s ignored {claim} would have won over player {a.player}'s {a.kind}")

    def _check_end(self) -> None:
        game, table = self.game, self.table
        last_line = game.action_lines[-1] if game.action_lines else game.line
        ended_by = game.actions[-1].kind if game.actions else None
        if game.drawn:
            if ended_by in ("Hu", "Invalid"):
                raise self._fail(last_line, f"Huang after a {ended_by}")
            try:
                table.end_drawn()
            except IllegalAction as exc:
                raise self._fail(last_line, str(exc)) from None
        elif ended_by not in ("Hu", "Invalid"):
            raise self._fail(last_line, "the game stops before a win, a foul or an exhaustive draw")
        if game.fan_total is not None and ended_by != "Hu":
            raise self._fail(last_line, "a Fan line without a win")

    def check(self) -> GameCheck:
        """Replay what is left and compare the result lines with mjfast's scoring."""
        for _ in self:
            pass
        game = self.game
        fans, fan_matches = None, None
        if self.win is not None:
            fans, scores = self._score()
            fan_matches = game.fan_total is not None and _same_fans(game, fans)
        elif game.drawn:
            scores = DRAWN_SCORES
        else:
            scores = foul_scores(game.actions[-1].player)
        return GameCheck(game, self.table, self.win, fans, scores, fan_matches, scores == game.scores, self.judge)

    def _score(self):
        from ..errors import HandError
        from ..fan import score, settle

        win = self.win
        try:
            result = score(win.hand, ruleset=self.game.ruleset, **win.conditions)
        except HandError as exc:
            raise self._fail(self.game.action_lines[-1] if self.game.action_lines else self.game.line,
                             f"the Hu is no win: {exc}") from None
        scores = tuple(settle(result, win.winner, win.discarder)) if result.meets_minimum else None
        return result, scores


def _same_fans(game: GameLog, result) -> bool:
    from ..errors import ArgumentError
    from ..fan import fan_by_name

    if game.fan_total != result.total:
        return False
    try:
        written = sorted((fan_by_name(name).id, count) for name, count in game.fans)
    except ArgumentError:  # a fan name mjfast does not know: not the fans it scored
        return False
    return written == sorted((f.id, f.count) for f in result.fans)
