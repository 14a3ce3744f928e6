"""The Botzone / PKU game-log text format: reading (streaming, tolerant) and writing.

One game per block; a block starts with its Match line and ends at a blank line or the next
Match line:

    Match <id>
    Wind <0-3>                                 prevalent wind
    Player <i> Deal <13 tiles> [flowers]       i = 0..3, seat wind i, player 0 draws first
    Player <i> Draw|Play|Peng|Gang|AnGang|BuGang|Hu <tile>
    Player <i> Chi <middle tile of the chow>
    ... [Ignore Player <j> Chi|Peng|Gang|Hu <tile>]...   claims of the same discard that lost
    Fan <total> <name>*<n>+<name>*<n>...       after a Hu
    Huang                                      an exhaustive draw
    Score <s0> <s1> <s2> <s3>

Tiles are Botzone tokens (W, B = dots, T = bamboo, F, J; H1-H8 flowers). Keywords are read in
any case. Three lines extend the format for games played with flowers and for fouls; the
real dataset has none of them:

    Wall 4x36                                  after Wind: four private walls of 36 with the
                                               flowers (the Botzone judge with flowers)
    Wall 144                                   after Wind: one shared wall with flowers
    Player <i> BuHua <flower>                  a flower drawn and shown (then a Draw)
    Player <i> Invalid                         an illegal response: the game ends

game_blocks() cuts a log into blocks, one at a time, and parse_block() reads one into a
GameLog (gamelog.py) or raises LogError; reading.py's read_games() does both for a whole log of
either format. Replaying and checking a game is replay.py's work. Memory stays flat on a file of
any size: a line is read MAX_LINE characters at most (a longer one refuses the file), a block
held MAX_GAME_LINES lines at most (a longer one is a broken game, the rest of it skipped).
"""

from __future__ import annotations

import codecs
import io
import os
from functools import partial
from typing import Iterable, Iterator, TextIO

from ..bounds import MAX_GAME_LINES, MAX_LINE
from .gamelog import ACTIONS, CLAIMS, Action, GameLog, LogError, LogRefused, check_figure, open_log_bytes, read_tile
from .state import DUPLICATE, DUPLICATE_FLOWERS, HAND_SIZE, PRIVATE_WALL, SHARED, SHARED_WALL
from .tokens import TOKENS

_ACTION_BY_WORD = {a.lower(): a for a in ACTIONS}
_CLAIM_BY_WORD = {a.lower(): a for a in CLAIMS}
# The Wall line's word for each wall kind but the dataset's own (no Wall line).
_WALL_WORD = {SHARED: str(SHARED_WALL), DUPLICATE_FLOWERS: f"4x{PRIVATE_WALL[DUPLICATE_FLOWERS]}"}
_WALL_OF_WORD = {word: wall for wall, word in _WALL_WORD.items()}
# The judge writes 嵌张 for mjfast's 坎张; every other fan has the same name.
_BOTZONE_FAN_NAME = {"坎张": "嵌张"}


# Every action line of one tile without Ignore clauses as the logs spell it, and its Action:
# nearly every line of a log, read by one look-up (an Action is immutable: games share them).
_PLAIN_ACTIONS = {f"Player {player} {kind} {token}": Action(player, kind, tile)
                  for player in range(4) for kind in ACTIONS if kind != "Invalid"
                  for tile, token in enumerate(TOKENS)}
# A file is read this many bytes (or characters) at a time: few enough that a gzip stream cut
# short loses only the games of its last piece, and a line within a piece is no longer than
# MAX_LINE, so only the first one, which may have begun in the pieces before, is measured.
_CHUNK = 8192


# --- reading -----------------------------------------------------------------------------------

def numbered_lines(source, max_size: "int | None" = None) -> Iterator[tuple[int, str]]:
    """(line number, text) of each line of a log (`source` as for read_games; a path read up to
    `max_size` bytes, gamelog.open_log_bytes). A line longer than MAX_LINE in a file (a path or
    an open one) raises LogRefused."""
    if isinstance(source, (str, os.PathLike)):
        with open_log_bytes(source, max_size) as binary:
            yield from _bounded_lines(_decoded(binary), os.fspath(source))
    elif hasattr(source, "read"):
        yield from _bounded_lines(iter(partial(source.read, _CHUNK), ""), getattr(source, "name", "the log"))
    else:
        yield from enumerate(source, 1)


def _decoded(binary) -> Iterator[str]:
    """The text of a file's bytes as a text file reads it (UTF-8, any line end read as \\n), each
    piece what one read gave: the text before a fault (a gzip stream cut short) comes out first."""
    decoder = io.IncrementalNewlineDecoder(codecs.getincrementaldecoder("utf-8")(), translate=True)
    while True:
        data = binary.read1(_CHUNK)
        text = decoder.decode(data, final=not data)
        if text:
            yield text
        if not data:
            return


def _bounded_lines(pieces: Iterator[str], name: str) -> Iterator[tuple[int, str]]:
    # cut at C speed, a piece at a time (as fast as iterating a text file, which would hold a
    # line of any length whole): beyond the piece only a line not ended yet is held
    number = 0
    rest = ""
    for piece in pieces:
        lines = (rest + piece).split("\n")
        rest = lines.pop()
        if len(lines[0] if lines else rest) > MAX_LINE:
            raise LogRefused(name, f"line {number + 1} runs past {MAX_LINE} characters: not a text log", number + 1)
        yield from enumerate(lines, number + 1)
        number += len(lines)
    if rest:
        yield number + 1, rest


def game_blocks(source, max_size: "int | None" = None) -> Iterator[list[tuple[int, str]]]:
    """The (line number, stripped text) lines of each game block of a log (`source` and
    `max_size` as for read_games): from a Match line to a blank line or the next Match line.
    Lines outside any block are a block of their own (reported broken). A block is held to
    MAX_GAME_LINES + 1 lines (parse_block refuses one that long). parse_block reads one."""
    block: list[tuple[int, str]] = []
    for number, text in numbered_lines(source, max_size):
        text = text.strip()
        if not text:
            if block:
                yield block
                block = []
            continue
        if block and text[0] in "Mm" and text[:6].lower() == "match ":
            yield block
            block = []
        if len(block) <= MAX_GAME_LINES:
            block.append((number, text))
    if block:
        yield block


def parse_game(text: str, first_line: int = 1) -> GameLog:
    """The GameLog of one block of text; LogError when it does not read."""
    lines = [(first_line + i, t.strip()) for i, t in enumerate(text.splitlines()) if t.strip()]
    return parse_block(lines)


_PLAYER = {"0": 0, "1": 1, "2": 2, "3": 3}


def _player(word: str, match_id: str, line: int) -> int:
    player = _PLAYER.get(word)
    if player is None:
        raise LogError(match_id, line, f"{word!r} is not a player 0-3")
    return player


def parse_block(lines: list[tuple[int, str]]) -> GameLog:
    """The GameLog of one block given as (line number, stripped text) pairs."""
    if not lines:
        raise LogError("?", 0, "no text: a game starts with 'Match <id>'")
    first_number, first = lines[0]
    words = first.split()
    if len(words) != 2 or words[0].lower() != "match":
        raise LogError("?", first_number, f"a game starts with 'Match <id>', got {first[:60]!r}")
    match_id = words[1]
    if len(lines) > MAX_GAME_LINES:
        raise LogError(match_id, lines[MAX_GAME_LINES][0], f"the game runs past {MAX_GAME_LINES} lines (a game has "
                                                           "some hundred): a blank line or a Match line ends one")
    number, text = lines[1] if len(lines) > 1 else (first_number, "")
    words = text.split()
    if len(words) != 2 or words[0].lower() != "wind" or words[1] not in _PLAYER:
        raise LogError(match_id, number, f"expected 'Wind <0-3>', got {text[:60]!r}")
    wind = _PLAYER[words[1]]
    wall = DUPLICATE
    deals: list[tuple] = []
    actions: list[Action] = []
    action_lines: list[int] = []
    end: "tuple | None" = None  # (fan total, fans, drawn) once the result line is read
    scores = None
    plain_actions = _PLAIN_ACTIONS
    dealt = False
    for number, text in lines[2:]:
        action = plain_actions.get(text)
        if action is not None and dealt and end is None and scores is None:  # the hot path
            actions.append(action)
            action_lines.append(number)
            continue
        words = text.split()
        if scores is not None:
            raise LogError(match_id, number, f"text after the Score line: {text[:60]!r}")
        head = words[0]
        if head == "Player" or head.lower() == "player":
            if end is not None:
                raise LogError(match_id, number, "a Player line after the game's result")
            if len(words) < 3:
                raise LogError(match_id, number, f"incomplete line {text!r}")
            player = _player(words[1], match_id, number)
            word = words[2].lower()
            if word == "deal":
                if actions or len(deals) != player:
                    raise LogError(match_id, number, f"player {player}'s deal is out of order")
                tiles = tuple(read_tile(w, match_id, number) for w in words[3:])
                if len(tiles) < HAND_SIZE:
                    raise LogError(match_id, number, f"a deal has {HAND_SIZE} tiles, this one {len(tiles)}")
                deals.append(tiles)
                dealt = len(deals) == 4
                continue
            kind = _ACTION_BY_WORD.get(word)
            if kind is None:
                raise LogError(match_id, number, f"unknown action {words[2]!r}")
            if len(deals) != 4:
                raise LogError(match_id, number, f"{kind} before all four deals")
            actions.append(_parse_action(player, kind, words, match_id, number))
            action_lines.append(number)
            continue
        head = head.lower()
        if head == "score":
            try:
                scores = tuple(int(w) for w in words[1:])
            except ValueError:
                scores = ()
            if len(scores) != 4:
                raise LogError(match_id, number, f"expected 'Score <s0> <s1> <s2> <s3>', got {text[:60]!r}")
            for score in scores:
                check_figure(score, "a score", match_id, number)
        elif end is not None:
            raise LogError(match_id, number, f"a second result line {text[:60]!r}")
        elif head == "fan":
            if len(words) < 2 or not words[1].isdigit():
                raise LogError(match_id, number, f"expected 'Fan <total> <name>*<n>+...', got {text[:60]!r}")
            end = (check_figure(int(words[1]), "the fan total", match_id, number),
                   _parse_fans(words[2:], match_id, number), False)
        elif head == "huang" and len(words) == 1:
            end = (None, (), True)
        elif head == "wall" and len(words) == 2 and words[1] in _WALL_OF_WORD and not deals:
            wall = _WALL_OF_WORD[words[1]]
        else:
            raise LogError(match_id, number, f"unknown line {text[:60]!r}")
    if scores is None:
        raise LogError(match_id, lines[-1][0], "the game has no Score line")
    fan_total, fans, drawn = end if end is not None else (None, (), False)
    return GameLog(match_id, wind, tuple(deals), tuple(actions), fan_total, fans, drawn, scores, wall,
                   first_number, tuple(action_lines))


def _parse_action(player: int, kind: str, words: list[str], match_id: str, number: int) -> Action:
    if kind == "Invalid":
        if len(words) != 3:
            raise LogError(match_id, number, "an Invalid line names only the player")
        return Action(player, kind, None)
    if len(words) < 4:
        raise LogError(match_id, number, f"{kind} needs a tile")
    tile = read_tile(words[3], match_id, number)
    ignored = ()
    if len(words) > 4:
        ignored = _parse_ignored(words[4:], match_id, number)
        if kind not in CLAIMS:
            raise LogError(match_id, number, f"Ignore clauses follow a claim, not a {kind}")
    return Action(player, kind, tile, ignored)


def _parse_ignored(words: list[str], match_id: str, number: int) -> tuple:
    if len(words) % 5:
        raise LogError(match_id, number, "an Ignore clause is 'Ignore Player <j> <claim> <tile>'")
    found = []
    for i in range(0, len(words), 5):
        ignore, player_word, who, claim, tile = words[i:i + 5]
        kind = _CLAIM_BY_WORD.get(claim.lower())
        if ignore.lower() != "ignore" or player_word.lower() != "player" or kind is None:
            raise LogError(match_id, number, f"malformed Ignore clause {' '.join(words[i:i + 5])!r}")
        found.append((_player(who, match_id, number), kind, read_tile(tile, match_id, number)))
    return tuple(found)


def _parse_fans(words: list[str], match_id: str, number: int) -> tuple:
    fans = []
    for part in "".join(words).split("+") if words else ():
        name, star, count = part.rpartition("*")
        if not star or not name or not count.isdigit():
            raise LogError(match_id, number, f"a fan is written <name>*<count>, got {part!r}")
        fans.append((name, int(count)))
    return tuple(fans)


# --- writing -----------------------------------------------------------------------------------

def botzone_fans(result) -> tuple:
    """(Chinese name as the judge writes it, count) of a FanResult's fans, in fan table order."""
    return tuple((_BOTZONE_FAN_NAME.get(f.name_cn, f.name_cn), f.count)
                 for f in sorted(result.fans, key=lambda f: f.id))


def _action_line(a: Action) -> str:
    if a.kind == "Invalid":
        return f"Player {a.player} Invalid"
    line = f"Player {a.player} {a.kind} {TOKENS[a.tile]}"
    for who, claim, tile in a.ignored:
        line += f" Ignore Player {who} {claim} {TOKENS[tile]}"
    return line


def format_game(game: GameLog) -> str:
    """The block of text of one game (no trailing blank line)."""
    lines = [f"Match {game.match_id}", f"Wind {game.prevalent_wind}"]
    if game.wall in _WALL_WORD:
        lines.append(f"Wall {_WALL_WORD[game.wall]}")
    lines += [f"Player {p} Deal " + " ".join(TOKENS[t] for t in tiles) for p, tiles in enumerate(game.deals)]
    lines += [_action_line(a) for a in game.actions]
    if game.fan_total is not None:
        lines.append(f"Fan {game.fan_total} " + "+".join(f"{name}*{count}" for name, count in game.fans))
    if game.drawn:
        lines.append("Huang")
    lines.append("Score " + " ".join(str(s) for s in game.scores))
    return "\n".join(lines)


def write_games(games: Iterable[GameLog], out: TextIO) -> int:
    """Write games as blocks separated by blank lines; returns how many were written."""
    n = 0
    for game in games:
        if n:
            out.write("\n")
        out.write(format_game(game))
        out.write("\n")
        n += 1
    return n
