"""The `mjfast` command: what each subcommand prints, its --json, colour and glyph switches,
and errors that are one line with exit status 2."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys

import pytest

import mjfast
from mjfast import TILE_NAMES, parse_tiles
from mjfast.cli import main
from mjfast.fan import score

from .data import LOGS

ANSI = "\033["


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_advise_ranks_every_discard_by_value_by_default(capsys):
    hand = "123m456p789s1357sE"
    status, out, _ = run(capsys, "advise", hand, "--no-color", "--draws", "8")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith(mjfast.parse_hand(hand).to_compact()) and "1-shanten" in lines[0]
    assert "by expected score" in lines[2] and "within 8 draws" in lines[2]
    options = mjfast.best_discards(hand, draws=8)
    rows = [line for line in lines if line.startswith("  ")]
    assert [line.split()[0] for line in rows] == [o.tile for o in options]
    for line, o in zip(rows, options):
        shown = f"{100 * round(o.win_probability, 4):5.1f}% {round(o.expected_score, 3):6.2f}"  # as --json rounds
        assert shown in line and f"{o.acceptance} tiles" in line
    assert ANSI not in out


def test_advise_drawn_puts_the_drawn_tile_first_among_ties(capsys):
    for drawn in ("W", "N"):
        status, out, _ = run(capsys, "advise", "123m456p789s556sWN", "--drawn", drawn, "--json")
        assert status == 0 and json.loads(out)["options"][0]["tile"] == drawn
    status, _, err = run(capsys, "advise", "123m456p789s556sWN", "--drawn", "E")
    assert status != 0 and "drawn tile E is not among the standing tiles" in err


def test_advise_lists_every_discard_grouped_by_shanten(capsys):
    hand = "123m456p789s1357sE"
    status, out, _ = run(capsys, "advise", hand, "--no-color", "--ranking", "fan-aware")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith(mjfast.parse_hand(hand).to_compact()) and "1-shanten" in lines[0]
    assert "regular 1" in lines[0] and "seven pairs 5" in lines[0]
    options = mjfast.best_discards(hand, ranking="fan-aware")
    rows = [line.split()[0] for line in lines if line.startswith("  ")]
    assert rows == [o.tile for o in options]
    headers = [line for line in lines if line.startswith("discards to ")]
    assert [h.split()[2] for h in headers] == ["1-shanten", "2-shanten"]
    assert all(h.endswith("(waits must reach 8 fans)") for h in headers)  # fan-aware ranking
    first = next(line for line in lines if line.startswith("  E "))
    assert f"{options[0].acceptance} tiles" in first and " ".join(options[0].useful) in first
    assert ANSI not in out


def test_advise_shows_the_fans_of_each_wait(capsys):
    status, out, _ = run(capsys, "advise", "[123m1]456p789sSSS5s9m", "--no-color")
    assert status == 0
    ready = next(line for line in out.splitlines() if line.startswith("  9m"))
    result = score("[123m1]456p789sSSS5s5s")
    assert f"waits 5s {result.points} fans" in ready


def test_a_ready_discard_whose_waits_cannot_reach_8_fans_counts_a_step_away(capsys):
    hand = "[123p1][345s2]99m5m6m6sW7s8s"  # discarding W waits on 4m/7m for 3 fans
    assert all(w.discard < 8 for w in next(o for o in mjfast.best_discards(hand) if o.tile == "W").wait_fans)
    lines = run(capsys, "advise", hand, "--no-color", "--ranking", "fan-aware")[1].splitlines()
    group = lines.index("discards to 1-shanten (waits must reach 8 fans)")
    west = next(i for i, line in enumerate(lines) if line.startswith("  W "))
    assert group < west and not any(line.startswith("discards to ready") for line in lines)
    assert "waits 4m 3 fans" in lines[west]
    option = next(o for o in json.loads(run(capsys, "advise", hand, "--json")[1])["options"] if o["tile"] == "W")
    assert option["shanten"] == 0 and option["effective_shanten"] == 1 and option["valid_acceptance"] == 8


def test_advise_json_follows_the_schema_and_takes_the_winds(capsys):
    hand = "123m456p789sSSS5s9m"
    status, out, _ = run(capsys, "advise", hand, "--json", "--visible", "5s")
    assert status == 0
    result = json.loads(out)
    assert result["hand"] == mjfast.parse_hand(hand).to_compact() and result["shanten"] == 0
    assert [o["tile"] for o in result["options"]] == [o.tile for o in mjfast.best_discards(hand, visible="5s")]
    for option in result["options"]:
        assert {"tile", "shanten", "useful", "acceptance", "next_acceptance"} <= set(option)
    best = result["options"][0]
    _, out, _ = run(capsys, "advise", hand, "--json", "--visible", "5s", "--seat", "S", "--wind", "S")
    south = next(o for o in json.loads(out)["options"] if o["tile"] == best["tile"])
    # the pung of S is the seat and the prevalent wind in the south: the fans of each wait change
    standing = [TILE_NAMES[t] for t in parse_tiles(hand)]
    standing.remove(best["tile"])
    for east_wait, south_wait in zip(best["waits"], south["waits"]):
        win = "".join(standing) + east_wait["tile"]
        assert east_wait["fans"] == score(win).points
        assert south_wait["fans"] == score(win, seat_wind="S", prevalent_wind="S").points > east_wait["fans"]


def test_colour_when_asked_or_on_a_terminal_never_with_no_color(capsys, monkeypatch):
    hand = "123m456p789s1357sE"
    assert ANSI in run(capsys, "advise", hand, "--color")[1]
    assert ANSI not in run(capsys, "advise", hand)[1]  # captured output is no terminal
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert ANSI in run(capsys, "advise", hand)[1]
    monkeypatch.setenv("NO_COLOR", "1")
    assert ANSI not in run(capsys, "advise", hand)[1]
    assert ANSI in run(capsys, "advise", hand, "--color")[1]  # the command line overrides NO_COLOR
    assert ANSI not in run(capsys, "advise", hand, "--color", "--no-color")[1]


def test_unicode_glyphs_are_opt_in(capsys):
    plain = run(capsys, "advise", "123m456p789s1357sE")[1]
    glyphs = run(capsys, "advise", "123m456p789s1357sE", "--unicode")[1]
    assert "\U0001F000" not in plain  # 🀀 East
    assert "\U0001F000" in glyphs and "\U0001F007" in glyphs  # 🀇 1m


def test_shanten_prints_each_form(capsys):
    status, out, _ = run(capsys, "shanten", "19m19p19sESWNCFPP")
    assert status == 0
    assert "thirteen orphans     -1" in out.splitlines()[2] and out.splitlines()[-1].split() == ["shanten", "-1"]


def test_waits_with_their_fans(capsys):
    status, out, _ = run(capsys, "waits", "123m456p789sSSS5s", "--seat", "S", "--no-color")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("waits 5s")
    assert "门风刻 2" in lines[1] and f"{score('123m456p789sSSS5s5s', seat_wind='S').total} fans" in lines[1]
    assert run(capsys, "waits", "123m456p789s1357s")[1].startswith("not ready")


def test_fan_table_with_both_names_the_total_and_the_minimum(capsys):
    hand = "123m456p789s123sEE"
    status, out, _ = run(capsys, "fan", hand, "--no-color")
    assert status == 0
    result = score(hand)
    for fan in result.fans:
        assert fan.name_cn in out and fan.name_en in out
    assert f"total {result.total}:" in out and result.meets_minimum and "meets the 8-fan minimum" in out
    below = "[123p1][345s2][999s3]456m6p6p"
    assert not score(below).meets_minimum
    assert "below the 8-fan minimum" in run(capsys, "fan", below, "--no-color")[1]
    flowers = run(capsys, "fan", hand, "--flowers", "2", "--self-drawn")[1]
    assert "Flower Tiles" in flowers and "(flowers 2)" in flowers


def test_warmup_says_how_long(capsys):
    status, out, _ = run(capsys, "warmup")
    assert status == 0 and out.startswith("compiled or loaded") and out.rstrip().endswith(" s")


def test_replay_checks_logs(capsys):
    status, out, _ = run(capsys, "replay", str(LOGS / "botzone_mahjong_gb_16matches.txt"))
    assert status == 0
    assert out.strip() == "16 games read, 16 replayed, 0 broken; Fan lines matched 14/14, Score lines matched 16/16"


def test_replay_reads_folders_as_logs_does(capsys, tmp_path):
    real = (LOGS / "botzone_mahjong_gb_16matches.txt").read_bytes()
    (tmp_path / "a.txt").write_bytes(real)
    (tmp_path / "deeper").mkdir()
    (tmp_path / "deeper" / "b.log.gz").write_bytes(gzip.compress(real))
    (tmp_path / "notes.md").write_text("not a log")
    status, out, _ = run(capsys, "replay", str(tmp_path))
    assert status == 0
    assert out.strip() == "32 games read, 32 replayed, 0 broken; Fan lines matched 28/28, Score lines matched 32/32"
    empty = tmp_path / "empty"
    empty.mkdir()
    done = subprocess.run([sys.executable, "-m", "mjfast.cli", "replay", str(empty)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("mjfast: no log files") and "Traceback" not in done.stderr


def test_replay_of_logs_without_a_game_that_reads_exits_1(capsys, tmp_path):
    (tmp_path / "blank.txt").write_text("\n \n\n")
    status, out, err = run(capsys, "replay", str(tmp_path / "blank.txt"))
    assert status == 1 and out.startswith("0 games read") and err == "mjfast replay: no game could be read\n"
    (tmp_path / "broken.txt").write_text("Match 1\nWind 9\n")
    status, out, err = run(capsys, "replay", str(tmp_path / "broken.txt"))
    assert status == 1 and out.splitlines()[-1].startswith("1 games read, 0 replayed, 1 broken")
    assert err == "mjfast replay: no game could be read\n"


def test_table_plays_and_writes_its_games(capsys, tmp_path):
    log = tmp_path / "games.txt"
    status, out, _ = run(capsys, "table", "--games", "6", "--bots", "shanten,random,shanten,random", "--rotate",
                         "--log", str(log))
    assert status == 0 and out.startswith("6 games:") and "0 fouls" in out
    assert run(capsys, "replay", str(log))[1].startswith("6 games read, 6 replayed, 0 broken")


@pytest.mark.parametrize("argv, problem", [
    (["advise", "123m456p789s1357sX"], "unknown character"),
    (["advise", "123m456p789s1357s"], "waiting to draw"),
    (["advise", "123m456p789s1357sE", "--seat", "Q"], "seat_wind"),
    (["fan", "123m456p789s1357sE"], "not a winning hand"),
    (["waits", "123m456p789s1357sE"], "waits needs 13 tiles counting melds"),
    (["advise"], "required"),
    (["divine", "123m"], "invalid choice"),
    (["advise", "123m456p789s1357sE", "--flowers", "many"], "invalid int"),
    (["replay", "/no/such/log.txt"], "no such file or folder"),
    (["serve", "--http", "localhost"], "HOST:PORT"),
    (["table", "--bots", "mjfast,mjfast"], "four bot names"),
])
def test_errors_are_one_line_with_status_2_and_no_traceback(argv, problem):
    done = subprocess.run([sys.executable, "-m", "mjfast.cli", *argv], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("mjfast: ")
    assert problem in done.stderr and "Traceback" not in done.stderr


def test_advise_claim_ranks_passing_and_every_claim(capsys):
    status, out, _ = run(capsys, "advise", "123m456p78s1157sE", "--claim", "9s", "--from", "left", "--no-color")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("123m456p115778sE, 9s discarded by the player left")
    options = mjfast.claim_options("123m456p78s1157sE", "9s", 1)
    assert [line.split()[3] for line in lines[1:]] == [o.action for o in options]  # win% score shanten action
    assert "chow [789s3], then discard" in lines[1]
    status, out, _ = run(capsys, "advise", "123m456p78s1157sE", "--claim", "9s", "--from", "across", "--json")
    assert [o["action"] for o in json.loads(out)["options"]] == ["pass"]


def test_advise_with_opponents_shows_the_danger_of_each_discard(capsys):
    status, out, _ = run(capsys, "advise", "123m456p789s1357sE", "--visible", "19mE CCC", "--opponent",
                         "S:19mE:[CCC1]:12", "--draws", "8", "--no-color")
    assert status == 0 and "net of dealing in" in out
    first = next(line for line in out.splitlines() if line.lstrip().startswith("E "))
    assert re.search(r"\d+\.\d% -\d+\.\d\d", first)  # its chance to deal in and its cost
    status, out, _ = run(capsys, "advise", "123m456p789s1357sE", "--opponent", "S:19mE", "--json")
    assert "deal_in" in json.loads(out)["options"][0] and len(json.loads(out)["ready"]) == 1
    status, out, _ = run(capsys, "advise", "123m456p789s1357sE", "--opponent", "S:19mE::8:7s", "--json")
    deal_in = {o["tile"]: o["deal_in"] for o in json.loads(out)["options"]}
    assert status == 0 and deal_in["7s"] == 0.0 and deal_in["5s"] > 0.0  # passed since their discard: safe
    status, out, err = run(capsys, "advise", "123m456p789s1357sE", "--opponent", "S:1m:[EEE1]:8:7s:more")
    assert status == 2 and "SEAT:DISCARDS:MELDS:DRAWS:PASSED" in err
    status, out, err = run(capsys, "advise", "123m456p789s1357sE", "--opponent", "S:1m:[EEE1]:many")
    assert status == 2 and "DRAWS is a number" in err
    status, out, _ = run(capsys, "advise", "269m378p13446sSWC", "--budget-ms", "5", "--draws", "9", "--no-color")
    assert status == 0 and "no value figures: the time budget had no room for them" in out
    status, out, _ = run(capsys, "advise", "1m2m4m8m1p4p8p1s2s4s8sENC", "--no-color")  # six steps from ready
    assert status == 0 and "no value figures: their graph would be too large (a hand far from ready)" in out


def test_python_dash_m_mjfast_runs_the_command():
    done = subprocess.run([sys.executable, "-m", "mjfast", "shanten", "123m456p789s1357s"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.split()[:2] == ["regular", "1"]
    done = subprocess.run([sys.executable, "-m", "mjfast", "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("usage: mjfast")


_COMMAND = """if True:
    import atexit, sys
    atexit.register(lambda: sys.stdout.write("torn down\\n"))
    sys.argv = ["mjfast", *sys.argv[1:]]
    from mjfast.cli import command
    command()
"""


def test_a_one_hand_command_ends_its_process_with_its_whole_answer_and_no_teardown(tmp_path):
    def command(*argv):
        return subprocess.run([sys.executable, "-c", _COMMAND, *argv], capture_output=True, text=True, timeout=300)

    done = command("advise", "123m456p789s1357sE", "--json")  # piped: written out before the process ends
    assert done.returncode == 0 and json.loads(done.stdout)["options"][0]["tile"] == "E"
    assert "torn down" not in done.stdout
    done = command("shanten", "11111m456p789s135s")
    assert done.returncode == 2 and "torn down" not in done.stdout and done.stderr.startswith("mjfast: ")
    done = command("--help")  # not one hand's answer: Python ends as usual
    assert done.returncode == 0 and done.stdout.rstrip().endswith("torn down")
    done = command("replay", str(tmp_path / "nowhere.txt"))
    assert done.returncode == 2 and done.stdout == "torn down\n"


def test_an_option_s_old_name_still_works_and_says_its_new_one(capsys):
    from mjfast.cli import _parser

    args = _parser().parse_args(["botzone", "--think-ms", "150"])
    assert args.budget_ms == 150.0
    assert "mjfast: --think-ms is now --budget-ms" in capsys.readouterr().err
    assert _parser().parse_args(["botzone", "--budget-ms", "90"]).budget_ms == 90.0
    assert _parser().parse_args(["botzone"]).budget_ms == 200.0 and capsys.readouterr().err == ""
