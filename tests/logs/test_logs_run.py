"""A whole `mjfast logs` run: files in, tables, summary and report out; broken games reported
while the rest goes on; the same files whether one process, local workers or a Dask cluster
ran it; clear errors for bad input; streaming with a bounded number of chunks in flight."""

from __future__ import annotations

import gzip
import json

import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
import pytest

from mjfast import cli
from mjfast.logs import LogsError, analyse_logs, execute, output
from mjfast.logs import run as run_module
from mjfast.logs.columns import DECISION_COLUMNS, GAME_COLUMNS
from mjfast.logs.sources import Chunk

from ..data import LOGS

REAL = LOGS / "botzone_mahjong_gb_16matches.txt"
OUTPUTS = ("decisions.parquet", "decisions.csv", "games.parquet", "games.csv", "summary.json", "report.md",
           "efficiency_by_turn.png", "agreement_by_player.png", "win_fans.png")


@pytest.fixture(scope="module")
def full_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("full")
    return analyse_logs([REAL], out, workers=1), out


@pytest.fixture(scope="module")
def plain_run(tmp_path_factory):
    """The reference for the other ways of running: one process, small chunks."""
    out = tmp_path_factory.mktemp("plain")
    return analyse_logs([REAL], out, workers=1, fan_aware=False, games_per_chunk=3), out


def test_the_real_matches_give_every_file_and_figure(full_run):
    summary, out = full_run
    assert all((out / name).is_file() for name in OUTPUTS)
    assert json.loads((out / "summary.json").read_text(encoding="utf-8")) == summary
    assert (summary["games_read"], summary["games_analysed"], summary["games_rejected"]) == (16, 16, 0)
    assert (summary["wins"], summary["exhaustive_draws"], summary["fouls"]) == (14, 2, 0)
    assert (summary["fan_lines"], summary["fan_lines_matched"], summary["score_lines_matched"]) == (14, 14, 16)
    decisions = pq.read_table(out / "decisions.parquet")
    assert decisions.column_names == [c.name for c in DECISION_COLUMNS]
    assert decisions.num_rows == summary["decisions"] == summary["discard_decisions"] + summary["claim_opportunities"]
    assert pa_csv.read_csv(out / "decisions.csv").num_rows == decisions.num_rows
    assert summary["discard_decisions"] == 786 == decisions.column("kind").to_pylist().count("discard")
    games = pq.read_table(out / "games.parquet")
    assert games.column_names == [c.name for c in GAME_COLUMNS] and games.num_rows == 16
    assert games.column("match_id").to_pylist()[0] == "61602cb45ddc087351c04358"
    # the first discard of the file: player 0 plays T6 (6s) at line 8
    first = decisions.slice(0, 1).to_pylist()[0]
    assert (first["match_id"], first["line"], first["player"], first["turn"], first["tile"], first["action"]) == (
        "61602cb45ddc087351c04358", 8, 0, 1, "6s", "play")
    players = summary["players"]
    assert sum(p["discards"] for p in players.values()) == 786
    assert sum(p["wins"] for p in players.values()) == 14
    assert all(0 <= p["plain_agreement"] <= 1 and 0 <= p["fan_aware_agreement"] <= 1 for p in players.values())
    assert sum(t["discards"] for t in summary["by_turn"]) == 786
    assert sum(summary["win_fans"].values()) == 14
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "16 games read" in report and "match 14 of 14 Fan lines" in report
    assert all(f"]({name})" in report for name in OUTPUTS if name.endswith(".png"))
    assert all((out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for name in OUTPUTS if name.endswith(".png"))


def _lines(path):
    return path.read_text(encoding="utf-8").split("\n")


def test_broken_games_are_rejected_with_where_and_why_and_the_rest_goes_on(tmp_path):
    logs = tmp_path / "logs"
    (logs / "more").mkdir(parents=True)
    with gzip.open(logs / "more" / "real.txt.gz", "wt", encoding="utf-8") as f:
        f.write(REAL.read_text(encoding="utf-8").lower())  # keywords and tiles are read in any case
    lines = _lines(REAL)
    lines[29] = "Player 3 Play W9"  # match 1, line 30: player 3 has no W9
    lines.insert(106, "this line is no game at all")  # between match 1's end and match 2
    (logs / "broken.log").write_text("\n".join(lines), encoding="utf-8")
    (logs / "README.md").write_text("not a log: a folder is read for .txt, .log and their .gz\n")
    summary = analyse_logs([logs], tmp_path / "out", workers=1, fan_aware=False, games_per_chunk=5)
    assert summary["games_read"] == 33 == summary["games_analysed"] + summary["games_rejected"]
    assert summary["games_rejected"] == 2
    broken, stray = summary["rejected"]
    assert (broken["file"], broken["match_id"], broken["line"], broken["game"]) == (
        str(logs / "broken.log"), "61602cb45ddc087351c04358", 30, 0)
    assert "W9" in broken["reason"]
    assert (stray["line"], stray["game"]) == (107, 1) and "Match" in stray["reason"]
    games = pq.read_table(tmp_path / "out" / "games.parquet").to_pydict()
    assert len(games["game"]) == 31 and 0 not in games["game"] and 1 not in games["game"]
    assert games["file"][-1] == str(logs / "more" / "real.txt.gz")  # folders are read in name order
    decisions = pq.read_table(tmp_path / "out" / "decisions.parquet", columns=["game"]).column("game").to_pylist()
    assert set(decisions) == set(games["game"])
    assert "## Rejected games" in (tmp_path / "out" / "report.md").read_text(encoding="utf-8")


def _same_files(a, b):
    for name in ("decisions.csv", "games.csv", "summary.json"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    for name in ("decisions.parquet", "games.parquet"):
        assert pq.read_table(a / name).equals(pq.read_table(b / name)), name


def test_local_worker_processes_write_the_same_files(plain_run, tmp_path):
    summary, reference = plain_run
    assert analyse_logs([REAL], tmp_path, workers=2, fan_aware=False, games_per_chunk=3) == summary
    _same_files(tmp_path, reference)


def test_a_dask_cluster_writes_the_same_files(plain_run, tmp_path):
    from distributed import LocalCluster

    summary, reference = plain_run
    # tcp even in one process: tasks and results cross the wire as on a real cluster
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp://",
                      dashboard_address=":0") as cluster:
        assert analyse_logs([REAL], tmp_path, dask=cluster.scheduler_address, fan_aware=False,
                            games_per_chunk=3) == summary
    _same_files(tmp_path, reference)


@pytest.mark.parametrize("case, message", [
    ("missing", "no such file or folder"),
    ("empty folder", "no log files"),
    ("out is a file", "is a file, not a folder"),
    ("no workers", "--workers must be 1 or more"),
    ("workers and dask", "--workers is for a local run"),
])
def test_bad_input_gives_a_clear_error(tmp_path, case, message):
    paths, out, options = [REAL], tmp_path / "out", {"workers": 1}
    if case == "missing":
        paths = [tmp_path / "nowhere.txt"]
    elif case == "empty folder":
        (tmp_path / "logs").mkdir()
        paths = [tmp_path / "logs"]
    elif case == "out is a file":
        out.write_text("")
    elif case == "no workers":
        options = {"workers": 0}
    else:
        options = {"workers": 2, "dask": "tcp://127.0.0.1:1"}
    with pytest.raises(LogsError, match=message):
        analyse_logs(paths, out, fan_aware=False, **options)
    assert not (out / "decisions.parquet").exists() and not (out / "partial").exists()  # found before any write


def test_missing_extras_are_named_with_the_install_command(monkeypatch, tmp_path):
    monkeypatch.setattr(run_module, "_EXTRA_MODULES", ("pyarrow", "mjfast_no_such_module"))
    with pytest.raises(LogsError, match=r"pip install 'mjfast\[logs\]' \(missing: mjfast_no_such_module\)"):
        analyse_logs([REAL], tmp_path, workers=1)


def test_an_extra_that_is_installed_but_does_not_import_says_why(monkeypatch, tmp_path):
    # as a pyarrow built for NumPy 2 does under NumPy 1: the module's own reason, not "missing"
    (tmp_path / "mjfast_broken_module.py").write_text("raise ImportError('needs NumPy 2.0 or newer, found 1.26.4')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(run_module, "_EXTRA_MODULES", ("pyarrow", "mjfast_broken_module"))
    with pytest.raises(LogsError, match=r"installed here but not importable: mjfast_broken_module: needs NumPy 2\.0 "
                                        r"or newer, found 1\.26\.4$"):
        analyse_logs([REAL], tmp_path / "out", workers=1)


def test_the_command_runs_and_reports_bad_input_in_one_line(tmp_path, capsys):
    assert cli.main(["logs", str(REAL), "--out", str(tmp_path), "--workers", "1", "--no-fan-aware"]) == 0
    printed = capsys.readouterr()
    assert "16 games read, 16 analysed, 0 rejected" in printed.out and "Fan lines matched 14/14" in printed.out
    assert printed.err == ""  # not a terminal: no progress bar
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["fan_aware"] is False and summary["fan_aware_agreement"] is None
    assert cli.main(["logs", str(tmp_path / "nowhere"), "--out", str(tmp_path)]) == 2
    assert capsys.readouterr().err.startswith("mjfast logs: no such file or folder")


def test_the_progress_bar_counts_games_when_asked(tmp_path, capsys):
    analyse_logs([REAL], tmp_path, workers=1, fan_aware=False, progress=True, games_per_chunk=4)
    bar = capsys.readouterr().err
    assert "16/16" in bar and "game" in bar


class _Later:
    """A future whose result is known at once: the chunk's position, or a failure."""

    def __init__(self, chunk):
        self.chunk = chunk

    def result(self):
        if self.chunk.file == "crash":
            raise MemoryError("the worker ran out of memory")
        return self.chunk.first


def test_chunks_stream_through_a_bounded_window_in_order():
    pulled = []

    def chunks():
        for k in range(20):
            pulled.append(k)
            yield Chunk("log.txt", k, [])

    results = execute.in_order(_Later, chunks(), 3, execute._chunk_text)
    assert next(results) == 0 and len(pulled) == 3  # only the window was read ahead
    assert list(results) == list(range(1, 20))


def test_a_chunk_without_games_gives_the_empty_tables_the_analysis_gives():
    from mjfast.logs.analysis import GameAnalyser
    from mjfast.logs.work import analyse_chunk

    refused = analyse_chunk(Chunk("bomb.gz", 0, [], 3, "holds more than 256 MiB once decompressed"), False)
    assert (refused.number, refused.unreadable, refused.games_read) == (3, "holds more than 256 MiB once decompressed",
                                                                         0)
    decisions, games, _, _ = GameAnalyser(False).take()  # what a chunk of games that all fail to read gives
    for empty, analysed in ((refused.decisions, decisions), (refused.games, games)):
        assert empty.shape == analysed.shape == (0, analysed.shape[1]) and empty.dtype == analysed.dtype
    assert output.decision_table(refused).num_rows == output.game_table(refused).num_rows == 0


def test_a_failing_worker_is_reported_with_its_chunk():
    chunks = [Chunk("log.txt", 0, [[]] * 32), Chunk("crash", 32, [[]] * 32)]
    results = execute.in_order(_Later, chunks, 2, execute._chunk_text)
    assert next(results) == 0
    with pytest.raises(LogsError, match="a worker failed on crash, games 33-64 of the run: MemoryError: the worker"):
        next(results)


def test_tables_are_written_while_the_games_are_read(monkeypatch, tmp_path):
    monkeypatch.setattr(output, "ROWS_PER_GROUP", 200)
    summary = analyse_logs([REAL], tmp_path, workers=1, fan_aware=False, games_per_chunk=2)
    groups = pq.ParquetFile(tmp_path / "decisions.parquet").metadata.num_row_groups
    assert groups >= summary["decisions"] // 400  # a group per ~200 rows, not one at the end



def test_the_summary_figures_are_those_of_the_tables(full_run):
    summary, out = full_run
    decisions = pq.read_table(out / "decisions.parquet").to_pylist()
    games = pq.read_table(out / "games.parquet").to_pylist()
    discards = [d for d in decisions if d["kind"] == "discard"]
    for seat in range(4):
        mine = [d for d in discards if d["player"] == seat]
        figures = summary["players"][str(seat)]
        assert figures["discards"] == len(mine)
        assert figures["plain_agreement"] == round(sum(d["plain_rank"] == 1 for d in mine) / len(mine), 4)
        assert figures["fan_aware_agreement"] == round(sum(d["fan_aware_rank"] == 1 for d in mine) / len(mine), 4)
        assert figures["mean_acceptance_lost"] == round(sum(d["acceptance_lost"] for d in mine) / len(mine), 4)
        wins = [g for g in games if g["winner"] == seat]
        assert figures["win_rate"] == round(len(wins) / 16, 4)
        assert figures["dealt_in"] == sum(g["discarder"] == seat for g in games)
        assert figures["mean_score"] == round(sum(g[f"score_{seat}"] for g in games) / 16, 4)
        claims = [d for d in decisions if d["kind"] == "claim" and d["player"] == seat]
        assert figures["claim_opportunities"] == len(claims)
        assert figures["claims_made"] == sum(d["action"] != "pass" and not d["overruled"] for d in claims)
    first_turns = [d for d in discards if d["turn"] == 1]
    assert summary["by_turn"][0] == {
        "turn": 1, "discards": len(first_turns),
        "plain_agreement": round(sum(d["plain_rank"] == 1 for d in first_turns) / len(first_turns), 4),
        "fan_aware_agreement": round(sum(d["fan_aware_rank"] == 1 for d in first_turns) / len(first_turns), 4),
        "mean_acceptance_lost": round(sum(d["acceptance_lost"] for d in first_turns) / len(first_turns), 4)}
    assert summary["win_fans"] == {str(t): sum(g["fan_total"] == t for g in games)
                                   for t in sorted({g["fan_total"] for g in games if g["fan_total"] is not None})}
