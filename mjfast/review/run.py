"""A review run: log files in; a page and a JSON file per game, and summary.json, out.

Files and folders are read as `mjfast replay` and `mjfast logs` read them (either format,
plain or gzip); a game is reviewed for the seats asked (a seat, or the seats a named bot
plays), one game at a time, so memory stays flat however many games are read.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from ..game.gamelog import BrokenGame, LogError
from ..game.reading import read_games
from ..logs.sources import LogsError, log_files
from .decisions import review_game
from .page import render_page
from .summary import Summary

SUMMARY_SCHEMA = "mjfast-review-summary/1"


def seats_of(game, player: "int | None" = None, bot: "str | None" = None) -> tuple:
    """The seats to review in `game`: `player`, the seats bot `bot` plays (by the names of a
    Botzone JSON log), or all four."""
    if player is not None:
        return (player,)
    if bot is not None:
        names = game.judge.names if game.judge is not None else ("",) * 4
        return tuple(p for p in range(4) if names[p] == bot)
    return (0, 1, 2, 3)


def player_name(game, seat: int) -> str:
    """Whose figures a seat's decisions count toward: the bot's name when the log has it."""
    name = game.judge.names[seat] if game.judge is not None else ""
    return name or f"seat {seat}"


def game_summaries(game, review: dict, seats) -> dict:
    """The figures of one game's review for the seats reviewed, {player name: Summary} (a bot
    that plays two seats counts both)."""
    found: dict = {}
    for seat in seats:
        name = player_name(game, seat)
        found.setdefault(name, Summary(name)).add_game(review, seat)
    return found


def _file_name(match_id: str, used: Counter) -> str:
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", match_id) or "game"
    used[stem] += 1
    return stem if used[stem] == 1 else f"{stem}-{used[stem]}"


def review_logs(paths, out, *, player: "int | None" = None, bot: "str | None" = None, value: bool = True) -> dict:
    """Review every game of the logs at `paths` for `player` (a seat 0-3) or `bot` (a bot's
    name), or for every seat, discards ranked fan-aware or with `value` by value (see
    review_game): OUT/<match id>.html and .json per game, OUT/summary.json over all of them
    (returned). LogsError for bad input."""
    if player is not None and bot is not None:
        raise LogsError("review a seat (--player) or a bot (--bot), not both")
    if player is not None and player not in (0, 1, 2, 3):
        raise LogsError(f"--player is a seat 0-3, got {player}")
    files = log_files(paths)
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise LogsError(f"--out {folder} is a file, not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    players: dict = {}
    games, rejected, used = [], [], Counter()
    read = skipped = 0
    for path in files:
        for game in read_games(path):
            read += 1
            if isinstance(game, BrokenGame):
                rejected.append({"file": str(path), "match_id": game.match_id, "line": game.line,
                                 "reason": game.reason})
                continue
            seats = seats_of(game, player, bot)
            if not seats:
                skipped += 1
                continue
            try:
                review = review_game(game, seats, str(path), value)
            except LogError as exc:
                rejected.append({"file": str(path), "match_id": exc.match_id, "line": exc.line, "reason": exc.reason})
                continue
            for seat in seats:
                name = player_name(game, seat)
                players.setdefault(name, Summary(name)).add_game(review, seat)
            review["summary"] = {name: s.to_dict() for name, s in game_summaries(game, review, seats).items()}
            stem = _file_name(game.match_id, used)
            (folder / f"{stem}.json").write_text(json.dumps(review, ensure_ascii=False) + "\n", encoding="utf-8")
            (folder / f"{stem}.html").write_text(render_page(review, review["summary"]), encoding="utf-8")
            games.append({"match_id": game.match_id, "file": str(path), "page": f"{stem}.html", "data": f"{stem}.json",
                          "reviewed": list(seats), "decisions": len(review["decisions"])})
    summary = {"schema": SUMMARY_SCHEMA, "games_read": read, "games_reviewed": len(games),
               "games_rejected": len(rejected), "games_without_the_player": skipped, "rejected": rejected,
               "games": games, "players": {name: s.to_dict() for name, s in players.items()}}
    (folder / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return summary
