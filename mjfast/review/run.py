"""A review run: log files in; a page and a JSON file per game, and summary.json, out.

Files and folders are read as `mjfast replay` and `mjfast logs` read them (either format,
plain or gzip; a file that cannot be read is named in the summary and the rest goes on); a
game is reviewed for the seats asked (a seat, or the seats a named bot plays), one game at a
time, so memory stays flat however many games are read. What each game came to is kept as it
is done (logs.resume.Progress): the run killed at any point and started again with the same
arguments reviews only the games it had not finished, and every file is written whole.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from ..game.gamelog import BrokenGame, LogError
from ..game.reading import read_games
from ..logs.resume import Progress, fingerprint, write_atomically
from ..logs.sources import UNREADABLE, LogsError, log_files, unreadable
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


def _review(game, file: str, player, bot, value: bool, folder: Path, used: Counter) -> tuple[dict, "dict | None"]:
    """Review one game (a GameLog or a BrokenGame) for seats_of(game, player, bot), its page and
    data written into `folder`: what it came to, as kept ({"rejected": ...}, {"reviewed": the
    summary's entry}, or {} for a game without the player), and the review (None unless
    reviewed)."""
    if isinstance(game, BrokenGame):
        return {"rejected": {"file": file, "match_id": game.match_id, "line": game.line, "reason": game.reason}}, None
    seats = seats_of(game, player, bot)
    if not seats:
        return {}, None
    try:
        review = review_game(game, seats, file, value)
    except LogError as exc:
        return {"rejected": {"file": file, "match_id": exc.match_id, "line": exc.line, "reason": exc.reason}}, None
    review["summary"] = {name: s.to_dict() for name, s in game_summaries(game, review, seats).items()}
    stem = _file_name(game.match_id, used)
    write_atomically(folder / f"{stem}.json", json.dumps(review, ensure_ascii=False) + "\n")
    write_atomically(folder / f"{stem}.html", render_page(review, review["summary"]))
    return {"reviewed": {"match_id": game.match_id, "file": file, "page": f"{stem}.html", "data": f"{stem}.json",
                         "reviewed": list(seats), "decisions": len(review["decisions"])}}, review


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
    from .. import __version__

    done = Progress(folder, {"command": "mjfast review", "mjfast": __version__, "files": fingerprint(files),
                             "player": player, "bot": bot, "value": value}, "game")
    players: dict = {}
    games, rejected, bad_files, used = [], [], [], Counter()
    read = skipped = 0
    for path in files:
        in_file = 0
        try:
            for game in read_games(path):
                unit = f"game-{read:07d}.json"
                read += 1
                in_file += 1
                kept = done.done(unit)
                if kept is None:
                    outcome, review = _review(game, str(path), player, bot, value, folder, used)
                    done.keep(unit, json.dumps(outcome, ensure_ascii=False).encode("utf-8"))
                else:  # reviewed by an earlier run: its page and data are in place
                    outcome, review = json.loads(kept), None
                    if "reviewed" in outcome:
                        _file_name(game.match_id, used)
                        review = json.loads((folder / outcome["reviewed"]["data"]).read_text(encoding="utf-8"))
                if "rejected" in outcome:
                    rejected.append(outcome["rejected"])
                elif "reviewed" in outcome:
                    for seat in outcome["reviewed"]["reviewed"]:
                        name = player_name(game, seat)
                        players.setdefault(name, Summary(name)).add_game(review, seat)
                    games.append(outcome["reviewed"])
                else:
                    skipped += 1
        except UNREADABLE as exc:
            bad_files.append({"file": str(path), "reason": unreadable(path, exc, in_file)})
    summary = {"schema": SUMMARY_SCHEMA, "games_read": read, "games_reviewed": len(games),
               "games_rejected": len(rejected), "games_without_the_player": skipped, "rejected": rejected,
               "unreadable_files": bad_files, "games": games,
               "players": {name: s.to_dict() for name, s in players.items()}}
    write_atomically(folder / "summary.json", json.dumps(summary, indent=1, ensure_ascii=False) + "\n")
    done.finish()
    return summary
