"""Bulk analysis of MCR game logs: every decision replayed, on one core, all cores or a cluster.

    from mjfast.logs import analyse_logs
    summary = analyse_logs(["games.txt.gz", "more_logs/"], "out/")      # all local cores
    summary = analyse_logs("games.txt", "out/", dask="tcp://scheduler:8786")

Every game is replayed and checked by mjfast.game (a broken game is rejected with its match
id, line and reason; the rest goes on), every discard is ranked by mjfast (plainly and
fan-aware) and every claim opportunity recorded. The command is `mjfast logs`; the output
files and their columns are described in docs/logs.md.

Modules, one concept each: sources (files and chunks of games), kernels (one numba call per
discard), analysis (one game replayed into rows), work (a chunk in, rows out), execute
(inline, local processes or Dask, results in order), columns (the tables' columns), output
(Parquet and CSV), summary (the run's figures), report (report.md and its plots), resume (what
a run has done, kept so that a killed run resumes; files written whole), run (a whole run),
cli (the command's arguments).
"""

from ..runtime.lazy import lazy_attributes

# Loaded on first use: `mjfast --help` imports this package (the command's arguments live in
# mjfast.logs.cli) and must not pay for numba and the analysis.
_LOADED_LATER: "dict[str, tuple[str, ...]]" = {"analysis": ("GameAnalyser",), "run": ("analyse_logs",),
                                               "sources": ("LogsError",)}
__getattr__, __dir__ = lazy_attributes(__name__, _LOADED_LATER)
__all__ = [name for names in _LOADED_LATER.values() for name in names]
