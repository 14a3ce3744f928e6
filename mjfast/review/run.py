"""A review run: log files in; a page and a JSON file per game, and summary.json, out.

Files and folders are read as `mjfast replay` and `mjfast logs` read them (any format, plain
or gzip); a game is reviewed for the seats asked (a seat, or the seats a named player plays),
on every core, a few games in flight a worker, so memory stays flat however many games are
read.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from ..game.gamelog import BrokenGame, LogError
from ..game.reading import read_games
from ..logs.sources import LogsError, check_ruleset, log_files
from .decisions import review_game
from .page import render_page
from .summary import Summary

SUMMARY_SCHEMA = "mjfast-review-summary/1"


def seats_of(game, player: "int | None" = None, bot: "str | None" = None) -> tuple:
    """The seats to review in `game`: `player`, the seats `bot` plays (by the players' names of a
    Botzone JSON log or a Tziakcha record), or all four."""
    if player is not None:
        return (player,)
    if bot is not None:
        return tuple(p for p in range(4) if game.names[p] == bot)
    return (0, 1, 2, 3)


def player_name(game, seat: int) -> str:
    """Whose figures a seat's decisions count toward: the player's name when the log has it."""
    return game.names[seat] or f"seat {seat}"


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


def review_game_of(item, value: bool) -> tuple:
    """A worker's part: (item, its review) for an item (path, game, seats) of review_logs, the
    review being the dict of review_game, the BrokenGame of a game that does not read or breaks
    a rule, or None for a game without the player (no seats)."""
    path, game, seats = item
    if isinstance(game, BrokenGame) or not seats:
        return item, game if isinstance(game, BrokenGame) else None
    try:
        return item, review_game(game, seats, str(path), value)
    except LogError as exc:
        return item, BrokenGame(exc.match_id, exc.line, exc.reason)


def _reviews(files, player, bot, ruleset, value: bool, workers: "int | None"):
    """review_game_of every game read, in order: on `workers` local processes (default: every
    core; 1: in this process), a few games in flight each; what needs no review (a game that
    does not read, or is without the player) is answered here."""
    from ..logs.execute import CHUNKS_IN_FLIGHT_PER_WORKER, done, in_order, local_cores, spawned_pool

    def items():
        for path in files:
            for game in read_games(path):
                if isinstance(game, BrokenGame):
                    yield path, game, ()
                else:
                    yield path, game.scored_under(ruleset), seats_of(game, player, bot)

    workers = local_cores() if workers is None else workers
    if workers == 1:
        yield from (review_game_of(item, value) for item in items())
        return
    pool = spawned_pool(workers)

    def submit(item):
        path, game, seats = item
        if isinstance(game, BrokenGame) or not seats:
            return done(review_game_of(item, value))
        return pool.submit(review_game_of, item, value)

    try:
        yield from in_order(submit, items(), CHUNKS_IN_FLIGHT_PER_WORKER * workers,
                            lambda item: f"{item[0]}, match {item[1].match_id}")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def review_logs(paths, out, *, player: "int | None" = None, bot: "str | None" = None, value: bool = True,
                ruleset: "str | None" = None, workers: "int | None" = None) -> dict:
    """Review every game of the logs at `paths` for `player` (a seat 0-3) or `bot` (a player's
    name), or for every seat, discards ranked fan-aware or with `value` by value (see
    review_game), under each log's server's rules or the preset `ruleset`, on `workers` local
    processes (default: every core): OUT/<match id>.html and .json per game, OUT/summary.json
    over all of them (returned). LogsError for bad input."""
    if player is not None and bot is not None:
        raise LogsError("review a seat (--player) or a bot (--bot), not both")
    if player is not None and player not in (0, 1, 2, 3):
        raise LogsError(f"--player is a seat 0-3, got {player}")
    if workers is not None and workers < 1:
        raise LogsError(f"--workers must be 1 or more, got {workers}")
    files = log_files(paths)
    check_ruleset(ruleset)
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise LogsError(f"--out {folder} is a file, not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    players: dict = {}
    games, rejected, used = [], [], Counter()
    read = skipped = 0
    for (path, game, seats), review in _reviews(files, player, bot, ruleset, value, workers):
        read += 1
        if isinstance(review, BrokenGame):
            rejected.append({"file": str(path), "match_id": review.match_id, "line": review.line,
                             "reason": review.reason})
            continue
        if review is None:  # a game without the player
            skipped += 1
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
