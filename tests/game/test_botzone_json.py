"""Botzone's own JSON match logs: read in both shapes, replayed under mjfast's rules, every
figure the judge wrote checked, written back from a table game.

The three real matches of June 2026 (bare arrays, private walls of 34) and four ordinary games
under the real judge with flowers (private walls of 36) must replay and reproduce every figure
of the judge's: the fans and total of the win, the scores, every tileCnt and every canHu value
that says something (a positive fan count, or -3: no win). The three games the judge ended
with WA for claiming the game's last discard must be rejected at that claim.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil

import pytest

from mjfast import cli
from mjfast.errors import ArgumentError, HandError
from mjfast.game import (
    DUPLICATE,
    DUPLICATE_FLOWERS,
    BrokenGame,
    FanAwareBot,
    InProcessAgent,
    LogError,
    MjfastBot,
    Replay,
    ShantenBot,
    check_games,
    format_game,
    play_game,
    read_games,
)
from mjfast.game.botzone_log import botzone_match, judge_wall, read_botzone, write_botzone
from mjfast.game.judge import NO_WIN, can_hu
from mjfast.game.protocol import Response
from mjfast.game.tokens import TOKEN_ID, TOKENS
from mjfast.game.walls import DuplicateWalls, deal_walls
from mjfast.logs.sources import chunks, log_files
from mjfast.tiles import tile_id

from ..data import LOGS
from .test_last_tiles import Claimer, Tsumogiri

JSON_LOGS = LOGS / "botzone_json"
REAL = sorted(JSON_LOGS.glob("*.json"))
JUDGE = JSON_LOGS / "judge"
FLOWERS = sorted(JUDGE.glob("flowers-*.json"))
WA = sorted(JUDGE.glob("wa-*.json"))

# The judge's figures of each game that mjfast reproduces (all of them): tileCnt values
# compared (four per step), canHu values compared (positive ones and -3s), of which positive.
FIGURES = {
    "ijcai2026-13-18-56": (432, 214, 1), "ijcai2026-13-22-10": (556, 279, 3), "ijcai2026-13-25-38": (468, 233, 1),
    "flowers-game-1-hu": (480, 294, 4), "flowers-game-2-hu": (516, 310, 2), "flowers-game-3-hu": (612, 373, 2),
    "flowers-game-4-huang": (652, 389, 0),
}
# The wins as the judge wrote them: winner, fan total, fans.
WINS = {
    "ijcai2026-13-18-56": (1, 18, {"三色三节高": 1, "碰碰和": 1, "双同刻": 1, "双暗刻": 1}),
    "ijcai2026-13-22-10": (0, 14, {"组合龙": 1, "门前清": 1}),
    "ijcai2026-13-25-38": (1, 18, {"一色三步高": 1, "缺一门": 1, "嵌张": 1}),
    "flowers-game-1-hu": (3, 9, {"三色三步高": 1, "断幺": 1, "自摸": 1}),
    "flowers-game-2-hu": (1, 17, {"杠上开花": 1, "碰碰和": 1, "双暗刻": 1, "明杠": 1}),
    "flowers-game-3-hu": (3, 10, {"无番和": 1, "花牌": 2}),
}
# Each WA game: the offender, the claim the replay refuses, the bots' entry of its answer.
OFFENCES = {"wa-chi-last-discard-crafted": (0, "Chi", 339), "wa-peng-last-discard-crafted": (1, "Peng", 339),
            "wa-peng-last-discard": (2, "Peng", 333)}


def _raw(path):
    return json.loads(path.read_text(encoding="utf-8"))


def _check(path):
    [check] = list(check_games(path))
    assert not isinstance(check, BrokenGame), str(check)
    return check


@pytest.mark.parametrize("path", REAL + FLOWERS, ids=lambda p: p.stem)
def test_each_game_replays_and_every_figure_of_the_judge_is_reproduced(path):
    check = _check(path)
    tile_counts, can_hus, positive = FIGURES[path.stem]
    judged = check.judge
    assert (judged.tile_counts, judged.tile_counts_matched) == (tile_counts, tile_counts)
    assert (judged.can_hu, judged.can_hu_matched) == (can_hus, can_hus)
    assert judged.mismatches == []
    assert check.score_line_matches and check.scores == check.game.scores and sum(check.scores) == 0
    logs = _raw(path)
    logs = logs["logs"] if isinstance(logs, dict) else logs
    written = [v for e in logs if "output" in e for v in e["output"]["display"].get("canHu", ())]
    assert sum(v > 0 for v in written) == positive and sum(v == NO_WIN for v in written) == can_hus - positive
    if path.stem in WINS:
        winner, total, fans = WINS[path.stem]
        assert check.win.winner == winner and check.fan_line_matches
        assert check.fans.total == check.game.fan_total == total and dict(check.game.fans) == fans
    else:
        assert check.game.drawn and check.win is None and check.fan_line_matches is None


def test_the_wall_kind_is_the_judge_s():
    assert {read_botzone(p).wall for p in REAL} == {DUPLICATE}
    assert {read_botzone(p).wall for p in FLOWERS} == {DUPLICATE_FLOWERS}
    assert {read_botzone(p).wall for p in WA} == {DUPLICATE}  # 136 walltiles
    assert judge_wall(136, None, [0] * 4) == DUPLICATE and judge_wall(144, None, [0] * 4) == DUPLICATE_FLOWERS
    assert judge_wall(None, (21, 21, 21, 21), [0] * 4) == DUPLICATE
    assert judge_wall(None, (23, 21, 22, 23), [0, 2, 1, 0]) == DUPLICATE_FLOWERS
    assert judge_wall(None, None, [0, 1, 0, 0]) == DUPLICATE_FLOWERS
    with pytest.raises(ArgumentError, match="135 tiles"):
        judge_wall(135, None, [0] * 4)
    # tiles left that fit neither wall say nothing: the flowers do (and the check reports them)
    assert judge_wall(None, (20, 21, 21, 21), [0] * 4) == DUPLICATE


def test_the_wall_errors_are_typed_as_docs_game_md_says():
    """A wall an argument names wrongly is an ArgumentError, a log whose walls the judge never
    dealt a LogError naming the entry: neither is a HandError (no hand is wrong)."""
    short = re.sub(r'("walltiles": "[^"]*) \w\w"', r'\1"', WA[0].read_text(encoding="utf-8"))  # 135 tiles
    assert short.count('"walltiles"') == 2 and json.loads(short) != _raw(WA[0])
    with pytest.raises(LogError, match="135 tiles") as raised:
        read_botzone(json.loads(short), match_id="short-wall")
    assert raised.value.line == read_botzone(WA[0]).judge.deal_entry
    with pytest.raises(ArgumentError, match="four walls of 34") as raised:
        DuplicateWalls([list(range(34))] * 3)
    assert not isinstance(raised.value, HandError)
    with pytest.raises(ArgumentError, match="four walls of 34"):
        DuplicateWalls([list(range(34))] * 4, wall="shared")


@pytest.mark.parametrize("path", WA, ids=lambda p: p.stem)
def test_a_claim_of_the_last_discard_is_rejected_at_the_claim(path):
    offender, claim, entry = OFFENCES[path.stem]
    [broken] = list(check_games(path))
    assert isinstance(broken, BrokenGame)
    assert broken.line == entry and f"player {offender} claims {claim} of the last discard" in broken.reason
    # the line is the bots' entry that holds the offending answer
    answer = _raw(path)["logs"][entry][str(offender)]["response"]
    assert answer.startswith(claim.upper() + " ")
    game = read_botzone(path)
    assert game.scores == tuple(10 if p != offender else -30 for p in range(4))
    assert game.actions[-1].kind == "Invalid" and game.actions[-1].player == offender
    # up to the claim, every figure of the judge's is reproduced too
    replay = Replay(game)
    with pytest.raises(LogError):
        replay.check()
    assert replay.judge.mismatches == [] and replay.judge.tile_counts > 600 and replay.judge.can_hu > 400


def test_both_shapes_plain_or_gzip_read_the_same_game(tmp_path):
    array = _raw(REAL[0])
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"logs": array, "initdata": {}, "players": [{"name": n} for n in "abcd"]}))
    packed = tmp_path / "packed.json.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as f:
        json.dump(array, f)
    game = read_botzone(REAL[0])
    same = game.match_id
    assert read_botzone(wrapped, same) == game == read_botzone(packed, same) == read_botzone(array, same)
    assert read_botzone(wrapped).names == tuple("abcd") and game.names == ("",) * 4
    assert [g.match_id for g in read_games(packed)] == ["packed"]
    # a folder reads every .json and .json.gz below it, one game (and one chunk) a file
    shutil.copy(FLOWERS[0], tmp_path / FLOWERS[0].name)
    files = log_files([tmp_path])
    assert [f.name for f in files] == ["flowers-game-1-hu.json", "packed.json.gz", "wrapped.json"]
    assert [len(c.blocks) for c in chunks(files)] == [1, 1, 1]


def test_the_record_keeps_names_answers_verdicts_and_times():
    game = read_botzone(FLOWERS[0])
    record = game.judge
    assert game.names == ("shanten-kr", "shanten-kr", "shanten-kr", "mjfast-kr")
    raw = _raw(FLOWERS[0])["logs"]
    first_play = game.actions.index(next(a for a in game.actions if a.kind == "Play"))
    line = game.action_lines[first_play]
    answer = record.answer(line, game.actions[first_play].player)
    bots = raw[line - 1][str(game.actions[first_play].player)]
    assert answer.text == bots["response"] and answer.text.startswith("PLAY ")
    assert (answer.verdict, answer.time) == ("OK", bots["time"])
    assert raw[line]["output"]["display"]["action"] == "PLAY"


def test_a_figure_the_judge_wrote_differently_is_reported(tmp_path, capsys):
    logs = _raw(REAL[0])
    deal = next(e for e in logs if "output" in e and e["output"]["display"]["action"] == "DEAL")
    deal["output"]["display"]["tileCnt"][2] = 20
    win = next(i for i, e in enumerate(logs) if "output" in e and any(v > 0 for v in e["output"]["display"]["canHu"]))
    player = next(p for p, v in enumerate(logs[win]["output"]["display"]["canHu"]) if v > 0)
    logs[win]["output"]["display"]["canHu"][player] += 1
    no_win = next(i for i, e in enumerate(logs) if "output" in e and e["output"]["display"]["canHu"][0] == NO_WIN)
    logs[no_win]["output"]["display"]["canHu"][0] = 8
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(logs))
    check = _check(changed)
    assert (check.judge.tile_counts_matched, check.judge.can_hu_matched) == (431, 212)
    assert [line for line, _ in check.judge.mismatches] == [2, no_win, win]
    assert check.judge.mismatches[0][1] == "tileCnt[2] 20, mjfast 21"
    assert check.judge.mismatches[1][1] == "canHu[0] 8, mjfast no win"
    assert cli.main(["replay", str(changed)]) == 1
    out = capsys.readouterr().out.strip().split("\n")
    assert out[0] == f"{changed}: match changed, line 2: the judge's tileCnt[2] 20, mjfast 21"
    assert out[-1] == ("1 games read, 1 replayed, 0 broken; Fan lines matched 1/1, Score lines matched 1/1; "
                       "tileCnt matched 431/432, canHu matched 212/214")


def test_logs_that_do_not_read_are_broken_games(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[{\"output\": ")
    [broken] = list(read_games(bad))
    assert isinstance(broken, BrokenGame) and "not a Botzone JSON log" in broken.reason
    logs = _raw(REAL[0])[:-1]  # no finish
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(logs))
    [broken] = list(read_games(cut))
    assert "stops before the judge's finish" in broken.reason
    logs = _raw(REAL[0])
    logs[6]["output"]["display"]["tile"] = "X9"
    (tmp_path / "tile.json").write_text(json.dumps(logs))
    [broken] = list(read_games(tmp_path / "tile.json"))
    assert broken.line == 6 and "'X9' is not a tile" in broken.reason


class _Foul(ShantenBot):
    """Answers its 40th request with what no request allows."""

    def __init__(self, wall):
        super().__init__(wall=wall)
        self.requests = 0

    def respond(self, request: str) -> str:
        self.requests += 1
        answer = super().respond(request)
        return "PLAY" if self.requests == 40 else answer


# Table games with chows, pungs, kongs (an added one too), claims that lost on priority, a draw
# and a foul.
TABLE_GAMES = [(DUPLICATE, 10, False), (DUPLICATE, 3, True), (DUPLICATE, 38, False), (DUPLICATE_FLOWERS, 0, False),
               (DUPLICATE_FLOWERS, 1, False), (DUPLICATE_FLOWERS, 8, False), (DUPLICATE_FLOWERS, 2, True)]


@pytest.mark.parametrize("wall, seed, foul", TABLE_GAMES)
def test_a_table_game_written_as_botzone_json_reads_back_the_same_game(tmp_path, wall, seed, foul):
    bots = [FanAwareBot(wall=wall), FanAwareBot(wall=wall), _Foul(wall) if foul else FanAwareBot(wall=wall),
            FanAwareBot(wall=wall)]
    walls = deal_walls(seed, wall)
    result = play_game([InProcessAgent(b) for b in bots], walls, seed % 4, f"table-{seed}")
    path = tmp_path / "game.json"
    write_botzone(result.log, path, names=["m0", "m1", "m2", "m3"], walls=walls)
    back = read_botzone(path, match_id=f"table-{seed}")
    assert back == result.log and back.wall == wall and format_game(back) == format_game(result.log)
    assert back.names == ("m0", "m1", "m2", "m3")
    check = Replay(back).check()
    assert check.score_line_matches and check.judge.mismatches == [] and check.judge.tile_counts > 0
    if foul:
        assert result.outcome.kind == "foul" and back.actions[-1].kind == "Invalid"
    # the judge's wall: each player's private wall, taken from its end
    tiles = _raw(path)["initdata"]["walltiles"].split()
    size = len(tiles) // 4
    assert len(tiles) == (136 if wall == DUPLICATE else 144)
    for player in range(4):
        dealt = [t for t in reversed(tiles[size * player:size * (player + 1)]) if not t.startswith("H")][:13]
        assert dealt == [TOKENS[t] for t in result.log.deals[player][:13]]


def test_the_table_games_cover_what_the_format_must_say():
    kinds, ignored = set(), 0
    for wall, seed, foul in TABLE_GAMES:
        bots = [FanAwareBot(wall=wall), FanAwareBot(wall=wall), _Foul(wall) if foul else FanAwareBot(wall=wall),
                FanAwareBot(wall=wall)]
        log = play_game([InProcessAgent(b) for b in bots], deal_walls(seed, wall), seed % 4).log
        kinds |= {a.kind for a in log.actions} | ({"Huang"} if log.drawn else set())
        ignored += sum(bool(a.ignored) for a in log.actions)
    assert kinds >= {"Draw", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang", "BuHua", "Hu", "Invalid", "Huang"}
    assert ignored >= 2


def test_the_judge_figures_of_a_table_game_are_mjfast_s_own():
    wall, seed = DUPLICATE_FLOWERS, 0
    walls = deal_walls(seed, wall)
    log = play_game([InProcessAgent(MjfastBot(wall=wall)) for _ in range(4)], walls, 0).log
    match = botzone_match(log, walls=walls)
    # the table after the first draw is the table before the action that follows it
    after = [step.table.copy() for step, _ in zip(Replay(log), range(2))][1]
    draws = [i for i, e in enumerate(match["logs"]) if "output" in e and e["output"]["display"]["action"] == "DRAW"]
    first_draw = match["logs"][draws[0]]["output"]["display"]
    assert first_draw["tileCnt"] == [after.tiles_left(p) for p in range(4)]
    assert first_draw["canHu"] == [can_hu(after, p) for p in range(4)]
    assert first_draw["canHu"][0] == NO_WIN and first_draw["canHu"][1:] == [-4, -4, -4]
    with pytest.raises(ArgumentError, match="judge's walls"):
        botzone_match(play_game([InProcessAgent(ShantenBot(wall="shared")) for _ in range(4)],
                                deal_walls(0, "shared")).log)


def test_the_table_command_writes_botzone_json_that_replay_reads(tmp_path, capsys):
    folder = tmp_path / "games"
    assert cli.main(["table", "--games", "3", "--bots", "mjfast,shanten,mjfast,random", "--wall", "duplicate-flowers",
                     "--format", "json", "--log", str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == ["mjfast-0.json", "mjfast-1.json", "mjfast-2.json"]
    assert _raw(folder / "mjfast-1.json")["players"] == [{"name": n} for n in ("mjfast", "shanten", "mjfast", "random")]
    capsys.readouterr()
    assert cli.main(["replay", str(folder)]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("3 games read, 3 replayed, 0 broken;") and "tileCnt matched" in out
    assert cli.main(["table", "--games", "1", "--format", "json"]) == 2
    assert "--log DIR" in capsys.readouterr().err


def test_the_log_analysis_reads_json_logs_with_their_answers_names_and_judge_figures(tmp_path):
    import pyarrow.parquet as pq

    from mjfast.logs import analyse_logs

    summary = analyse_logs([JSON_LOGS], tmp_path, workers=1)
    assert (summary["games_read"], summary["games_analysed"], summary["games_rejected"]) == (10, 7, 3)
    assert sorted((r["match_id"], r["line"]) for r in summary["rejected"]) == sorted(
        (name, entry) for name, (_, _, entry) in OFFENCES.items())
    assert summary["botzone_json_games"] == 7 and summary["judge_mismatches"] == []
    assert summary["tile_counts_checked"] == summary["tile_counts_matched"] == sum(f[0] for f in FIGURES.values())
    assert summary["can_hu_checked"] == summary["can_hu_matched"] == sum(f[1] for f in FIGURES.values())
    assert (summary["fan_lines"], summary["fan_lines_matched"], summary["score_lines_matched"]) == (6, 6, 7)
    games = {g["match_id"]: g for g in pq.read_table(tmp_path / "games.parquet").to_pylist()}
    assert [games["flowers-game-1-hu"][f"bot_{p}"] for p in range(4)] == list(read_botzone(FLOWERS[0]).names)
    assert games["ijcai2026-13-18-56"]["bot_0"] is None
    raw = _raw(REAL[0])
    times = [sum(e[str(p)]["time"] for e in raw if "output" not in e) for p in range(4)]
    assert [games["ijcai2026-13-18-56"][f"response_ms_{p}"] for p in range(4)] == times
    assert games["ijcai2026-13-18-56"]["tile_counts_checked"] == FIGURES["ijcai2026-13-18-56"][0]
    decisions = [d for d in pq.read_table(tmp_path / "decisions.parquet").to_pylist()
                 if d["match_id"] == "ijcai2026-13-18-56"]
    for d in decisions:
        # a discard's answer is in the bots' entry before the PLAY; a claim's after the discard
        entry = d["line"] - 1
        if d["kind"] == "claim":
            entry = max(i for i in range(d["line"]) if "output" in raw[i]
                        and raw[i]["output"]["display"]["action"] in ("PLAY", "CHI", "PENG")) + 1
        assert d["response_ms"] == raw[entry][str(d["player"])]["time"] and d["verdict"] == "OK"
        if d["kind"] == "discard":
            assert raw[entry][str(d["player"])]["response"].endswith(" " + TOKENS[tile_id(d["tile"])])


class _PungThenKong(Claimer):
    """Pungs 9s, then adds the fourth to it as soon as it draws it."""

    def __init__(self):
        super().__init__("T9")

    def on_draw(self) -> Response:
        _, added = self.table.own_kongs(self.seat)
        return Response("BUGANG", (added[0],)) if added else super().on_draw()


def test_a_robbed_kong_reads_back_the_same_game(tmp_path):
    # player 0 draws and plays 9s, player 1 pungs it and draws the fourth 9s at its next turn:
    # player 2, waiting on 6s-9s, robs the kong
    deals = ["W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 F1", "T9 T9 B4 B5 B6 B7 B8 B9 F2 F2 F3 F3 F4",
             "T7 T8 J1 J1 J1 J2 J2 J2 J3 J3 J3 W1 W1", "B1 B1 B2 B2 B3 B3 T1 T1 T2 T2 T3 T3 F1"]
    walls = [[TOKEN_ID[t] for t in deal.split()] for deal in deals]
    walls[0].append(TOKEN_ID["T9"])
    walls[1].append(TOKEN_ID["T9"])
    rest = [t for t in range(34) for _ in range(4)]
    for wall in walls:
        for t in wall:
            rest.remove(t)
    rest = [t for t in rest if t not in (TOKEN_ID["T6"], TOKEN_ID["T9"])] + [t for t in rest if t == TOKEN_ID["T6"]]
    for wall in walls:
        while len(wall) < 34:
            wall.append(rest.pop(0))
    bots = [Tsumogiri(), _PungThenKong(), Tsumogiri(), Tsumogiri()]  # Tsumogiri robs a kong when it can
    result = play_game([InProcessAgent(b) for b in bots], DuplicateWalls(walls), 0, "robbed")
    assert [a.kind for a in result.log.actions[-3:]] == ["Draw", "BuGang", "Hu"]
    assert result.outcome.win.winner == 2 and result.outcome.win.discarder == 1
    path = tmp_path / "robbed.json"
    write_botzone(result.log, path)
    back = read_botzone(path)
    assert back == result.log
    check = Replay(back).check()
    assert check.fan_line_matches and check.score_line_matches and check.judge.mismatches == []
    bugang = next(e for e in _raw(path)["logs"] if "output" in e and e["output"]["display"]["action"] == "BUGANG")
    can_hu = bugang["output"]["display"]["canHu"]
    assert can_hu[1] == -4 and can_hu[2] == check.fans.total and can_hu[0] == can_hu[3] == NO_WIN
    assert "抢杠和" in dict(back.fans)


def test_the_real_games_of_either_format_written_as_botzone_json_read_back_the_same():
    games = list(read_games(LOGS / "botzone_mahjong_gb_16matches.txt")) + [read_botzone(p) for p in REAL + FLOWERS]
    for game in games:
        back = read_botzone(json.loads(json.dumps(botzone_match(game))), game.match_id)
        assert back == game
        check = Replay(back).check()  # the figures written are mjfast's own: all reproduced
        assert check.fan_line_matches is not False and check.score_line_matches and check.judge.mismatches == []
