"""Botzone's own JSON match log: reading (both shapes, plain or gzip) and writing.

A Botzone match of Chinese Standard Mahjong is one game, and its log is a JSON array that
alternates the judge's entries (even positions) and the four bots' entries (odd positions);
a match downloaded whole wraps the same array as `{"logs": [...], "initdata": {...},
"players": [...]}`. docs/game.md ("Botzone's JSON match log") describes what mjfast reads of
it; ../shared/data/logs/README.md explains the format.

- The judge's `display` says what happened (INIT, DEAL, DRAW, BUHUA, PLAY, CHI, PENG, GANG,
  BUGANG, then HU, HUANG or the code of a bot's error such as WA), with `tileCnt` and
  `canHu`; a `finish` entry's `content` holds the scores.
- A bots' entry holds each bot's `response`, `verdict` and `time` (ms) for the request of
  the judge's entry before it.

read_botzone() turns a log into the GameLog of the text format (logformat), so that Replay
and check_games replay it with the same rules: a claim that lost on priority is an Ignore
clause, and a game the judge ended with a bot's error ends with the offending response as
the actions it is (then `Invalid`), so that the replay rejects it where mjfast's rules do.
What only this format has (the judge's tileCnt and canHu at every step, the bots' names,
responses, verdicts and times) is the game's JudgeRecord, which the replay checks against
mjfast (judge.JudgeCheck) and the log analysis keeps as columns. A log's "line" is the
position of an entry in its array (0-based: the INIT entry is 0).

botzone_match() writes a GameLog back as such a log, with mjfast's own tileCnt and canHu, so
that a game played at mjfast's table reads the same way as a real Botzone match.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NamedTuple

from ..errors import ArgumentError
from .gamelog import (
    MAX_FIGURE,
    Action,
    BrokenGame,
    GameLog,
    JudgeRecord,
    LogError,
    Response,
    check_figure,
    open_log,
    read_tile,
)
from .protocol import ProtocolError, deal_request, draw_request, event_request, parse_response, start_request
from .state import DUPLICATE, DUPLICATE_FLOWERS, HAND_SIZE, PRIVATE_WALL, SHARED_WALL
from .tokens import TOKENS, is_flower

# In a folder, the files read as Botzone JSON logs.
JSON_SUFFIXES = (".json", ".json.gz")
# The judge's display actions of the moves after the deal (the others end the game).
_MOVES = ("DRAW", "BUHUA", "PLAY", "CHI", "PENG", "GANG", "BUGANG")
# A claim response and the log's claim it is.
_CLAIM_OF_RESPONSE = {"HU": "Hu", "PENG": "Peng", "GANG": "Gang", "CHI": "Chi"}
# White space before a log's first character, and the byte order mark a Windows editor writes.
JSON_BLANK = " \t\r\n\ufeff"
_TILES_OF_WALL = {DUPLICATE: 4 * PRIVATE_WALL[DUPLICATE], DUPLICATE_FLOWERS: 4 * PRIVATE_WALL[DUPLICATE_FLOWERS]}
# The most time a bot's answers may add up to over a game, in ms: far above Botzone's limits (a
# game is some hundred answers of a second at most), and what the tables of `mjfast logs` hold
# (microseconds in 32 bits).
MAX_GAME_MS = 2_000_000


class BotzoneText(NamedTuple):
    """A Botzone JSON log not parsed yet: what a chunk of the log analysis carries."""

    match_id: str
    text: str

    def parse(self) -> GameLog:
        return parse_botzone(_loads(self.text, self.match_id), self.match_id)


# --- which files ---------------------------------------------------------------------------------

def match_id_of(path) -> str:
    """A match's id from its file name: the name without .json / .json.gz."""
    name = Path(path).name
    for suffix in (".json.gz", ".json", ".gz"):
        if name.lower().endswith(suffix):
            return name[:-len(suffix)] or name
    return name


def is_botzone_json(path) -> bool:
    """Whether a file (plain or gzip) holds JSON rather than the text format: its first
    character that is not white space opens an array or an object."""
    with open_log(path) as f:
        while True:
            text = f.read(256)
            if not text:
                return False
            text = text.lstrip(JSON_BLANK)
            if text:
                return text[0] in "[{"


def read_text(path) -> BotzoneText:
    """The log of a file, not parsed yet (its match id from the file name)."""
    with open_log(path) as f:
        return BotzoneText(match_id_of(path), f.read())


def read_botzone(source, match_id: "str | None" = None) -> GameLog:
    """The GameLog of one Botzone JSON log: a path (plain or gzip), an open text file, or the
    log already loaded (the array or the object). LogError when it does not read."""
    if isinstance(source, (str, os.PathLike)):
        match_id = match_id or match_id_of(source)
        return read_text(source)._replace(match_id=match_id).parse()
    if hasattr(source, "read"):
        match_id = match_id or "botzone"
        return parse_botzone(_loads(source.read(), match_id), match_id)
    return parse_botzone(source, match_id or "botzone")


def read_botzone_games(path):
    """The one game of a Botzone JSON log file as read_games yields it: a GameLog, or a
    BrokenGame when it does not read."""
    try:
        yield read_botzone(path)
    except LogError as exc:
        yield BrokenGame(exc.match_id, exc.line, exc.reason)


def _loads(text: str, match_id: str):
    try:
        return json.loads(text.lstrip(JSON_BLANK))
    except json.JSONDecodeError as exc:
        raise LogError(match_id, 0, f"not a Botzone JSON log: {exc}") from None


# --- reading -------------------------------------------------------------------------------------

def judge_wall(walltiles: "int | None", tile_counts, flowers) -> str:
    """The wall kind of a Botzone game (docs/game.md, "Walls, and which judge deals which"):
    by the tiles of `initdata.walltiles` when the log has them (136: DUPLICATE, 144:
    DUPLICATE_FLOWERS), else by the judge's tileCnt right after the deal (21 each:
    DUPLICATE; 36 - 13 - the player's flowers: DUPLICATE_FLOWERS), else by the flowers
    dealt (tiles left that fit neither wall are left to the replay's check to report).
    flowers: the flowers each player was dealt. ArgumentError for walltiles of another size
    (the reader reports it as the log's LogError)."""
    if walltiles is not None:
        for wall, n in _TILES_OF_WALL.items():
            if walltiles == n:
                return wall
        raise ArgumentError(f"initdata.walltiles holds {walltiles} tiles: the judge deals {_TILES_OF_WALL[DUPLICATE]} "
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
        initdata = _loads(initdata, match_id) if initdata.strip() else {}
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


# --- writing -------------------------------------------------------------------------------------

def botzone_match(game: GameLog, names=None, walls=None) -> dict:
    """A GameLog as Botzone's JSON log of a whole match: `{"logs", "initdata", "players"}`.

    The judge's entries hold the requests each bot was sent and a display with mjfast's own
    tileCnt and canHu (judge.figures); the bots' entries the answers the game's actions
    imply (verdict OK, no time). What the text format does not keep is written plainly: the
    tile a claim that lost on priority would have discarded is written as the claimed tile,
    and the response of a foul (`Invalid`, which ends the game as the judge's WA) as "".
    names: the four bots' names; walls: the game's walls.DuplicateWalls, written as the
    judge's `initdata.walltiles` (each player's wall reversed: the judge takes from the end).
    Only the judge's walls can be written (DUPLICATE, DUPLICATE_FLOWERS): ArgumentError for
    another; LogError for a game that breaks a rule."""
    from .judge import NOT_CHECKED, figures
    from .replay import Replay

    if game.wall not in _TILES_OF_WALL:
        raise ArgumentError(f"a Botzone JSON log holds the judge's walls ({DUPLICATE}, {DUPLICATE_FLOWERS}), "
                         f"not {game.wall!r}")
    actions = game.actions
    groups = _entry_groups(actions)
    # the judge's figures after each group of actions (and after the deal: index -1)
    after: dict = {}
    replay = Replay(game)
    ends = {last for _, last in groups}
    for k, step in enumerate(replay):
        if k == 0:
            after[-1] = figures(step.table)
        elif k - 1 in ends:
            after[k - 1] = figures(step.table)
    after[len(actions) - 1] = figures(replay.table)
    nobody = [NOT_CHECKED] * 4

    logs: list = []
    _judge_entry(logs, {p: start_request(p, game.prevalent_wind) for p in range(4)},
                 {"action": "INIT", "quan": game.prevalent_wind, "canHu": nobody})
    _bots_entry(logs, ["PASS"] * 4)
    counts = [len(deal) - HAND_SIZE for deal in game.deals]
    flowers = [t for deal in game.deals for t in deal[HAND_SIZE:]]
    tile_counts, _ = after[-1]
    _judge_entry(logs, {p: deal_request(counts, game.deals[p][:HAND_SIZE], flowers) for p in range(4)},
                 {"action": "DEAL", "hand": [[TOKENS[t] for t in deal] for deal in game.deals], "canHu": nobody,
                  "tileCnt": list(tile_counts)})
    _bots_entry(logs, ["PASS"] * 4)
    for g, (first, last) in enumerate(groups):
        group = actions[first:last + 1]
        head = group[0]
        if head.kind in ("Hu", "Invalid"):
            _finish(logs, game, head, after[last][0])
            break
        tile_counts, can_hu = after[last]
        content, display = _move_entry(group)
        display.update(canHu=list(can_hu), tileCnt=list(tile_counts))
        _judge_entry(logs, content, display)
        following = actions[groups[g + 1][0]:groups[g + 1][1] + 1] if g + 1 < len(groups) else ()
        _bots_entry(logs, _answers(group, following))
    else:
        if game.drawn:
            _judge_entry(logs, {p: 0 for p in range(4)},
                         {"action": "HUANG", "canHu": nobody, "tileCnt": list(after[len(actions) - 1][0])},
                         "finish")
    match: dict = {"logs": logs, "initdata": {"quan": game.prevalent_wind}}
    if walls is not None:
        match["initdata"]["walltiles"] = " ".join(TOKENS[t] for wall in walls.walls for t in reversed(wall))
    if names is not None:
        match["players"] = [{"name": str(name)} for name in names]
    return match


def write_botzone(game: GameLog, path, names=None, walls=None) -> None:
    """Write botzone_match(game, names, walls) to `path` (UTF-8 JSON; gzip for a .gz name)."""
    import gzip

    text = json.dumps(botzone_match(game, names, walls), ensure_ascii=False)
    path = Path(path)
    if path.name.lower().endswith(".gz"):
        with gzip.open(path, "wt", encoding="utf-8") as f:
            f.write(text)
    else:
        path.write_text(text, encoding="utf-8")


def _entry_groups(actions) -> list:
    """(first, last) action positions of each judge entry: a chow or pung and the discard
    after it are one entry, every other action one of its own."""
    groups, i = [], 0
    while i < len(actions):
        a = actions[i]
        paired = (a.kind in ("Chi", "Peng") and i + 1 < len(actions) and actions[i + 1].kind == "Play"
                  and actions[i + 1].player == a.player)
        groups.append((i, i + paired))
        i += 1 + paired
    return groups


def _judge_entry(logs: list, content: dict, display: dict, command: str = "request") -> None:
    logs.append({"output": {"command": command, "content": {str(p): c for p, c in content.items()},
                            "display": display}, "verdict": "OK"})


def _bots_entry(logs: list, answers: list) -> None:
    logs.append({str(p): {"verdict": "OK", "response": answer} for p, answer in enumerate(answers)})


def _move_entry(group) -> tuple[dict, dict]:
    """The requests and the display of one of the game's moves."""
    head, last = group[0], group[-1]
    p = head.player
    if head.kind == "Draw":
        content = {q: draw_request(head.tile) if q == p else event_request(p, "DRAW") for q in range(4)}
        return content, {"action": "DRAW", "player": p, "tile": TOKENS[head.tile]}
    words = {"BuHua": ("BUHUA", True), "Play": ("PLAY", True), "Gang": ("GANG", False), "AnGang": ("GANG", False),
             "BuGang": ("BUGANG", True)}
    if head.kind in ("Chi", "Peng"):
        tiles = (head.tile, last.tile) if head.kind == "Chi" else (last.tile,)
        request = event_request(p, head.kind.upper(), *tiles)
        display = {"action": head.kind.upper(), "player": p, "tile": TOKENS[last.tile]}
        if head.kind == "Chi":
            display["tileCHI"] = TOKENS[head.tile]
        return {q: request for q in range(4)}, display
    word, named = words[head.kind]
    request = event_request(p, word, head.tile) if named else event_request(p, word)
    return {q: request for q in range(4)}, {"action": word, "player": p, "tile": TOKENS[head.tile]}


def _answers(group, following) -> list:
    """The four bots' answers to the judge's entry of `group`, as the actions that follow
    say them."""
    answers = ["PASS"] * 4
    if not following:
        return answers
    a = following[0]
    token = TOKENS
    if a.kind == "Invalid":
        answers[a.player] = ""
    elif group[-1].kind == "Draw" and a.player == group[-1].player:
        answers[a.player] = {"Play": "PLAY", "AnGang": "GANG", "BuGang": "BUGANG", "Hu": "HU"}[a.kind]
        if a.kind != "Hu":
            answers[a.player] += f" {token[a.tile]}"
    elif a.kind in _CLAIMS_ANSWERED:
        discard = following[1].tile if len(following) > 1 else None
        answers[a.player] = _claim_answer(a.kind, a.tile, discard)
        for who, claim, tile in a.ignored:
            answers[who] = _claim_answer(claim, tile, None)
    return answers


_CLAIMS_ANSWERED = ("Hu", "Peng", "Gang", "Chi")


def _claim_answer(claim: str, tile: int, discard: "int | None") -> str:
    """A claim's answer; `discard`: the tile played after a chow or pung (None when the log
    does not know it: the claimed tile is written instead)."""
    after = TOKENS[discard if discard is not None else tile]
    return {"Hu": "HU", "Gang": "GANG", "Peng": f"PENG {after}", "Chi": f"CHI {TOKENS[tile]} {after}"}[claim]


def _finish(logs: list, game: GameLog, end: Action, tile_counts) -> None:
    """The judge's last entry: a win, or the foul (the judge's WA) that ended the game."""
    from ..fan import fan_by_name

    scores = list(game.scores)
    display: dict = {"action": "HU" if end.kind == "Hu" else "WA", "player": end.player, "canHu": [-4] * 4,
                     "score": scores}
    if end.kind == "Hu":
        display["fan"] = [{"name": name, "cnt": count, "value": fan_by_name(name).points} for name, count in game.fans]
        display["fanCnt"] = game.fan_total
        display["tileCnt"] = list(tile_counts)
    _judge_entry(logs, dict(enumerate(scores)), display, "finish")
