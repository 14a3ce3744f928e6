"""A Botzone JSON log's entries read into a GameLog (botzone_log.py reads the files and writes
logs; docs/game.md, "Botzone's JSON match log", says what is read).

The entries alternate the judge's (even positions) and the four bots' (odd positions): the
judge's display says what happened (INIT, DEAL, DRAW, BUHUA, PLAY, CHI, PENG, GANG, BUGANG,
then HU, HUANG or the code of a bot's error such as WA) with tileCnt and canHu, a finish
entry's content the scores; a bots' entry each bot's response, verdict and time (ms) for the
request before it. parse_botzone() turns them into the GameLog of the text format
(logformat), with what only this format has as its JudgeRecord.
"""

from __future__ import annotations

import json

from ..bounds import too_deep
from ..errors import ArgumentError
from .gamelog import MAX_FIGURE, Action, GameLog, JudgeRecord, LogError, Response, check_figure, read_tile
from .protocol import ProtocolError, parse_response
from .state import DUPLICATE, DUPLICATE_FLOWERS, HAND_SIZE, PRIVATE_WALL, SHARED_WALL
from .tokens import is_flower

# The judge's display actions of the moves after the deal (the others end the game).
_MOVES = ("DRAW", "BUHUA", "PLAY", "CHI", "PENG", "GANG", "BUGANG")
# A claim response and the log's claim it is.
_CLAIM_OF_RESPONSE = {"HU": "Hu", "PENG": "Peng", "GANG": "Gang", "CHI": "Chi"}
# White space before a log's first character, and the byte order mark a Windows editor writes.
JSON_BLANK = " \t\r\n\ufeff"
TILES_OF_WALL = {DUPLICATE: 4 * PRIVATE_WALL[DUPLICATE], DUPLICATE_FLOWERS: 4 * PRIVATE_WALL[DUPLICATE_FLOWERS]}
# The most time a bot's answers may add up to over a game, in ms: far above Botzone's limits (a
# game is some hundred answers of a second at most), and what the tables of `mjfast logs` hold
# (microseconds in 32 bits).
MAX_GAME_MS = 2_000_000



def loads(text: str, match_id: str):
    deep = too_deep(text)
    if deep:
        raise LogError(match_id, 0, deep)
    try:
        return json.loads(text.lstrip(JSON_BLANK))
    except json.JSONDecodeError as exc:
        raise LogError(match_id, 0, f"not a Botzone JSON log: {exc}") from None


def judge_wall(walltiles: "int | None", tile_counts, flowers) -> str:
    """The wall kind of a Botzone game (docs/game.md, "Walls, and which judge deals which"):
    by the tiles of `initdata.walltiles` when the log has them (136: DUPLICATE, 144:
    DUPLICATE_FLOWERS), else by the judge's tileCnt right after the deal (21 each:
    DUPLICATE; 36 - 13 - the player's flowers: DUPLICATE_FLOWERS), else by the flowers
    dealt (tiles left that fit neither wall are left to the replay's check to report).
    flowers: the flowers each player was dealt. ArgumentError for walltiles of another size
    (the reader reports it as the log's LogError)."""
    if walltiles is not None:
        for wall, n in TILES_OF_WALL.items():
            if walltiles == n:
                return wall
        raise ArgumentError(f"initdata.walltiles holds {walltiles} tiles: the judge deals {TILES_OF_WALL[DUPLICATE]} "
                         f"or {SHARED_WALL}")
    if tile_counts is not None:
        for wall, size in PRIVATE_WALL.items():
            if list(tile_counts) == [size - HAND_SIZE - f for f in flowers]:
                return wall
    return DUPLICATE_FLOWERS if any(flowers) else DUPLICATE


def _name(player) -> str:
    if isinstance(player, dict):
        return str(player.get("name") or player.get("bot") or "")
    return str(player or "")


def _shape(data, match_id: str) -> tuple[list, dict, tuple]:
    """(logs, initdata, names) of either shape."""
    if isinstance(data, list):
        return data, {}, ("",) * 4
    if not isinstance(data, dict) or not isinstance(data.get("logs", data.get("log")), list):
        raise LogError(match_id, 0, "a Botzone JSON log is an array of entries or an object with 'logs'")
    initdata = data.get("initdata") or {}
    if isinstance(initdata, str):  # Botzone may give initdata as the judge's JSON text
        initdata = loads(initdata, match_id) if initdata.strip() else {}
    players = data.get("players") or ()
    names = tuple(_name(p) for p in players) if len(players) == 4 else ("",) * 4
    return data.get("logs", data.get("log")), initdata if isinstance(initdata, dict) else {}, names


class _Reader:
    """Reads the entries of one log in order into the GameLog's parts."""

    def __init__(self, match_id: str):
        self.match_id = match_id
        self.wind: "int | None" = None
        self.deals: list = []
        self.deal_entry = -1
        self.dealt_counts: "tuple | None" = None
        self.actions: list[Action] = []
        self.lines: list[int] = []
        self.points: list = []
        self.responses: dict = {}
        self.pending: "tuple[int, int] | None" = None  # (giver, tile) open to claims
        self.drawn: "tuple[int, int] | None" = None  # (player, tile) just drawn
        self.fan_total: "int | None" = None
        self.fans: "tuple[tuple[str, int], ...]" = ()
        self.huang = False
        self.scores: "tuple | None" = None
        self.walltiles: "int | None" = None

    def fail(self, entry: int, reason: str) -> LogError:
        return LogError(self.match_id, entry, reason)

    def tile(self, word, entry: int) -> int:
        if not isinstance(word, str):
            raise self.fail(entry, f"{word!r} is not a tile")
        return read_tile(word, self.match_id, entry)

    def player(self, value, entry: int) -> int:
        if type(value) is not int or value not in (0, 1, 2, 3):  # not 1.0 or True: an index
            raise self.fail(entry, f"{value!r} is not a player 0-3")
        return value

    def add(self, player: int, kind: str, tile, entry: int, ignored=()) -> None:
        self.actions.append(Action(player, kind, tile, tuple(ignored)))
        self.lines.append(entry)

    # --- the bots' entries ----------------------------------------------------------------------

    def bots(self, entry: int, answers) -> None:
        if not isinstance(answers, dict):
            raise self.fail(entry, "a bots' entry is an object with the answers of bots 0-3")
        found = []
        for p in range(4):
            answer = answers.get(str(p))
            if not isinstance(answer, dict):
                raise self.fail(entry, f"the bots' entry has no answer of bot {p}")
            time = answer.get("time")
            if isinstance(time, bool) or not isinstance(time, (int, float)):
                time = None
            elif not 0 <= time <= MAX_GAME_MS:  # NaN too
                raise self.fail(entry, f"bot {p}'s time {time!r} is not a number of ms from 0 to {MAX_GAME_MS}")
            found.append(Response(str(answer.get("response", "")), str(answer.get("verdict", "")),
                                  None if time is None else float(time)))
        self.responses[entry] = tuple(found)

    def _answer(self, entry: int, player: int):
        """The protocol Response of `player` in the bots' entry before judge entry `entry`,
        None when there is none or it is no response of the protocol."""
        answers = self.responses.get(entry - 1)
        if answers is None:
            return None
        try:
            return parse_response(answers[player].text)
        except ProtocolError:
            return None

    def _ignored(self, entry: int, claimer: int) -> list:
        """The claims of the pending tile that lost to `claimer`'s, from the bots' answers, in
        turn after the tile's giver (as the text format's Ignore clauses)."""
        giver, tile = self.pending
        lost = []
        for q in ((giver + 1) % 4, (giver + 2) % 4, (giver + 3) % 4):
            answer = self._answer(entry, q)
            if q == claimer or answer is None or answer.action not in _CLAIM_OF_RESPONSE:
                continue
            if answer.action == "GANG" and answer.tiles:
                continue  # a concealed kong's answer, not a claim
            claim = _CLAIM_OF_RESPONSE[answer.action]
            lost.append((q, claim, answer.tiles[0] if claim == "Chi" else tile))
        return lost

    # --- the judge's entries --------------------------------------------------------------------

    def judge(self, entry: int, value) -> None:
        if not isinstance(value, dict) or not isinstance(value.get("output"), dict):
            raise self.fail(entry, "a judge's entry holds the judge's 'output'")
        output = value["output"]
        display = output.get("display")
        if not isinstance(display, dict):
            raise self.fail(entry, "the judge's output has no 'display'")
        if isinstance(output.get("initdata"), dict) and "walltiles" in output["initdata"]:
            self.walltiles = _count_tiles(output["initdata"]["walltiles"])
        action = display.get("action")
        if action == "INIT":
            if type(display.get("quan")) is not int or display["quan"] not in (0, 1, 2, 3):
                raise self.fail(entry, f"INIT needs the prevalent wind 'quan' 0-3, got {display.get('quan')!r}")
            self.wind = display["quan"]
            return
        if self.wind is None:
            raise self.fail(entry, f"{action} before INIT")
        if action == "DEAL":
            self.deal(entry, display)
        elif self.deal_entry < 0:
            raise self.fail(entry, f"{action} before the deal")
        elif action in _MOVES:
            self.move(entry, action, display)
        else:
            self.end(entry, action, display, output)
        # at the end every canHu is -4: only the tiles left are checked there
        tile_counts = _figure(display, "tileCnt")
        can_hu = _figure(display, "canHu") if self.scores is None else None
        if tile_counts is not None or can_hu is not None:
            self.points.append((len(self.actions), entry, tile_counts, can_hu))

    def deal(self, entry: int, display: dict) -> None:
        hands = display.get("hand")
        if self.deals or not isinstance(hands, list) or len(hands) != 4:
            raise self.fail(entry, "DEAL needs the four hands dealt ('hand')")
        for hand in hands:
            if not isinstance(hand, list):
                raise self.fail(entry, "a hand dealt is a list of tiles")
            tiles = [self.tile(t, entry) for t in hand]
            self.deals.append(tuple([t for t in tiles if not is_flower(t)] + [t for t in tiles if is_flower(t)]))
        self.deal_entry = entry
        self.dealt_counts = _figure(display, "tileCnt")

    def move(self, entry: int, action: str, display: dict) -> None:
        player = self.player(display.get("player"), entry)
        tile = self.tile(display.get("tile"), entry) if display.get("tile") is not None else None
        if tile is None and action != "GANG":  # a concealed kong's tile is in its answer too
            raise self.fail(entry, f"{action} names no tile")
        if action == "DRAW":
            self.add(player, "Draw", tile, entry)
            self.drawn, self.pending = (player, tile), None
        elif action == "BUHUA":
            self.add(player, "BuHua", tile, entry)
            self.drawn, self.pending = None, None
        elif action == "PLAY":
            self.add(player, "Play", tile, entry)
            self.drawn, self.pending = None, (player, tile)
        elif action in ("CHI", "PENG"):
            if self.pending is None:
                raise self.fail(entry, f"{action} with no discard to claim")
            claimed = self.tile(display.get("tileCHI"), entry) if action == "CHI" else self.pending[1]
            kind = "Chi" if action == "CHI" else "Peng"
            self.add(player, kind, claimed, entry, self._ignored(entry, player))
            self.add(player, "Play", tile, entry)
            self.pending = (player, tile)
        elif action == "GANG":
            if self.drawn is not None and self.drawn[0] == player:  # after one's own draw: concealed
                if tile is None:
                    answer = self._answer(entry, player)
                    tile = answer.tiles[0] if answer is not None and answer.tiles else None
                if tile is None:
                    raise self.fail(entry, "a concealed GANG names no tile")
                self.add(player, "AnGang", tile, entry)
            elif self.pending is not None:
                self.add(player, "Gang", self.pending[1], entry, self._ignored(entry, player))
            else:
                raise self.fail(entry, "GANG neither after the player's draw nor of a discard")
            self.drawn, self.pending = None, None
        else:  # BUGANG
            self.add(player, "BuGang", tile, entry)
            self.drawn, self.pending = None, (player, tile)

    def end(self, entry: int, action, display: dict, output: dict) -> None:
        self.scores = self.final_scores(entry, display, output)
        if action == "HU":
            player = self.player(display.get("player"), entry)
            if self.drawn is not None and self.drawn[0] == player:
                self.add(player, "Hu", self.drawn[1], entry)
            elif self.pending is not None:
                self.add(player, "Hu", self.pending[1], entry, self._ignored(entry, player))
            else:
                raise self.fail(entry, "HU with no tile to win on")
            fans = display.get("fan") or []
            try:
                self.fans = tuple((str(f["name"]), int(f["cnt"])) for f in fans)
                self.fan_total = int(display["fanCnt"])
            except (KeyError, TypeError, ValueError, OverflowError):
                raise self.fail(entry, "HU needs its fans ('fan': name and cnt of each) and 'fanCnt'") from None
            check_figure(self.fan_total, "the fan total", self.match_id, entry)
        elif action == "HUANG":
            self.huang = True
        else:
            self.error(entry, action, display)

    def error(self, entry: int, code, display: dict) -> None:
        """A game the judge ended with a bot's error (WA, WH, or the bot's verdict when it is
        not OK): the offending response as the actions it is, then Invalid. A HU the judge
        refuses (WH: no win, or under 8 fans) is just Invalid, as mjfast's table writes it."""
        offender = self.player(display.get("player"), entry)
        answers = self.responses.get(entry - 1)
        if answers is not None and answers[offender].verdict == "OK":
            answer = self._answer(entry, offender)
            if answer is not None:
                self.offence(entry - 1, offender, answer)
        self.add(offender, "Invalid", None, entry)

    def offence(self, entry: int, player: int, answer) -> None:
        """The actions of `player`'s answer to the situation the judge had reached (written at
        the bots' entry `entry`); answers the text format cannot say add nothing."""
        action, tiles = answer
        if self.drawn is not None and self.drawn[0] == player:
            simple = {"PLAY": "Play", "GANG": "AnGang", "BUGANG": "BuGang"}
            if action in simple and tiles:
                self.add(player, simple[action], tiles[0], entry)
            return
        if self.pending is None or self.pending[0] == player:
            return
        tile = self.pending[1]
        if action == "GANG" and not tiles:
            self.add(player, "Gang", tile, entry)
        elif action in ("PENG", "CHI"):
            self.add(player, "Peng" if action == "PENG" else "Chi", tile if action == "PENG" else tiles[0], entry)
            self.add(player, "Play", tiles[-1], entry)

    def final_scores(self, entry: int, display: dict, output: dict) -> tuple:
        content = output.get("content")
        if isinstance(content, dict) and all(str(p) in content for p in range(4)):
            scores = [content[str(p)] for p in range(4)]
        else:
            scores = display.get("score")
        if not isinstance(scores, list) or len(scores) != 4 or not all(
                isinstance(s, (int, float)) and not isinstance(s, bool) and -MAX_FIGURE <= s <= MAX_FIGURE
                for s in scores):
            raise self.fail(entry, f"the judge's last entry has no four scores (numbers of at most {MAX_FIGURE} "
                                   "either way)")
        return tuple(int(s) for s in scores)

    def game(self, names: tuple) -> GameLog:
        if self.scores is None:
            raise self.fail(max(self.lines, default=0), "the log stops before the judge's finish")
        try:
            wall = judge_wall(self.walltiles, self.dealt_counts, [len(d) - HAND_SIZE for d in self.deals])
        except ArgumentError as exc:
            raise self.fail(self.deal_entry, str(exc)) from None
        for p in range(4):
            spent = sum(answers[p].time or 0.0 for answers in self.responses.values())
            if spent > MAX_GAME_MS:
                raise self.fail(self.deal_entry, f"bot {p}'s answers take {spent:.0f} ms in all, more than "
                                                 f"{MAX_GAME_MS} ms: not the times of a game")
        record = JudgeRecord(self.deal_entry, tuple(self.points), self.responses)
        return GameLog(self.match_id, self.wind, tuple(self.deals), tuple(self.actions), self.fan_total, self.fans,
                       self.huang, self.scores, wall, 0, tuple(self.lines), record, names)


def _figure(display: dict, key: str) -> "tuple | None":
    value = display.get(key)
    if isinstance(value, list) and len(value) == 4 and all(isinstance(v, int) for v in value):
        return tuple(value)
    return None


def _count_tiles(walltiles) -> int:
    return len(walltiles.split() if isinstance(walltiles, str) else walltiles)


def parse_botzone(data, match_id: str) -> GameLog:
    """The GameLog of a Botzone JSON log already loaded (the array or the object)."""
    logs, initdata, names = _shape(data, match_id)
    reader = _Reader(match_id)
    if "walltiles" in initdata:
        reader.walltiles = _count_tiles(initdata["walltiles"])
    for entry, value in enumerate(logs):
        if reader.scores is not None:
            if entry % 2 and isinstance(value, dict) and "output" not in value:
                continue  # the bots' entry after the finish, if any: nothing to answer
            raise reader.fail(entry, "an entry after the judge's finish")
        if entry % 2:
            reader.bots(entry, value)
        else:
            reader.judge(entry, value)
    if reader.wind is None:
        raise reader.fail(0, "the log has no INIT entry")
    if reader.deal_entry < 0:
        raise reader.fail(len(logs), "the log has no DEAL entry")
    return reader.game(names)
