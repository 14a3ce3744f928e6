"""A review run: log files in; a page and a JSON file per game, and summary.json, out.

Files and folders are read as `mjfast replay` and `mjfast logs` read them (any format, plain
or gzip; a file that cannot be read is named in the summary and the rest goes on); a game is
reviewed for the seats asked (a seat, or the seats a named player plays), on every core, a few
games in flight a worker, so memory stays flat however many games are read. What each game
came to is kept as it is done (logs.resume.Progress): the run killed at any point and started
again with the same arguments reviews only the games it had not finished, and every file is
written whole.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from pathlib import Path

from ..game.gamelog import BrokenGame, LogError
from ..game.reading import read_games
from ..logs.resume import Progress, fingerprint, write_atomically
from ..logs.sources import UNREADABLE, LogsError, check_ruleset, log_files, unreadable
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


def review_game_of(item, value: bool, threads: int = 1) -> tuple:
    """A worker's part: (item, ("new", its review)) for an item (unit, path, game, seats) of
    review_logs, the review being the dict of review_game, the BrokenGame of a game that does
    not read or breaks a rule, or None for a game without the player (no seats). A game's
    queries run on `threads` threads: one where the games themselves run a process a core."""
    _, path, game, seats = item
    if isinstance(game, BrokenGame) or not seats:
        return item, ("new", game if isinstance(game, BrokenGame) else None)
    try:
        return item, ("new", review_game(game, seats, str(path), value, threads=threads))
    except LogError as exc:
        return item, ("new", BrokenGame(exc.match_id, exc.line, exc.reason))


def _games(files, player, bot, ruleset, bad_files: list, max_size: "int | None"):
    """(unit, path, game, seats) of every game read, in order (`unit`: the game's name in the
    run's progress), each file up to `max_size` bytes (read_games); a file that cannot be read
    past some game goes into bad_files, and the reading goes on with the next."""
    read = 0
    for path in files:
        in_file = 0
        try:
            for game in read_games(path, max_size):
                unit = f"game-{read:07d}.json"
                read, in_file = read + 1, in_file + 1
                if isinstance(game, BrokenGame):
                    yield unit, path, game, ()
                else:
                    yield unit, path, game.scored_under(ruleset), seats_of(game, player, bot)
        except UNREADABLE as exc:
            bad_files.append({"file": str(path), "reason": unreadable(path, exc, in_file)})


def _reviews(items, value: bool, workers: "int | None", done: Progress):
    """(item, ("kept", what an earlier run kept of the game) or ("new", review_game_of's
    review)) of every item, in order: on `workers` local processes (default: every core; 1: in
    this process), a few games in flight each; a lone game in this process, its queries on
    `workers` threads (a process a core would leave all but one idle, after spawning it); what
    needs no review (a game kept, or that does not read, or is without the player) is answered
    here."""
    from ..logs.execute import CHUNKS_IN_FLIGHT_PER_WORKER, in_order, local_cores, spawned_pool
    from ..logs.execute import done as finished

    workers = local_cores() if workers is None else workers
    items = iter(items)
    first = list(itertools.islice(items, 2))
    lone = len(first) < 2  # one game at most: reviewed here, its queries on every core's thread
    pool = spawned_pool(workers) if workers > 1 and not lone else None
    threads = workers if lone else 1

    def submit(item):
        unit, _, game, seats = item
        kept = done.done(unit)
        if kept is not None:
            return finished((item, ("kept", json.loads(kept))))
        if pool is None or isinstance(game, BrokenGame) or not seats:
            return finished(review_game_of(item, value, threads))
        return pool.submit(review_game_of, item, value)

    try:
        yield from in_order(submit, itertools.chain(first, items),
                            1 if pool is None else CHUNKS_IN_FLIGHT_PER_WORKER * workers,
                            lambda item: f"{item[1]}, match {item[2].match_id}")
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _outcome(game, review, file: str, seats, folder: Path, used: Counter) -> dict:
    """What a game came to, as kept: {"rejected": ...} for a BrokenGame, {} for a game without
    the player (review None), else {"reviewed": the summary's entry}, its page and data written
    whole into `folder` (the review gains its per-player summary)."""
    if isinstance(review, BrokenGame):
        return {"rejected": {"file": file, "match_id": review.match_id, "line": review.line, "reason": review.reason}}
    if review is None:
        return {}
    review["summary"] = {name: s.to_dict() for name, s in game_summaries(game, review, seats).items()}
    stem = _file_name(game.match_id, used)
    write_atomically(folder / f"{stem}.json", json.dumps(review, ensure_ascii=False) + "\n")
    write_atomically(folder / f"{stem}.html", render_page(review, review["summary"]))
    return {"reviewed": {"match_id": game.match_id, "file": file, "page": f"{stem}.html", "data": f"{stem}.json",
                         "reviewed": list(seats), "decisions": len(review["decisions"])}}


def review_logs(paths, out, *, player: "int | None" = None, bot: "str | None" = None, value: bool = True,
                ruleset: "str | None" = None, workers: "int | None" = None,
                max_log_size: "int | None" = None) -> dict:
    """Review every game of the logs at `paths` for `player` (a seat 0-3) or `bot` (a player's
    name), or for every seat, discards ranked fan-aware or with `value` by value (see
    review_game), under each log's server's rules or the preset `ruleset`, on `workers` local
    processes (default: every core), each file read up to `max_log_size` bytes once
    decompressed (mjfast.game.read_games; a file past it is named in the summary's unreadable
    files): OUT/<match id>.html and .json per game, OUT/summary.json over all of them
    (returned). LogsError for bad input."""
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
    from .. import __version__

    done = Progress(folder, {"command": "mjfast review", "mjfast": __version__, "files": fingerprint(files),
                             "player": player, "bot": bot, "value": value, "ruleset": ruleset,
                             "max_log_size": max_log_size}, "game")
    players: dict = {}
    games: list = []
    rejected: list = []
    bad_files: list = []
    used: Counter = Counter()
    read = skipped = 0
    for (unit, path, game, seats), (how, got) in _reviews(_games(files, player, bot, ruleset, bad_files,
                                                                 max_log_size), value, workers, done):
        read += 1
        if how == "kept":  # finished by an earlier run: its page and data are in place
            outcome, review = got, None
            if "reviewed" in outcome:
                _file_name(game.match_id, used)
                review = json.loads((folder / outcome["reviewed"]["data"]).read_text(encoding="utf-8"))
        else:
            outcome, review = _outcome(game, got, str(path), seats, folder, used), got
            done.keep(unit, json.dumps(outcome, ensure_ascii=False).encode("utf-8"))
        if "rejected" in outcome:
            rejected.append(outcome["rejected"])
        elif "reviewed" in outcome:
            for seat in outcome["reviewed"]["reviewed"]:
                name = player_name(game, seat)
                players.setdefault(name, Summary(name)).add_game(review, seat)
            games.append(outcome["reviewed"])
        else:
            skipped += 1
    summary = {"schema": SUMMARY_SCHEMA, "games_read": read, "games_reviewed": len(games),
               "games_rejected": len(rejected), "games_without_the_player": skipped, "rejected": rejected,
               "unreadable_files": bad_files, "games": games,
               "players": {name: s.to_dict() for name, s in players.items()}}
    write_atomically(folder / "summary.json", json.dumps(summary, indent=1, ensure_ascii=False) + "\n")
    done.finish()
    return summary
