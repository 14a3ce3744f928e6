"""Botzone's own JSON match log: reading (both shapes, plain or gzip; botzone_entries.py reads
the entries) and writing.

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

from ..bounds import JSON_SHARE, MAX_LOG_SIZE, SIZE_FLAG, json_max_size, size_text
from ..errors import ArgumentError
from .botzone_entries import JSON_BLANK, TILES_OF_WALL, judge_wall, loads, parse_botzone  # noqa: F401 (this face's)
from .gamelog import Action, BrokenGame, GameLog, LogError, LogRefused, open_log
from .protocol import deal_request, draw_request, event_request, start_request
from .state import DUPLICATE, DUPLICATE_FLOWERS, HAND_SIZE
from .tokens import TOKENS

# In a folder, the files read as Botzone JSON logs.
JSON_SUFFIXES = (".json", ".json.gz")


class BotzoneText(NamedTuple):
    """A Botzone JSON log not parsed yet: what a chunk of the log analysis carries."""

    match_id: str
    text: str

    def parse(self) -> GameLog:
        return parse_botzone(loads(self.text, self.match_id), self.match_id)


# --- which files ---------------------------------------------------------------------------------

def match_id_of(path) -> str:
    """A match's id from its file name: the name without .json / .json.gz."""
    name = Path(path).name
    for suffix in (".json.gz", ".json", ".gz"):
        if name.lower().endswith(suffix):
            return name[:-len(suffix)] or name
    return name


def is_botzone_json(path, max_size: "int | None" = None) -> bool:
    """Whether a file (plain or gzip) holds JSON rather than the text format: its first
    character that is not white space (among the first 4096) opens an array or an object. A
    plain file larger than `max_size` raises LogRefused at once (gamelog.open_log)."""
    with open_log(path, max_size) as f:
        return f.read(4096).lstrip(JSON_BLANK)[:1] in ("[", "{")


def read_text(path, max_size: "int | None" = None) -> BotzoneText:
    """The log of a file, not parsed yet (its match id from the file name). It is read whole:
    past bounds.json_max_size(max_size) bytes once decompressed, LogRefused."""
    bound = json_max_size(max_size)
    whole = MAX_LOG_SIZE if max_size is None else max_size

    def refusal() -> LogRefused:
        return LogRefused(os.fspath(path), f"holds more than {size_text(bound)} once decompressed, the most a "
                                           f"JSON log may hold (it is read whole: 1/{JSON_SHARE} of {SIZE_FLAG} "
                                           f"{size_text(whole)}): refused ({SIZE_FLAG} raises the bound)")

    with open_log(path, bound, refusal) as f:
        return BotzoneText(match_id_of(path), f.read())


def read_botzone(source, match_id: "str | None" = None) -> GameLog:
    """The GameLog of one Botzone JSON log: a path (plain or gzip), an open text file, or the
    log already loaded (the array or the object). LogError when it does not read."""
    if isinstance(source, (str, os.PathLike)):
        match_id = match_id or match_id_of(source)
        return read_text(source)._replace(match_id=match_id).parse()
    if hasattr(source, "read"):
        match_id = match_id or "botzone"
        return parse_botzone(loads(source.read(), match_id), match_id)
    return parse_botzone(source, match_id or "botzone")


def read_botzone_games(path):
    """The one game of a Botzone JSON log file as read_games yields it: a GameLog, or a
    BrokenGame when it does not read."""
    try:
        yield read_botzone(path)
    except LogError as exc:
        yield BrokenGame(exc.match_id, exc.line, exc.reason)


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

    if game.wall not in TILES_OF_WALL:
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
