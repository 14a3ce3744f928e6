"""The unit of work: one chunk of games in, their decision and game rows out.

The same function runs inline, in a local worker process or on a Dask worker, and its
result depends on the chunk alone: the order of the results, not where they were computed,
decides the output, so every way of running gives the same files. A result is kept between
runs as bytes (ChunkResult.to_bytes), so that a run killed half way resumes (resume.py).
"""

from __future__ import annotations

import io
import json
import threading
from typing import NamedTuple

import numpy as np

from ..game.gamelog import LogError
from ..game.logformat import parse_block
from .columns import DECISION_CELLS, GAME_CELLS
from .sources import Chunk


class Rejected(NamedTuple):
    """A game that could not be read or broke a rule: where and why."""

    game: int
    file: str
    match_id: str
    line: int
    reason: str


class JudgeMismatch(NamedTuple):
    """A figure of the Botzone judge's (tileCnt, canHu) that mjfast does not reproduce."""

    game: int
    file: str
    match_id: str
    line: int
    what: str


class ChunkResult(NamedTuple):
    """decisions, games: int32 rows laid out as columns.DECISION_CELLS / GAME_CELLS; match_ids,
    fans and names (the four bots' names, "" unknown): one each per analysed game, in the
    order of `games`; judge_mismatches: the JudgeMismatches of the analysed games; number and
    unreadable: the chunk's (sources.Chunk)."""

    file: str
    games_read: int
    decisions: np.ndarray
    games: np.ndarray
    match_ids: list
    fans: list
    names: list
    rejected: list
    judge_mismatches: list
    number: int = 0
    unreadable: str = ""

    def to_bytes(self) -> bytes:
        """The result as a compressed .npz: the two tables, and the rest as JSON."""
        rest = {key: value for key, value in self._asdict().items() if key not in ("decisions", "games")}
        rest["names"] = [list(four) for four in self.names]
        buffer = io.BytesIO()
        np.savez_compressed(buffer, decisions=self.decisions, games=self.games,
                            rest=np.array(json.dumps(rest, ensure_ascii=False)))
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> "ChunkResult":
        with np.load(io.BytesIO(data), allow_pickle=False) as found:
            rest = json.loads(str(found["rest"]))
            decisions, games = found["decisions"], found["games"]
        rest["names"] = [tuple(four) for four in rest["names"]]
        rest["rejected"] = [Rejected(*r) for r in rest["rejected"]]
        rest["judge_mismatches"] = [JudgeMismatch(*m) for m in rest["judge_mismatches"]]
        return cls(decisions=decisions, games=games, **rest)


_local = threading.local()  # an analyser per thread: Dask runs tasks on threads


def _analyser(fan_aware: bool, value: bool):
    from .analysis import GameAnalyser

    if not hasattr(_local, "analysers"):
        _local.analysers = {}
    analysers = _local.analysers
    if (fan_aware, value) not in analysers:
        analysers[fan_aware, value] = GameAnalyser(fan_aware, value)
    return analysers[fan_aware, value]


def analyse_chunk(chunk: Chunk, fan_aware: bool = True, value: bool = False, ruleset=None) -> ChunkResult:
    """Parse, replay and analyse every game of the chunk (its wins scored under `ruleset`, a
    preset's name, when given, else under its log's server's rules); a game that does not read
    or breaks a rule is rejected with its match id, line and reason, and the rest goes on."""
    if not chunk.blocks:  # a file unreadable or refused before its first game: no analysis to load
        return ChunkResult(chunk.file, 0, np.zeros((0, len(DECISION_CELLS)), np.int32),
                           np.zeros((0, len(GAME_CELLS)), np.int32), [], [], [], [], [], chunk.number, chunk.unreadable)
    analyser = _analyser(fan_aware, value)
    rejected = []
    for index, block in enumerate(chunk.blocks, chunk.first):
        try:
            # a text block is its lines; a JSON log's game (reading.json_blocks) parses itself
            game = block.parse() if hasattr(block, "parse") else parse_block(block)
            analyser.analyse(game.scored_under(ruleset), index)
        except LogError as exc:
            rejected.append(Rejected(index, chunk.file, exc.match_id, exc.line, exc.reason))
    decisions, games, match_ids, fans = analyser.take()
    names, mismatches = analyser.take_botzone()
    return ChunkResult(chunk.file, len(chunk.blocks), decisions, games, match_ids, fans, names, rejected,
                       [JudgeMismatch(game, chunk.file, match_id, line, what)
                        for game, match_id, line, what in mismatches], chunk.number, chunk.unreadable)
