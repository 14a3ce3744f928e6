"""Tziakcha's (雀渣) game records: a session's hands as GameLogs, every tile checked against the
wall, and the server's result kept to compare with mjfast's.

A session (as tziakcha-fetcher saves it) is a JSON object whose `records` hold one hand each;
a record holds its hand in `step` (docs/game.md, "Tziakcha's records", says what mjfast reads
of it):

- `w`: the wall, 144 tiles as hex pairs. Each tile is its own id: id // 4 is the kind in
  Tziakcha's order (1-9 characters, 1-9 bamboo, 1-9 dots, E S W N, 中 发 白), 136-143 the
  eight flowers. The dice `d` (four nibbles) say where it is broken: the deal starts there.
- `a`: the actions, [seat << 4 | type, data, ms]: a draw (from the wall's front, or its back
  after a kong or a flower), a flower shown and replaced from the back, a discard, a chow,
  pung or kong (data 0: declared and waiting on the others' answers), a win, a pass.
- `p`: the seats' players (`n`: the name), East (the dealer) first; `i`: the hand's number
  in the session (the prevalent wind is i // 4 % 4); `g.l`: the fans a win needs.
- the result: `b` (bits 0-3 the winner's seat, 4-7 the discarder's), `s` (the four score
  changes) and, for the winner, `y` (`f` the fans, `t` the server's fan table, `h` its hand).

parse_record() replays the tiles by id: every draw must be the wall's next tile at the end it
is taken from, every tile discarded, shown or melded must be in the hand, the winner's hand
must be the server's. It raises LogError (a "line" is the action's position in `step.a`) for
a record that breaks any of that; the game's rules and its score are then the replay's work
(replay.py), under Tziakcha's rules (fan.ruleset.TZIAKCHA), against the server's fan table.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Iterator, NamedTuple

from ..fan.names import fan_by_name
from ..fan.ruleset import TZIAKCHA
from .gamelog import Action, GameLog, LogError
from .state import HAND_SIZE, SHARED, SHARED_WALL
from .tokens import FLOWER_IDS, TOKENS

FLOWER_BASE = 136  # the ids of the eight flowers: 136-143
# The action types (the low nibble of an action's first number).
START, FLOWER, DISCARD, CHOW, PUNG, KONG, WIN, DRAW, PASS, SKIP = range(10)
_BACK = 0x100  # a draw's data: taken from the wall's back
_ADDED = 0x300  # a kong's data: added to the player's own pung
# Tziakcha's fan table, by index (its server's order: tziakcha-fetcher lib/constants.js): the
# 81 fans and 明暗杠, 一色四步高 and 一色三步高 each split in two (its 一色四连环 / 一色三连环:
# the chows shifted by two), then four fans outside MCR (天和, 地和, 人和 I, 人和 II).
_FAN_NAMES = (
    "大四喜 大三元 绿一色 九莲宝灯 四杠 连七对 十三幺 清幺九 小四喜 小三元 字一色 四暗刻 "
    "一色双龙会 一色四同顺 一色四节高 一色四步高 一色四步高 三杠 混幺九 七对 七星不靠 全双刻 "
    "清一色 一色三同顺 一色三节高 全大 全中 全小 清龙 三色双龙会 一色三步高 一色三步高 全带五 "
    "三同刻 三暗刻 全不靠 组合龙 大于五 小于五 三风刻 花龙 推不倒 三色三同顺 三色三节高 无番和 "
    "妙手回春 海底捞月 杠上开花 抢杠和 碰碰和 混一色 三色三步高 五门齐 全求人 双暗杠 双箭刻 "
    "全带幺 不求人 双明杠 和绝张 箭刻 圈风刻 门风刻 门前清 平和 四归一 双同刻 双暗刻 暗杠 断幺 "
    "一般高 喜相逢 连六 老少副 幺九刻 明杠 缺一门 无字 边张 坎张 单钓将 自摸 花牌 明暗杠").split()
_OUTSIDE_MCR = ("天和", "地和", "人和", "人和")


def kind_of(tile: int) -> int:
    """mjfast's tile id (0-33) of a Tziakcha tile id, or the flower's (34-41)."""
    if tile >= FLOWER_BASE:
        return FLOWER_IDS[tile - FLOWER_BASE]
    kind = tile >> 2
    suit = kind // 9
    return kind + 9 * (suit == 1) - 9 * (suit == 2)  # Tziakcha's bamboo before dots, mjfast's after


def server_fan(index: int) -> str:
    """The Chinese name mjfast gives the fan at `index` of Tziakcha's fan table ("天和"... for
    the fans outside MCR, which mjfast does not score: a win that has one is reported as not
    reproduced); ValueError for an index that is no fan."""
    if 1 <= index <= len(_FAN_NAMES):
        return fan_by_name(_FAN_NAMES[index - 1]).name_cn
    if 0 <= index - len(_FAN_NAMES) - 1 < len(_OUTSIDE_MCR):
        return _OUTSIDE_MCR[index - len(_FAN_NAMES) - 1]
    raise ValueError(index)


class TziakchaHand(NamedTuple):
    """One hand of a session, not replayed yet: what a chunk of the log analysis carries."""

    match_id: str
    record: dict

    def parse(self) -> GameLog:
        return parse_record(self.record, self.match_id)


def is_tziakcha(data) -> bool:
    """Whether loaded JSON is a Tziakcha session (an object with `records`) or one record (an
    object with `step`)."""
    return isinstance(data, dict) and ("records" in data or "step" in data)


def session_hands(data: dict, name: str) -> list[TziakchaHand]:
    """The hands of a session (or of one record) in order, named `<session id>-<hand number>`
    (`name` where the session has no id); a hand that is no record says so when parsed."""
    if "step" in data:
        return [TziakchaHand(str(data.get("id") or name), data)]
    session = str(data.get("sessionId") or name)
    records = data.get("records")
    if not isinstance(records, list):
        return [TziakchaHand(session, records)]
    return [TziakchaHand(f"{session}-{k + 1:02d}", record) for k, record in enumerate(records)]


def parse_record(record: dict, match_id: str) -> GameLog:
    """The GameLog of one record, its tiles replayed by id against its wall (LogError else)."""
    if not isinstance(record, dict):
        raise LogError(match_id, 0, f"a Tziakcha record is a JSON object, got {json.dumps(record)[:40]}")
    step = record.get("step")
    if not isinstance(step, dict):
        raise LogError(match_id, 0, "the record has no 'step' (a record whose script is not decoded?)")
    return _Hand(step, match_id).game()


def _ints(value, n: int) -> bool:
    return isinstance(value, list) and len(value) == n and all(isinstance(v, int) and not isinstance(v, bool)
                                                               for v in value)


class _Hand:
    """Replays one record's tiles by id and writes its GameLog's parts."""

    def __init__(self, step: dict, match_id: str):
        self.step, self.match_id = step, match_id
        self.line = 0
        self.wall = self._wall()
        # the wall's places taken: the deal took the first 53; draws go on from the front (the
        # first place left) or the back (the last stack of two with a tile left, its top first)
        self.taken = bytearray([1]) * (HAND_SIZE * 4 + 1) + bytearray(SHARED_WALL - HAND_SIZE * 4 - 1)
        self.front, self.back = HAND_SIZE * 4 + 1, SHARED_WALL - 2
        self.hands: list[list[int]] = [[] for _ in range(4)]
        self.flowers: list[list[int]] = [[] for _ in range(4)]
        self.melds: list[list] = [[] for _ in range(4)]
        self.actions: list[Action] = []
        self.lines: list[int] = []
        self.deals: "list | None" = None
        self.pending: "tuple | None" = None  # (giver, tile id, kong added) open to claims
        self.drawn: "tuple[int, int] | None" = None  # (seat, tile id) just drawn
        self.from_back = False  # the next draw replaces a kong or a flower: from the wall's back
        self.flower_drawn: "int | None" = None  # a flower drawn and not yet replaced
        self.declared: dict = {}  # seat -> the claim declared (data 0), waiting on the others
        self.win: "tuple | None" = None  # (seat, tile id, discarder or None, fans the server wrote)

    def fail(self, reason: str) -> LogError:
        return LogError(self.match_id, self.line, reason)

    # --- the wall and the deal --------------------------------------------------------------

    def _wall(self) -> list:
        text, dice = self.step.get("w"), self.step.get("d")
        try:
            tiles = bytes.fromhex(text) if isinstance(text, str) else None
        except ValueError:
            tiles = None
        if tiles is None or sorted(tiles) != list(range(SHARED_WALL)):
            raise self.fail(f"the wall 'w' is not the {SHARED_WALL} tiles as hex pairs, each once")
        if not isinstance(dice, int) or not all(1 <= (dice >> 4 * k) & 15 <= 6 for k in range(4)) or dice >> 16:
            raise self.fail(f"the dice 'd' are not four dice of 1-6, got {dice!r}")
        rolled = [(dice >> 4 * k) & 15 for k in range(4)]
        # the first two dice pick the side the wall is broken on (counted from the dealer), all
        # four how many stacks of two in; the deal starts there, the back ends just before it
        side = (12 - (rolled[0] + rolled[1] - 1)) % 4
        start = (side * SHARED_WALL // 4 + 2 * sum(rolled)) % SHARED_WALL
        return list(tiles[start:] + tiles[:start])

    def _deal(self) -> None:
        """Four tiles at a time to each seat from the dealer, three times, then one each, then
        the dealer's fourteenth (the tile the dealer has 'drawn')."""
        for k in range(12):
            self.hands[k % 4] += self.wall[4 * k:4 * k + 4]
        for p in range(4):
            self.hands[p].append(self.wall[48 + p])
        self.hands[0].append(self.wall[52])
        self.drawn = (0, self.wall[52])

    def _take(self, seat: int, tile: int, from_back: bool) -> None:
        """`seat` takes `tile` from the wall's front or back: it must be the tile there."""
        if all(self.taken):
            raise self.fail(f"seat {seat} draws from an empty wall")
        if from_back:
            while self.taken[self.back] and self.taken[self.back + 1]:
                self.back -= 2
            place = self.back + self.taken[self.back]  # the stack's top, or its bottom once the top is gone
        else:
            while self.taken[self.front]:
                self.front += 1
            place = self.front
        if tile != self.wall[place]:
            end = "back" if from_back else "front"
            raise self.fail(f"seat {seat} draws tile {tile} but the wall's {end} holds tile {self.wall[place]}")
        self.taken[place] = 1
        self.hands[seat].append(tile)

    def _held(self, seat: int, tile: int, what: str) -> None:
        if tile not in self.hands[seat]:
            raise self.fail(f"seat {seat} {what} tile {tile} ({TOKENS[kind_of(tile)] if tile < 144 else '?'}), "
                            "which its hand does not hold")
        self.hands[seat].remove(tile)

    def _start(self) -> None:
        """The deal's flowers are replaced: the deal as mjfast writes it, the dealer's
        fourteenth tile kept as its first draw."""
        for p in range(4):
            shown = [t for t in self.hands[p] if t >= FLOWER_BASE]
            if shown:
                raise self.fail(f"seat {p} still holds flower {TOKENS[kind_of(shown[0])]} when play starts")
        dealer_draw = self.drawn[1]
        deals = []
        for p in range(4):
            standing = list(self.hands[p])
            if p == 0:
                standing.remove(dealer_draw)
            deals.append(tuple(sorted(kind_of(t) for t in standing)) + tuple(kind_of(f) for f in self.flowers[p]))
        self.deals = deals
        self._add(0, "Draw", dealer_draw)

    # --- the actions --------------------------------------------------------------------------

    def _add(self, seat: int, kind: str, tile: "int | None", ignored=()) -> None:
        self.actions.append(Action(seat, kind, None if tile is None else kind_of(tile), tuple(ignored)))
        self.lines.append(self.line)

    def game(self) -> GameLog:
        moves = self.step.get("a")
        if not isinstance(moves, list):
            raise self.fail("the record has no actions 'a'")
        self._deal()
        for self.line, move in enumerate(moves):
            if not _ints(move, 3) or move[0] >> 6 or not 0 <= move[0] & 15 <= SKIP:
                raise self.fail(f"action {move!r} is not [seat << 4 | type 0-9, data, ms]")
            if self.win is not None and move[0] & 15 not in (PASS, SKIP):  # a pass changes nothing
                if move[0] & 15 == WIN:
                    raise self.fail("a second win on the same tile (一炮多响): the replay has one winner a game")
                raise self.fail("an action after the win")
            self._move(move[0] >> 4, move[0] & 15, move[1])
        if self.deals is None:
            raise self.fail("the record's actions never start the play")
        return self._result()

    def _move(self, seat: int, kind: int, data: int) -> None:
        if kind == START:
            if self.deals is not None:
                raise self.fail("play starts twice")
            self._start()
        elif kind == FLOWER:
            self._flower(seat, data)
        elif self.deals is None:
            if kind not in (PASS, SKIP):
                raise self.fail(f"action type {kind} before play starts")
        elif kind == DRAW:
            self._draw(seat, data)
        elif kind == DISCARD:
            self._discard(seat, data & 0xFF)
        elif kind in (CHOW, PUNG, KONG):
            self._meld(seat, kind, data)
        elif kind == WIN:
            self._win(seat, data)
        # PASS and SKIP: a seat answers "no" to what it was offered; the log has nothing to say

    def _flower(self, seat: int, data: int) -> None:
        """A flower shown (the one just drawn, or one of the deal) and its replacement drawn
        from the back."""
        flower = FLOWER_BASE + ((data >> 8) & 15)
        self._held(seat, flower, "shows flower")
        if self.deals is not None:
            if self.flower_drawn != flower:
                raise self.fail(f"seat {seat} shows a flower it has not just drawn")
            self._add(seat, "BuHua", flower)
        self.flowers[seat].append(flower)
        if self.drawn == (seat, flower):  # the dealer's fourteenth tile: its replacement is
            self.drawn = (seat, data & 0xFF)
        self.flower_drawn = None
        self._draw(seat, (data & 0xFF) | _BACK, replacing=True)

    def _draw(self, seat: int, data: int, replacing: bool = False) -> None:
        tile = data & 0xFF
        from_back = bool(data & _BACK)
        if not replacing and from_back != self.from_back:
            raise self.fail(f"seat {seat} draws from the wall's {'back' if from_back else 'front'}, "
                            f"but this draw comes from its {'back' if self.from_back else 'front'}")
        self._take(seat, tile, from_back)
        self._no_declared(f"seat {seat} draws")
        self.pending = None
        if self.deals is None:
            return
        if tile >= FLOWER_BASE:
            self.flower_drawn, self.from_back = tile, True
            return
        self.from_back = False
        self.drawn = (seat, tile)
        self._add(seat, "Draw", tile)

    def _discard(self, seat: int, tile: int) -> None:
        self._held(seat, tile, "discards")
        self._no_declared(f"seat {seat} discards")
        self._add(seat, "Play", tile)
        self.pending, self.drawn = (seat, tile, False), None

    def _no_declared(self, what: str) -> None:
        if self.declared:
            seat, claim = next(iter(self.declared.items()))
            raise self.fail(f"{what} while seat {seat}'s {claim} is declared and neither made nor overruled")

    def _ignored(self, winner: int) -> list:
        """The claims declared by other seats, which lost to `winner`'s: Ignore clauses."""
        lost = []
        for seat, claim in self.declared.items():
            if seat == winner:
                continue
            tile = kind_of(self.pending[1])
            if claim == "Chi":  # a declared chow names no tiles: the first chow the hand could make
                tile = next((m for m in _chow_middles(self.hands[seat], tile)), None)
                if tile is None:
                    raise self.fail(f"seat {seat} declares a chow its hand cannot make")
            lost.append((seat, claim, tile))
        self.declared = {}
        return lost

    def _meld(self, seat: int, kind: int, data: int) -> None:
        claim = {CHOW: "Chi", PUNG: "Peng", KONG: "Gang"}[kind]
        base = (data & 0x3F) << 2  # the first id of the meld's kind
        if data == 0:  # declared: made once the seats with priority have passed
            if self.pending is None or self.pending[0] == seat:
                raise self.fail(f"seat {seat} declares a {claim} with no discard to claim")
            self.declared[seat] = claim
            return
        if kind == KONG and (data >> 6) & 3 == 0:  # concealed, after the seat's own draw
            tiles = [t for t in self.hands[seat] if t >> 2 == base >> 2]
            if len(tiles) != 4:
                raise self.fail(f"seat {seat} declares a concealed kong of {TOKENS[kind_of(base)]} without four")
            for t in tiles:
                self.hands[seat].remove(t)
            self.melds[seat].append(tiles)
            self._add(seat, "AnGang", base)
            self.drawn, self.from_back = None, True
            return
        if kind == KONG and data & _ADDED == _ADDED:
            self._added_kong(seat, base + ((data >> 10) & 3))
            return
        if self.pending is None or self.pending[2] or self.pending[0] == seat:
            raise self.fail(f"seat {seat} claims a {claim} with no discard to claim")
        giver, offered, _ = self.pending
        if kind == CHOW:
            tiles = [base - 4 + ((data >> 10) & 3), base + ((data >> 12) & 3), base + 4 + ((data >> 14) & 3)]
            if offered not in tiles:
                raise self.fail(f"seat {seat}'s chow {tiles} does not take the discard, tile {offered}")
            middle = base
        else:
            if offered >> 2 != base >> 2 or (seat - giver) % 4 != (data >> 6) & 3:
                raise self.fail(f"seat {seat}'s {claim} names tile {base} from seat {(seat - ((data >> 6) & 3)) % 4}, "
                                f"but the discard is seat {giver}'s tile {offered}")
            need = 2 if kind == PUNG else 3
            own = [t for t in self.hands[seat] if t >> 2 == offered >> 2][:need]
            if len(own) < need:
                raise self.fail(f"seat {seat} claims a {claim} of {TOKENS[kind_of(offered)]} holding {len(own)}")
            tiles = own + [offered]
            middle = offered
        for t in tiles:
            if t != offered:
                self._held(seat, t, f"melds ({claim})")
        self.melds[seat].append(tiles)
        self._add(seat, claim, middle, self._ignored(seat))
        self.pending = None
        self.drawn, self.from_back = None, kind == KONG

    def _added_kong(self, seat: int, tile: int) -> None:
        pung = next((m for m in self.melds[seat] if len(m) == 3 and m[0] >> 2 == tile >> 2 and m[1] >> 2 == tile >> 2),
                    None)
        if pung is None:
            raise self.fail(f"seat {seat} adds {TOKENS[kind_of(tile)]} to a pung it has not")
        added = next((t for t in self.hands[seat] if t >> 2 == tile >> 2), None)
        if added is None:
            raise self.fail(f"seat {seat} adds a kong of {TOKENS[kind_of(tile)]} without the fourth tile")
        self.hands[seat].remove(added)
        pung.append(added)
        self._add(seat, "BuGang", added)
        self.pending, self.drawn, self.from_back = (seat, added, True), None, True

    def _win(self, seat: int, data: int) -> None:
        fans = data >> 1
        if fans == 0:
            raise self.fail(f"seat {seat} declares a win of no fans (错和), which the replay does not model")
        if self.drawn is not None and self.drawn[0] == seat:
            tile, discarder, ignored = self.drawn[1], None, []
        elif self.pending is not None and self.pending[0] != seat:
            tile, discarder = self.pending[1], self.pending[0]
            self.hands[seat].append(tile)
            ignored = self._ignored(seat)
        else:
            raise self.fail(f"seat {seat} declares a win with no tile to win on")
        self._add(seat, "Hu", tile, ignored)
        self.win = (seat, tile, discarder, fans)

    # --- the result ---------------------------------------------------------------------------

    def _result(self) -> GameLog:
        step = self.step
        self.line = len(step["a"]) - 1
        scores = step.get("s")
        if not _ints(scores, 4):
            raise self.fail("the record has no four score changes 's'")
        players = step.get("p")
        if not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, dict) for p in players):
            raise self.fail("the record has no four players 'p'")
        number = step.get("i")
        if not isinstance(number, int) or number < 0:
            raise self.fail(f"the hand's number 'i' is not a count, got {number!r}")
        minimum = (step.get("g") or {}).get("l", TZIAKCHA.minimum)
        ruleset = TZIAKCHA if minimum == TZIAKCHA.minimum else replace(TZIAKCHA, minimum=minimum)
        outcome = step.get("b", 0)
        if not isinstance(outcome, int):
            raise self.fail(f"the result 'b' is not a bit set, got {outcome!r}")
        winners = [p for p in range(4) if outcome >> p & 1]
        fan_total, fans = None, ()
        if self.win is None:
            if winners:
                raise self.fail(f"the result names seat {winners[0]} the winner, but nobody declares a win")
        else:
            fan_total, fans = self._server_win(outcome, winners)
        return GameLog(self.match_id, (number // 4) % 4, tuple(self.deals), tuple(self.actions), fan_total, fans,
                       self.win is None, tuple(scores), SHARED, 0, tuple(self.lines),
                       names=tuple(str(p.get("n") or "") for p in players), ruleset=ruleset)

    def _server_win(self, outcome: int, winners: list) -> tuple:
        """(the fans' total, (name, count) of each) of the server's fan table, after checking
        that the record's result is the win replayed: winner, discarder, hand, total."""
        seat, tile, discarder, declared = self.win
        if winners != [seat]:
            raise self.fail(f"seat {seat} wins, but the result names {winners or 'nobody'}")
        losers = [p for p in range(4) if outcome >> (4 + p) & 1]
        if losers != ([seat] if discarder is None else [discarder]):
            raise self.fail(f"the result's discarder {losers} is not the replay's "
                            f"({'self-drawn' if discarder is None else discarder})")
        tables = self.step.get("y")
        server = tables[seat] if isinstance(tables, list) and len(tables) == 4 else None
        if not (isinstance(server, dict) and isinstance(server.get("t"), dict) and isinstance(server.get("f"), int)):
            raise self.fail(f"the record has no fan table for the winner, seat {seat}")
        hand = server.get("h") or {}
        standing = hand.get("s")
        if isinstance(standing, list) and (sorted(standing[:-1]) != sorted(t for t in self.hands[seat] if t != tile)
                                           or standing[-1:] != [tile]):
            raise self.fail(f"the server's hand of seat {seat} {standing} is not the hand replayed")
        if server["f"] != declared:
            raise self.fail(f"the win declares {declared} fans but the fan table totals {server['f']}")
        fans: dict = {}
        points = 0
        try:
            for index, value in server["t"].items():  # value: the fan's points | (count - 1) << 8
                name = server_fan(int(index))
                fans[name] = fans.get(name, 0) + (int(value) >> 8) + 1
                points += (int(value) & 0xFF) * ((int(value) >> 8) + 1)
        except (ValueError, TypeError):
            raise self.fail(f"the fan table {server['t']} has an index that is no fan") from None
        if points != server["f"]:
            raise self.fail(f"the fan table {server['t']} adds up to {points}, not its total {server['f']}")
        return server["f"], tuple(fans.items())


def _chow_middles(hand: list, kind: int) -> Iterator[int]:
    """mjfast ids of the middle tiles of the chows a hand (Tziakcha ids) can make with `kind`."""
    kinds = {kind_of(t) for t in hand}
    if kind >= 27:
        return
    for middle in (kind - 1, kind, kind + 1):
        run = (middle - 1, middle, middle + 1)
        if middle // 9 == kind // 9 and 1 <= middle % 9 <= 7 and all(t in kinds for t in run if t != kind):
            yield middle
