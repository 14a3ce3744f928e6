"""A whole run: files in, chunks analysed where asked, tables, summary and report out. Each chunk's
result is kept as it comes (resume.Progress), so that the run killed at any point and started
again with the same arguments analyses only the chunks it had not finished."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

from .resume import Progress, fingerprint, write_atomically
from .sources import GAMES_PER_CHUNK, LogsError, check_ruleset, chunks, count_games, log_files

# What the `logs` extra brings, by import name.
_EXTRA_MODULES = ("pyarrow", "matplotlib", "tqdm")


def _check_extras() -> None:
    missing: list = []
    broken: list = []
    for name in _EXTRA_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            (missing if exc.name == name else broken).append((name, exc))
        except ImportError as exc:  # installed but not for this environment: a pyarrow for NumPy 2 under NumPy 1
            broken.append((name, exc))
    if missing:
        raise LogsError(f"the log analysis needs the extra 'logs': pip install 'mjfast[logs]' "
                        f"(missing: {', '.join(name for name, _ in missing)})")
    if broken:
        raise LogsError("the log analysis needs the extra 'logs', installed here but not importable: "
                        + "; ".join(f"{name}: {exc}" for name, exc in broken))


def _out_folder(out) -> Path:
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise LogsError(f"--out {folder} is a file, not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def analyse_logs(paths, out, *, workers: "int | None" = None, dask: "str | None" = None, fan_aware: bool = True,
                 progress: "bool | None" = None, games_per_chunk: int = GAMES_PER_CHUNK, value: bool = False,
                 ruleset: "str | None" = None, max_log_size: "int | None" = None) -> dict:
    """Analyse every game of the logs at `paths` (files or folders, plain or gzip) into the
    folder `out`: decisions.parquet/.csv, games.parquet/.csv, summary.json, report.md and its
    plots; with `value`, every discard is also ranked by the value ranking (mjfast.best_discards'
    default: milliseconds a discard, against microseconds for the rest). Runs on `workers` local
    processes (default: every core) or on the Dask scheduler
    at address `dask`, `games_per_chunk` games per task. `progress`: a progress bar on stderr
    (default: when it is a terminal). `ruleset`: a preset's name (mjfast.fan.RULESETS) to score
    the wins and rank the discards under, instead of each log's server's rules. `max_log_size`:
    the most a file may hold once decompressed (mjfast.game.read_games; a file past it is
    named in the summary's unreadable files, the rest goes on). Returns the
    summary (as written to summary.json). A run of the same arguments that was killed is
    resumed: its chunks done are not analysed again. Raises LogsError for bad input."""
    if dask is not None and workers is not None:
        raise LogsError("--workers is for a local run: a Dask cluster brings its own workers")
    if workers is not None and workers < 1:
        raise LogsError(f"--workers must be 1 or more, got {workers}")
    files = log_files(paths)
    check_ruleset(ruleset)
    _check_extras()
    from tqdm import tqdm

    from .. import __version__
    from .execute import analysed
    from .output import DECISION_SCHEMA, GAME_SCHEMA, TableFiles, decision_table, game_table
    from .report import write_report
    from .summary import Summary
    from .work import ChunkResult

    folder = _out_folder(out)
    show = sys.stderr.isatty() if progress is None else progress
    summary = Summary(fan_aware, value)
    from_disk: set = set()

    def kept(chunk) -> "ChunkResult | None":  # called once the results are asked for: `done` is set
        data = done.done(_part(chunk.number))
        if data is None:
            return None
        from_disk.add(chunk.number)
        return ChunkResult.from_bytes(data)

    with analysed(chunks(files, games_per_chunk, max_log_size), fan_aware, workers, dask, value, ruleset,
                  kept) as results, \
            tqdm(total=count_games(files, max_log_size) if show else None, unit="game", disable=not show) as bar:
        # a Dask scheduler is reached before any file is written
        done = Progress(folder, {"command": "mjfast logs", "mjfast": __version__, "files": fingerprint(files),
                                 "fan_aware": fan_aware, "value": value, "ruleset": ruleset,
                                 "games_per_chunk": games_per_chunk, "max_log_size": max_log_size}, "chunk")
        with TableFiles(folder, "decisions", DECISION_SCHEMA) as decisions, \
                TableFiles(folder, "games", GAME_SCHEMA) as games:
            for result in results:
                if result.number not in from_disk:
                    done.keep(_part(result.number), result.to_bytes())
                decisions.add(decision_table(result))
                games.add(game_table(result))
                summary.add(result)
                bar.update(result.games_read)
    figures = summary.to_dict()
    write_atomically(folder / "summary.json", json.dumps(figures, indent=1, ensure_ascii=False) + "\n")
    write_report(figures, folder, files)
    done.finish()
    return figures


def _part(number: int) -> str:
    return f"chunk-{number:07d}.npz"

