"""The table: four bots play one game over Botzone's protocol, every response checked.

    result = play_game([agent0, agent1, agent2, agent3], deal_walls(seed), match_id="g1")
    result.log        # the GameLog, ready for logformat.format_game
    result.outcome    # Outcome: kind ("win", "draw", "foul"), scores, fans...

Each turn every player is sent a request and answers it (agents.py). The table checks each
answer against the rules of TableState: a response the protocol does not allow at that
point, an impossible discard or claim, a declared win that is no win or scores under 8 fans
(flowers aside), a crash or a timeout is a foul that ends the game (outcome.py). Claims of
one discard are resolved by priority: a win, then a pung or kong, then a chow; between equal
claims the first player in turn after the discarder. A win on a discard goes to one player
only. Losing claims are written as the log's Ignore clauses.

With time limits (`limits`, the judge's: TimeLimits()), the players are asked one at a time
as the Botzone judge asks them, each answer is timed from its request, and an answer later
than its limit (the first of a game 6 s, every later one 1 s) is a TLE: a foul, scored as the
judge scores one (-30 for the bot, +10 for each other). The result keeps every answer's time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from ..errors import ArgumentError, MjfastError
from .agents import AgentError, LateAnswer
from .gamelog import Action, GameLog
from .logformat import botzone_fans
from .outcome import DRAWN_SCORES, Outcome, foul_scores, score_win, win_scores
from .protocol import (
    PASS,
    ProtocolError,
    Response,
    deal_request,
    draw_request,
    event_request,
    parse_response,
    start_request,
)
from .state import CLAIM_RANK, DUPLICATE, IllegalAction, TableState
from .tokens import TOKENS, is_flower
from .walls import deal_walls

_CLAIM_NAME = {"HU": "Hu", "PENG": "Peng", "GANG": "Gang", "CHI": "Chi"}


class Foul(MjfastError):
    """A bot's answer the table scores as a foul (an illegal or late answer): who, and why."""

    def __init__(self, player: int, reason: str):
        super().__init__(f"player {player}: {reason}")
        self.player, self.reason = player, reason


FIRST, DRAWN, OTHER = "first", "drawn", "other"  # what an answer answered (GameResult.answer_times)


class TimeLimits(NamedTuple):
    """The judge's time limits (seconds): the first answer of a game, every later one."""

    first: float = 6.0
    later: float = 1.0


@dataclass
class GameResult:
    """log: the game as the log writes it; outcome: how it ended and the scores; table: the
    final TableState (every hand and meld at the end); answer_times (with time limits): per
    seat, (seconds, what was answered: FIRST, the game's first request; DRAWN, the
    player's own draw; OTHER) of every answer; late: the seat whose answer was a TLE, else
    None."""

    log: GameLog
    outcome: Outcome
    table: TableState
    answer_times: list = field(default_factory=list)
    late: "int | None" = None


def _everyone(request: str) -> dict:
    return {p: request for p in range(4)}


class _Game:
    def __init__(self, agents, walls, prevalent_wind: int, match_id: str, limits: "TimeLimits | None" = None):
        self.agents, self.walls, self.match_id, self.limits = agents, walls, match_id, limits
        self.table = TableState(prevalent_wind, walls.wall)
        self.deals: list[tuple] = []
        self.actions: list[Action] = []
        self.answer_times: list[list] = [[], [], [], []]
        self.late: "int | None" = None

    # --- talking to the bots ------------------------------------------------------------------

    def _ask(self, requests: dict, first: int) -> dict:
        """Send each player its request, then collect the parsed responses; the first failure
        in turn order from `first` is a foul. With time limits, one player at a time."""
        limits = self.limits
        if limits is None:
            for p, request in requests.items():
                self.agents[p].send(request)
        responses, failures = {}, {}
        for p, request in requests.items():
            try:
                if limits is None:
                    responses[p] = parse_response(self.agents[p].receive())
                    continue
                limit = limits.later if self.answer_times[p] else limits.first
                agent = self.agents[p]
                agent.send(request, limit)
                try:
                    answer = agent.receive(limit)
                finally:
                    kind = FIRST if limit == limits.first and not self.answer_times[p] else \
                        DRAWN if request.startswith("2 ") else OTHER
                    self.answer_times[p].append((agent.seconds, kind))
                responses[p] = parse_response(answer)
            except (AgentError, ProtocolError) as exc:
                failures[p] = str(exc)
                if isinstance(exc, LateAnswer) and self.late is None:
                    self.late = p
        if failures:
            p = min(failures, key=lambda q: (q - first) % 4)
            raise Foul(p, failures[p])
        return responses

    def _tell(self, requests: dict, first: int) -> None:
        """Requests that everyone must answer with PASS."""
        for p, response in self._ask(requests, first).items():
            if response != PASS:
                raise Foul(p, f"{response} to {requests[p]!r}: only PASS is allowed")

    def _log(self, player: int, kind: str, tile, ignored=()) -> None:
        self.actions.append(Action(player, kind, tile, tuple(ignored)))

    # --- the game -----------------------------------------------------------------------------

    def run(self) -> GameResult:
        try:
            outcome = self._play()
        except Foul as foul:
            self._log(foul.player, "Invalid", None)
            outcome = Outcome("foul", foul_scores(foul.player), offender=foul.player, reason=foul.reason)
        fans = outcome.fans
        log = GameLog(self.match_id, self.table.prevalent_wind, tuple(self.deals), tuple(self.actions),
                      fans.total if fans is not None else None, botzone_fans(fans) if fans is not None else (),
                      outcome.kind == "draw", outcome.scores, self.table.wall)
        late = self.late if outcome.kind == "foul" and outcome.offender == self.late else None
        return GameResult(log, outcome, self.table, self.answer_times if self.limits else [], late)

    def _play(self) -> Outcome:
        table = self.table
        for p in range(4):
            tiles = self.walls.deal(p)
            table.deal(p, tiles)
            self.deals.append(tuple(tiles))
        self._tell({p: start_request(p, table.prevalent_wind) for p in range(4)}, 0)
        flowers = [t for deal in self.deals for t in deal[13:]]
        counts = [table.seats[p].flowers for p in range(4)]
        self._tell({p: deal_request(counts, self.deals[p][:13], flowers) for p in range(4)}, 0)
        while True:
            if table.exhausted():
                table.end_drawn()
                return Outcome("draw", DRAWN_SCORES)
            outcome = self._turn(table.to_draw())
            if outcome is not None:
                return outcome

    def _rule(self, player: int, step, *args):
        """Apply a TableState step for `player`; a broken rule is their foul."""
        try:
            return step(*args)
        except IllegalAction as exc:
            raise Foul(player, str(exc)) from None

    def _turn(self, p: int) -> "Outcome | None":
        """Player p draws and acts; the discards that follow are claimed or pass."""
        table = self.table
        tile = self.walls.draw(p, replacement=table.replacement)
        while is_flower(tile):
            table.bu_hua(p, tile)
            self._log(p, "BuHua", tile)
            self._tell(_everyone(event_request(p, "BUHUA", tile)), p)
            if table.exhausted():
                return None  # the flower was the wall's last tile: the loop ends the game drawn
            tile = self.walls.draw(p, replacement=True)
        table.draw(p, tile)
        self._log(p, "Draw", tile)
        requests = {q: draw_request(tile) if q == p else event_request(p, "DRAW") for q in range(4)}
        responses = self._ask(requests, p)
        for q, response in responses.items():
            if q != p and response != PASS:
                raise Foul(q, f"{response} to another player's draw: only PASS is allowed")
        response = responses[p]
        action, tiles = response
        if action == "HU":
            return self._win(p, tile, ())
        if action == "PLAY":
            self._rule(p, table.play, p, tiles[0])
            self._log(p, "Play", tiles[0])
            return self._discards(p, tiles[0], event_request(p, "PLAY", tiles[0]))
        if action == "GANG" and tiles:
            self._rule(p, table.an_gang, p, tiles[0])
            self._log(p, "AnGang", tiles[0])
            self._tell(_everyone(event_request(p, "GANG")), p)
            return None
        if action == "BUGANG":
            self._rule(p, table.bu_gang, p, tiles[0])
            self._log(p, "BuGang", tiles[0])
            return self._robbing(p, tiles[0])
        raise Foul(p, f"{response} is no answer to a draw (PLAY t, GANG t, BUGANG t or HU)")

    def _win(self, player: int, tile: int, ignored) -> Outcome:
        win = self._rule(player, self.table.win, player, tile)
        result = self._rule(player, score_win, win)
        self._log(player, "Hu", tile, ignored)
        self.table.finish()
        return Outcome("win", win_scores(win, result), win, result)

    def _check_claim(self, q: int, response: Response, discard: int) -> None:
        """A claim must be possible even when it loses: its tiles, and the discard after it."""
        table, (action, tiles) = self.table, response
        if action == "HU":
            self._rule(q, score_win, self._rule(q, table.win, q, discard))
            return
        if action not in ("PENG", "CHI", "GANG") or (action == "GANG" and tiles):
            raise Foul(q, f"{response} is no answer to a discard (PASS, HU, PENG t, CHI m t or GANG)")
        claimed = tiles[0] if action == "CHI" else discard
        self._rule(q, table.check_claim, q, _CLAIM_NAME[action], claimed)
        if action == "GANG":
            return
        held = list(table.seats[q].concealed)
        for t in ((claimed - 1, claimed, claimed + 1) if action == "CHI" else (discard, discard)):
            if not (action == "CHI" and t == discard):
                held[t] -= 1
        if held[tiles[-1]] <= 0:
            raise Foul(q, f"{response}: after the claim the hand holds no {TOKENS[tiles[-1]]} to discard")

    def _discards(self, p: int, tile: int, request: str) -> "Outcome | None":
        """Claims of player p's discard, and of the discards made after each claim."""
        table = self.table
        while True:
            responses = self._ask(_everyone(request), p)
            if responses[p] != PASS:
                raise Foul(p, f"{responses[p]} to one's own discard: only PASS is allowed")
            claims = []
            for q in sorted(responses, key=lambda q: (q - p) % 4):
                if q != p and responses[q] != PASS:
                    self._check_claim(q, responses[q], tile)
                    claims.append((q, responses[q]))
            if not claims:
                return None
            # priority, then turn order from the discarder (claims are in that order already)
            q, (action, tiles) = max(claims, key=lambda c: (CLAIM_RANK[_CLAIM_NAME[c[1].action]], -((c[0] - p) % 4)))
            ignored = [(o, _CLAIM_NAME[r.action], r.tiles[0] if r.action == "CHI" else tile)
                       for o, r in claims if o != q]
            if action == "HU":
                return self._win(q, tile, ignored)
            if action == "GANG":
                table.gang(q, tile)
                self._log(q, "Gang", tile, ignored)
                self._tell(_everyone(event_request(q, "GANG")), q)
                return None
            if action == "PENG":
                table.peng(q, tile)
                self._log(q, "Peng", tile, ignored)
            else:
                table.chi(q, tiles[0])
                self._log(q, "Chi", tiles[0], ignored)
            table.play(q, tiles[-1])
            self._log(q, "Play", tiles[-1])
            p, tile = q, tiles[-1]
            request = event_request(q, action, *tiles)

    def _robbing(self, p: int, tile: int) -> "Outcome | None":
        """The others may rob player p's added kong; otherwise p draws its replacement."""
        responses = self._ask(_everyone(event_request(p, "BUGANG", tile)), p)
        robbers = []
        for q in sorted(responses, key=lambda q: (q - p) % 4):
            response = responses[q]
            if response == PASS:
                continue
            if q == p or response.action != "HU":
                raise Foul(q, f"{response} to an added kong: only PASS (or HU to rob it) is allowed")
            self._rule(q, score_win, self._rule(q, self.table.win, q, tile))
            robbers.append(q)
        if not robbers:
            return None
        return self._win(robbers[0], tile, [(q, "Hu", tile) for q in robbers[1:]])


def play_game(agents, walls, prevalent_wind: int = 0, match_id: str = "mjfast",
              limits: "TimeLimits | None" = None) -> GameResult:
    """Play one game on `walls` (walls.deal_walls) among four agents (agents.py), with the
    judge's time limits if `limits` (see the module doc)."""
    if len(agents) != 4:
        raise ArgumentError(f"a game needs four agents, got {len(agents)}")
    if not match_id or len(match_id.split()) != 1:
        raise ArgumentError(f"a match id is one word (the log's 'Match <id>' line), got {match_id!r}")
    return _Game(agents, walls, prevalent_wind, match_id, limits).run()


def play_games(agents, seeds, wall: str = DUPLICATE, match_prefix: str = "mjfast"):
    """Play one game per seed among the same four agents; yields each GameResult. Game
    `seed` is played on deal_walls(seed, wall) with prevalent wind seed % 4."""
    for seed in seeds:
        yield play_game(agents, deal_walls(seed, wall), seed % 4, f"{match_prefix}-{seed}")
