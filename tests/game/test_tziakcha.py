"""Tziakcha's (雀渣) records: a real 16-hand session read, every tile replayed against its wall,
every win re-scored under the Tziakcha rules and compared with its server's fan table and
scores; records written here (a whole hand played out to an exhaustive draw, with flowers and
kongs), and damaged records, each rejected with its reason."""

from __future__ import annotations

import copy
import gzip
import json
import random
import shutil

import pytest

from mjfast import cli
from mjfast.fan import JUDGE, TZIAKCHA
from mjfast.game import BrokenGame, LogError, Replay, check_games, read_games
from mjfast.game.reading import json_blocks
from mjfast.game.tokens import TOKENS
from mjfast.game.tziakcha_log import kind_of, parse_record, server_fan
from mjfast.logs.sources import chunks, count_games, log_files

from ..data import DATA

SESSION = DATA / "tziakcha" / "session-ghqy2ztj.json"
NAMES = ("琳雨空", "米夜", "ChaosDon", "Choimoe")
# The session's winners (seat names) hand by hand and the fan totals its server wrote.
WINS = [("ChaosDon", 15), ("Choimoe", 14), ("琳雨空", 16), ("ChaosDon", 12), ("ChaosDon", 21), ("琳雨空", 11),
        ("ChaosDon", 16), ("Choimoe", 19), ("Choimoe", 10), ("琳雨空", 13), ("米夜", 13), ("Choimoe", 11),
        ("米夜", 12), ("米夜", 10), ("ChaosDon", 18), ("ChaosDon", 15)]


def _session() -> dict:
    return json.loads(SESSION.read_text(encoding="utf-8"))


def _games(data: dict) -> list:
    return [block.parse() for block in json_blocks(json.dumps(data), "test")]


# --- the real session ------------------------------------------------------------------------

def test_the_real_session_replays_and_every_win_is_the_servers():
    checks = list(check_games(SESSION))
    assert len(checks) == 16 and not [c for c in checks if isinstance(c, BrokenGame)]
    assert [(c.game.names[c.win.winner], c.fans.total) for c in checks] == WINS
    assert all(c.fan_line_matches and c.score_line_matches for c in checks)  # 16 of 16
    assert all(c.game.ruleset is TZIAKCHA for c in checks)
    assert [c.game.match_id for c in checks[:2]] == ["GHQY2zTj-01", "GHQY2zTj-02"]
    assert [c.game.prevalent_wind for c in checks] == [w for w in range(4) for _ in range(4)]
    # the seats turn with the hands: each record names its own East first
    assert checks[0].game.names == NAMES and checks[1].game.names == ("米夜", "ChaosDon", "Choimoe", "琳雨空")


def test_the_servers_figures_are_what_the_record_holds():
    data = _session()
    for record, game in zip(data["records"], _games(data)):
        step = record["step"]
        seat = next(p for p in range(4) if step["b"] >> p & 1)
        table = step["y"][seat]
        assert game.fan_total == table["f"] and game.scores == tuple(step["s"])
        # a fan table entry is points | (count - 1) << 8: the counts, flowers included
        assert sum(count for _, count in game.fans) == sum((v >> 8) + 1 for v in table["t"].values())


def test_deals_are_the_walls_and_lines_are_the_actions_positions():
    data = _session()
    game = _games(data)[0]
    moves = data["records"][0]["step"]["a"]
    assert [len(deal) for deal in game.deals] == [14, 15, 13, 15]  # 13 tiles and each seat's flowers at the deal
    assert all(TOKENS[t].startswith("H") for deal in game.deals for t in deal[13:])
    assert game.actions[0].kind == "Draw" and moves[game.action_lines[0]] == [0, 0, 9668]  # the dealer's 14th tile
    types = {"Play": {2}, "Chi": {3}, "Peng": {4}, "Gang": {5}, "AnGang": {5}, "BuGang": {5}, "Hu": {6},
             "Draw": {7, 1}, "BuHua": {1}}  # a flower's replacement is drawn by the flower's action
    assert all(moves[line][0] & 15 in types[a.kind] and moves[line][0] >> 4 == a.player
               for a, line in zip(game.actions[1:], game.action_lines[1:]))


def test_tile_ids_and_fan_indices():
    assert [kind_of(t) for t in (0, 3, 36, 72, 108, 124, 132, 136, 143)] == [0, 0, 18, 9, 27, 31, 33, 34, 41]
    assert [server_fan(i) for i in (1, 16, 17, 31, 32, 37, 82, 83, 84, 85)] == [
        "大四喜", "一色四步高", "一色四步高", "一色三步高", "一色三步高", "组合龙", "自摸", "花牌", "明暗杠", "天和"]
    with pytest.raises(ValueError):
        server_fan(89)


def test_other_rules_replay_the_same_game():
    game = _games(_session())[4]
    under_the_judge = Replay(game.scored_under("judge")).check()
    assert game.scored_under("judge").ruleset is JUDGE and under_the_judge.fans.total == 21


def test_a_session_reads_from_gzip_and_from_folders(tmp_path):
    with gzip.open(tmp_path / "s.json.gz", "wt", encoding="utf-8") as f:
        f.write(SESSION.read_text(encoding="utf-8"))
    shutil.copy(SESSION, tmp_path / "plain.json")
    files = log_files([tmp_path])
    assert [f.name for f in files] == ["plain.json", "s.json.gz"]
    assert [len(c.blocks) for c in chunks(files)] == [16, 16] and count_games(files) == 32
    assert len([g for g in read_games(tmp_path / "s.json.gz") if not isinstance(g, BrokenGame)]) == 16


def test_replay_command_reads_a_session(capsys):
    assert cli.main(["replay", str(SESSION)]) == 0
    assert "16 games read, 16 replayed, 0 broken; Fan lines matched 16/16, Score lines matched 16/16" in (
        capsys.readouterr().out)


# --- a record written here: a whole hand to an exhaustive draw ---------------------------------

START_AT_ZERO = 0x6633  # dice 3 3 6 6: the wall is broken where its string starts (side 3, 18 stacks)


def played_out(seed: int) -> dict:
    """A record of a hand in which every seat discards the tile it draws until the wall is
    empty, declaring a concealed kong whenever the tile drawn is the fourth; flowers shown at
    the deal and in play. The wall is written in the order it is taken: the deal from its
    start, draws from there on, replacements from its end, stacks of two, the top one first
    (where the two ends meet, a stack the back has begun gives the front its bottom tile)."""
    rng = random.Random(seed)
    wall = list(range(144))
    rng.shuffle(wall)
    taken = [k < 53 for k in range(144)]
    hands = [[] for _ in range(4)]
    for k in range(12):
        hands[k % 4] += wall[4 * k:4 * k + 4]
    for p in range(4):
        hands[p].append(wall[48 + p])
    hands[0].append(wall[52])
    moves = []

    def take(place):
        taken[place] = True
        return wall[place]

    def from_front():
        return take(taken.index(False))

    def from_back():
        stack = max(k for k in range(0, 144, 2) if not (taken[k] and taken[k + 1]))
        return take(stack + taken[stack])

    def replace_flowers(p, tile):
        while tile >= 136:  # shown, replaced from the back
            assert not all(taken), "a flower drawn last: no replacement (another seed)"
            hands[p].remove(tile)
            new = from_back()
            hands[p].append(new)
            moves.append([p << 4 | 1, new | (tile - 136) << 8 | 0x1000, 0])
            tile = new
        return tile

    for p in range(4):
        for flower in [t for t in hands[p] if t >= 136]:
            replace_flowers(p, flower)
        moves.append([p << 4 | 8, 2, 0])
    moves.append([0, 0, 0])
    drawn = next(t for t in reversed(hands[0]) if t < 136)
    p = 0
    while True:
        moves.append([p << 4 | 2, drawn, 0])
        hands[p].remove(drawn)
        if all(taken):
            break
        p = (p + 1) % 4
        tile = from_front()
        hands[p].append(tile)
        moves.append([p << 4 | 7, tile, 0])
        tile = replace_flowers(p, tile)
        while [t >> 2 for t in hands[p]].count(tile >> 2) == 4 and taken.count(False) >= 2:
            for t in [t for t in hands[p] if t >> 2 == tile >> 2]:
                hands[p].remove(t)
            moves.append([p << 4 | 5, tile >> 2, 0])  # concealed: no giver
            tile = from_back()
            hands[p].append(tile)
            moves.append([p << 4 | 7, tile | 0x100, 0])
            tile = replace_flowers(p, tile)
        drawn = tile
    return {"id": f"written-{seed}", "step": {
        "w": bytes(wall).hex(), "d": START_AT_ZERO, "i": 5, "a": moves, "b": 0, "s": [0, 0, 0, 0],
        "y": [{}, {}, {}, {}], "p": [{"n": name} for name in NAMES], "g": {"l": 8}}}


# the hand written for the tests: flowers at the deal and in play, a concealed kong, and nine
# tiles taken from the back, so that the front, to finish the wall, takes the bottom tile of a
# stack whose top the back took
SEED = 17


def test_the_written_hand_has_what_it_tests():
    moves = played_out(SEED)["step"]["a"]
    flowers = sum(m[0] & 15 == 1 for m in moves)
    back = flowers + sum(m[0] & 15 == 7 and m[1] & 0x100 != 0 for m in moves)
    assert [m[0] & 15 for m in moves].count(5) == 1 and flowers == 8 and back == 9
    assert sum(m[0] & 15 == 1 for m in moves[:moves.index([0, 0, 0])]) >= 1  # a flower at the deal


def test_a_hand_played_out_reads_and_ends_drawn():
    record = played_out(SEED)
    game = parse_record(record, "written")
    check = Replay(game).check()
    assert game.drawn and check.win is None and check.score_line_matches and game.prevalent_wind == 1
    kinds = [a.kind for a in game.actions]
    assert "AnGang" in kinds and "BuHua" in kinds
    assert kinds.count("BuHua") + sum(len(d) - 13 for d in game.deals) == 8  # all eight flowers came out
    assert check.table.tiles_left(0) == 0


def _damage(record: dict, change) -> dict:
    damaged = copy.deepcopy(record)
    change(damaged["step"])
    return damaged


def _first(step, kind):
    return next(i for i, m in enumerate(step["a"]) if m[0] & 15 == kind and i > 10)


def _swap_draw(step):
    i = _first(step, 7)
    step["a"][i][1] = step["a"][_first(step, 2)][1]


def _bad_discard(step):
    i = _first(step, 2)
    step["a"][i][1] = next(t for t in range(136) if t != step["a"][i][1] and t not in
                           [m[1] & 255 for m in step["a"][:i]])


DAMAGED = {  # what is changed in a record written here: the reason it is rejected with
    "a tile twice in the wall": (lambda s: s.update(w=s["w"][:2] + s["w"][:286]), "the wall 'w' is not the 144 tiles"),
    "dice of 7": (lambda s: s.update(d=0x7777), "the dice 'd' are not four dice of 1-6"),
    "a draw that is not the wall's": (_swap_draw, "draws tile .* but the wall's front holds tile"),
    "a tile discarded but not held": (_bad_discard, "which its hand does not hold"),
    "a back draw from the front": (lambda s: s["a"][_first(s, 7)].__setitem__(1, s["a"][_first(s, 7)][1] | 0x100),
                                   "draws from the wall's back, but this draw comes from its front"),
    "an action of no type": (lambda s: s["a"].insert(20, [12, 0, 0]), r"is not \[seat << 4 \| type 0-9"),
    "no start": (lambda s: s.update(a=[m for m in s["a"] if m != [0, 0, 0]]), "action type 2 before play starts"),
    "a declared chow never made": (lambda s: s["a"].insert(_first(s, 7), [(s["a"][_first(s, 7)][0] & 0x30) | 3, 0, 0]),
                                   "draws while seat .*'s Chi is declared and neither made nor overruled"),
    "a winner without a win": (lambda s: s.update(b=1), "names seat 0 the winner, but nobody declares a win"),
    "no scores": (lambda s: s.pop("s"), "no four score changes"),
}


@pytest.mark.parametrize("change, reason", DAMAGED.values(), ids=DAMAGED.keys())
def test_a_damaged_record_is_rejected_with_its_reason(change, reason):
    with pytest.raises(LogError, match=reason):
        parse_record(_damage(played_out(SEED), change), "damaged")


def test_a_hand_cut_short_is_no_drawn_game():
    damaged = _damage(played_out(SEED), lambda s: s.update(a=s["a"][:-30]))
    with pytest.raises(LogError, match="the game cannot end drawn"):
        Replay(parse_record(damaged, "cut")).check()


def _real(k: int = 0) -> dict:
    return _session()["records"][k]


def _win(step):
    return next(m for m in step["a"] if m[0] & 15 == 6)


REAL_DAMAGED = {  # what is changed in the session's first hand: the reason it is rejected with
    "a false win (错和)": (lambda s: _win(s).__setitem__(1, 0), "错和"),
    "the win's fans not the table's": (lambda s: _win(s).__setitem__(1, 40),
                                       "declares 20 fans but the fan table totals 15"),
    "another winner": (lambda s: s.update(b=0x81), "seat 2 wins, but the result names"),
    "self-drawn for a discard": (lambda s: s.update(b=0x44), "discarder .* is not the replay's"),
    "another hand": (lambda s: s["y"][2]["h"]["s"].__setitem__(0, 1), "the server's hand of seat 2 .* is not the hand"),
    "no fan table": (lambda s: s["y"].__setitem__(2, {}), "no fan table for the winner, seat 2"),
    "a fan of no index": (lambda s: s["y"][2]["t"].update({"99": 1}), "has an index that is no fan"),
    "an action after the win": (lambda s: s["a"].append([7, 3, 0]), "an action after the win"),
    "two winners": (lambda s: s["a"].append([6, 30, 0]), "a second win on the same tile"),
    "a chow without the discard": (lambda s: s["a"].__setitem__(53, [3, 19523 ^ 0xC00, 86284]),
                                   r"seat 0's chow \[8, 12, 17\] does not take the discard, tile 11"),
}


@pytest.mark.parametrize("change, reason", REAL_DAMAGED.values(), ids=REAL_DAMAGED.keys())
def test_a_damaged_real_record_is_rejected_with_its_reason(change, reason):
    with pytest.raises(LogError, match=reason):
        parse_record(_damage(_real(), change), "damaged")


def test_a_fan_table_that_differs_is_reported_not_rejected():
    # the server's 15: 花龙 8, 和绝张 4, 平和 2, 喜相逢 1; here 边张 for 喜相逢: the same total, other fans
    other = _damage(_real(), lambda s: s["y"][2]["t"].update({"80": s["y"][2]["t"].pop("72")}))
    check = Replay(parse_record(other, "other table")).check()
    assert check.fan_line_matches is False and check.score_line_matches and check.fans.total == 15
    with pytest.raises(LogError, match="adds up to 16, not its total 15"):
        parse_record(_damage(_real(), lambda s: s["y"][2]["t"].update({"72": 2})), "bad sum")


def test_what_is_no_session_says_so(tmp_path):
    for data, reason in (({"records": 3}, "a Tziakcha record is a JSON object, got 3"),
                         ({"records": [{"id": "x"}]}, "the record has no 'step'"),
                         ({"step": {"w": "00"}}, "the wall 'w' is not")):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        (game,) = read_games(path)
        assert isinstance(game, BrokenGame) and reason in game.reason


# --- what reads them: the review, the log analysis, the service, the command -------------------

def test_a_hands_review_names_the_players_and_its_rules():
    from mjfast.review import render_page, review_game

    game = _games(_session())[2]
    review = review_game(game, value=False)
    assert [p["name"] for p in review["players"]] == ["ChaosDon", "Choimoe", "琳雨空", "米夜"]
    assert review["ruleset"] == "tziakcha" and review["result"]["logged_fans"] is True
    assert review["result"]["winner"] == 2 and review["result"]["fan_total"] == 16
    page = render_page(review)
    assert "rules tziakcha" in page and "player 2 (琳雨空) wins self-drawn, 16 fans" in page
    assert "the log's fans are the same" in page


def test_a_players_seats_are_reviewed_by_name_on_two_workers(tmp_path):
    from mjfast.review.run import review_logs

    summary = review_logs([SESSION], tmp_path, bot="Choimoe", value=False, workers=2)
    assert summary["games_reviewed"] == 16 and list(summary["players"]) == ["Choimoe"]
    seats = [g["reviewed"] for g in summary["games"]]
    assert seats[:4] == [[3], [2], [1], [0]]  # the seats turn with the hands
    assert (tmp_path / "GHQY2zTj-01.html").exists() and summary == json.loads(
        (tmp_path / "summary.json").read_text(encoding="utf-8"))
    one = review_logs([SESSION], tmp_path / "one", bot="Choimoe", value=False, workers=1)
    assert one["players"] == summary["players"]  # one worker or two: the same figures


def test_the_log_analysis_counts_the_servers_fans_and_the_players_by_name(tmp_path):
    from mjfast.logs import analyse_logs

    summary = analyse_logs([SESSION], tmp_path, workers=1, fan_aware=False)
    assert summary["games_analysed"] == 16 and summary["fan_lines"] == summary["fan_lines_matched"] == 16
    assert summary["score_lines_matched"] == 16 and set(summary["players_by_name"]) == set(NAMES)
    assert summary["players_by_name"]["ChaosDon"]["games"] == 16


def test_the_service_reviews_a_session_and_scores_under_the_rulebooks():
    from mjfast.service.server import handle

    text = SESSION.read_text(encoding="utf-8")
    result = handle({"op": "review", "log": text, "game": 3, "player": 0, "value": False})["result"]
    assert result["games"] == 16 and result["match_id"] == "GHQY2zTj-04" and "rules tziakcha" in result["html"]
    again = handle({"op": "review", "log": text, "game": 3, "player": 0, "value": False, "ruleset": "wmo2014"})
    assert "rules wmo2014" in again["result"]["html"]
    kongs = "[1111p1][2222s]345m678m8p8p"
    scored = handle({"op": "score", "hand": kongs, "ruleset": "wmo2014"})["result"]
    assert scored["total"] == 10 and scored["ruleset"] == "wmo2014" and scored["win_tile"] == "8p"
    best = handle({"op": "score", "hand": "123456789m12333p", "best_tile": True, "ruleset": "tziakcha"})["result"]
    assert best["win_tile"] == "2m" and best["total"] == 23
    advice = handle({"op": "advise", "hand": "123m456p789s1357sE", "ruleset": "tziakcha", "ranking": "fan-aware"})
    assert advice["result"]["options"][0]["tile"] and "error" not in advice
    assert handle({"op": "advise", "hand": "123m456p789s1357sE", "ruleset": "wmo"})["error"]["code"] == "bad_param"
    both = {"mixed_kongs_six": True}  # with the judge's mixed_kongs_five: a contradiction
    assert handle({"op": "score", "hand": kongs, "ruleset": both})["error"]["code"] == "bad_param"


def test_the_fan_command_takes_a_ruleset_and_the_best_tile(capsys):
    assert cli.main(["fan", "123456789m12333p", "--best-tile", "--ruleset", "tziakcha"]) == 0
    out = capsys.readouterr().out
    assert "wins on 2m (the best of its tiles)" in out and "total 23" in out
    assert cli.main(["fan", "[1111p1][2222s]345m678m8p8p", "--ruleset", "wmo2014"]) == 0
    out = capsys.readouterr().out
    assert "双明杠" in out and "total 10" in out
