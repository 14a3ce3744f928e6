"""`mjfast serve`, used the way a bot uses it: a separate process spoken to in JSON lines over
its stdin/stdout, or over HTTP. Results agree with the library; bad requests get error
objects and never end the service."""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys

import pytest

import mjfast
from mjfast.fan import score, settle

SERVE = [sys.executable, "-m", "mjfast.cli", "serve"]


@pytest.fixture(scope="module")
def lines():
    proc = subprocess.Popen(SERVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(request) -> dict:
        proc.stdin.write((request if isinstance(request, str) else json.dumps(request)) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    yield ask
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0


def test_advise_agrees_with_best_discards(lines):
    hand, visible = "123m456p789s1357sE", "1s 1s 4s"
    response = lines({"id": 7, "op": "advise", "hand": hand, "visible": visible})
    assert response["id"] == 7
    result = response["result"]
    expected = mjfast.best_discards(hand, visible=visible)
    assert [o["tile"] for o in result["options"]] == [o.tile for o in expected]
    assert [o["acceptance"] for o in result["options"]] == [o.acceptance for o in expected]
    assert result["shanten"] == mjfast.shanten(hand) and result["hand"] == mjfast.parse_hand(hand).to_compact()
    assert set(result["options"][0]) >= {"tile", "shanten", "useful", "acceptance", "next_acceptance"}
    tie = "123m456p789s556sWN"  # W and N: the same figures; the drawn one goes first
    for drawn in ("W", "N"):
        result = lines({"id": 8, "op": "advise", "hand": tie, "drawn": drawn})["result"]
        assert [o["tile"] for o in result["options"]] == [o.tile for o in mjfast.best_discards(tie, drawn=drawn)]
        assert result["options"][0]["tile"] == drawn


def test_every_operation(lines):
    ready = "[123m1]456p789s13sEE"
    assert lines({"op": "parse", "hand": ready})["result"]["melds"] == ["[123m1]"]
    assert lines({"op": "shanten", "hand": ready})["result"]["shanten"] == mjfast.shanten(ready)
    waits = lines({"op": "waits", "hand": ready, "fans": True, "seat_wind": "S"})["result"]
    assert waits["waits"] == mjfast.waits(ready) == ["2s"]
    assert waits["fans"][0]["tile"] == "2s" and isinstance(waits["fans"][0]["meets_minimum"], bool)
    acceptance = lines({"op": "acceptance", "hand": ready, "visible": "2s"})["result"]
    assert acceptance["acceptance"] == mjfast.acceptance(ready, visible="2s") == 3
    win = "123m456p789s123sEE"
    scored = lines({"op": "score", "hand": win, "self_drawn": True, "prevalent_wind": 2})["result"]
    expected = score(win, self_drawn=True, prevalent_wind=2)
    assert scored["total"] == expected.total and [f["name_cn"] for f in scored["fans"]] == [f.name_cn for f in
                                                                                              expected.fans]
    settled = lines({"op": "settle", "hand": win, "winner": 1, "discarder": 3})["result"]
    assert settled["scores"] == settle(score(win), 1, 3)
    version = lines({"op": "version"})["result"]
    assert version["protocol"] == 1 and "advise" in version["ops"]


@pytest.mark.parametrize("request_text, code", [
    ("this is not json", "bad_json"),
    ("[1, 2]", "bad_request"),
    ('{"id": 1}', "bad_request"),
    ('{"id": 1, "op": "divine"}', "unknown_op"),
    ('{"id": 1, "op": "shanten"}', "bad_param"),
    ('{"id": 1, "op": "shanten", "hand": 12}', "bad_param"),
    ('{"id": 1, "op": "shanten", "hand": "123m", "colour": "red"}', "bad_param"),
    ('{"id": 1, "op": "shanten", "hand": "123m"}', "bad_hand"),
    ('{"id": 1, "op": "advise", "hand": "123m456p789s1357s"}', "bad_hand"),
    ('{"id": 1, "op": "advise", "hand": "123m456p789s1357sE", "drawn": "9m"}', "bad_hand"),
    ('{"id": 1, "op": "advise", "hand": "123m456p789s1357sE", "drawn": ["E"]}', "bad_param"),
    ('{"id": 1, "op": "score", "hand": "123m456p789s1357sE"}', "bad_hand"),
    ('{"id": 1, "op": "settle", "hand": "123m456p789s123sEE", "winner": 7}', "bad_param"),
    ('{"id": 1, "op": "shanten", "hand": "123m456p789s1357sE", "v": 2}', "unsupported_version"),
])
def test_a_bad_request_gets_an_error_and_the_service_goes_on(lines, request_text, code):
    response = lines(request_text)
    assert set(response) == {"id", "error"} and response["error"]["code"] == code
    assert response["error"]["message"]
    assert lines({"id": "after", "op": "shanten", "hand": "123m456p789s1357sE"})["result"]["shanten"] == 1


def test_ids_of_any_kind_come_back_in_order(lines):
    ids = [0, "x", {"game": 3}, [1, 2], None, 2.5]
    for request_id in ids:
        assert lines({"id": request_id, "op": "shanten", "hand": "123m456p789s1357sE"})["id"] == request_id


@pytest.fixture(scope="module")
def http_port():
    proc = subprocess.Popen(SERVE + ["--http", "127.0.0.1:0"], stderr=subprocess.PIPE, text=True)
    banner = proc.stderr.readline()
    port = int(re.search(r":(\d+)$", banner.strip()).group(1))
    yield port
    proc.terminate()
    proc.wait(timeout=30)


def _post(conn, body) -> tuple[int, dict]:
    conn.request("POST", "/", body=body if isinstance(body, str) else json.dumps(body),
                 headers={"Content-Type": "application/json"})
    reply = conn.getresponse()
    return reply.status, json.loads(reply.read())


def test_http_requests_on_one_kept_alive_connection(http_port):
    conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=30)
    status, response = _post(conn, {"id": 1, "op": "advise", "hand": "123m456p789s1357sE"})
    best = mjfast.best_discards("123m456p789s1357sE")[0].tile
    assert status == 200 and response["result"]["options"][0]["tile"] == best
    status, response = _post(conn, "{broken")
    assert status == 400 and response["error"]["code"] == "bad_json"
    status, response = _post(conn, {"id": 3, "op": "waits", "hand": "123m456p789s123sE"})
    assert status == 200 and response == {"id": 3, "result": {"waits": ["E"], "acceptance": 3}}
    conn.request("GET", "/")
    reply = conn.getresponse()
    assert reply.status == 200 and json.loads(reply.read())["result"]["protocol"] == 1
    conn.close()


def test_tiles_parse_and_ruleset_parameters():
    from mjfast.fan import Ruleset
    from mjfast.service.server import handle

    tiles = handle({"op": "tiles", "tiles": "1s 1s 4s [EEE2]"})["result"]
    assert tiles["tiles"] == ["1s", "1s", "4s", "E", "E", "E"]
    assert sum(tiles["counts"]) == 6 and tiles["counts"][27] == 3
    assert handle({"op": "tiles", "tiles": "1s1s1s1s1s"})["error"]["code"] == "bad_hand"
    assert handle({"op": "parse", "hand": "123m456p789s1357sE"})["result"]["last_tile"] == "E"
    assert handle({"op": "parse", "hand": [1] * 13 + [0] * 21})["result"]["last_tile"] is None  # 34 counts: no order
    hand = "1122m3344p5566s77p"  # seven pairs: the strict 1998 reading takes no 全中 / 缺一门 ... with it
    for ruleset, rules in (("strict_1998", Ruleset.strict_1998()), ({"minimum": 30}, Ruleset(minimum=30)),
                           ({"seven_pairs_tile_fans": False}, Ruleset(seven_pairs_tile_fans=False)), ("judge", None)):
        scored = handle({"op": "score", "hand": hand, "ruleset": ruleset})["result"]
        expected = score(hand, ruleset=rules)
        assert (scored["total"], scored["meets_minimum"]) == (expected.total, expected.meets_minimum)
        assert [f["name_cn"] for f in scored["fans"]] == [f.name_cn for f in expected.fans]
    assert handle({"op": "settle", "hand": hand, "winner": 0, "discarder": 1, "ruleset": {"minimum": 99}}
                  )["error"]["code"] == "bad_hand"
    for bad in ("strict", 3, {"minimun": 9}, {"minimum": True}, {"formal_waits": 1}):
        assert handle({"op": "score", "hand": hand, "ruleset": bad})["error"]["code"] == "bad_param"


def test_review_of_a_log_in_either_format():
    """The review operation: a Botzone JSON match and a text-format log give the page of
    mjfast review; a log that does not read and a game out of range say so."""
    from mjfast.game import read_botzone, read_games
    from mjfast.review import render_page, review_game
    from mjfast.review.summary import Summary
    from mjfast.service.server import handle
    from tests.data import LOGS

    path = sorted((LOGS / "botzone_json").glob("*.json"))[0]
    result = handle({"op": "review", "log": path.read_text(encoding="utf-8"), "player": 2})["result"]
    review = review_game(read_botzone(path), [2])
    assert result["games"] == 1 and result["decisions"] == len(review["decisions"]) > 0
    review = {**review, "match_id": "web"}
    seat = Summary("seat 2")  # the page's header: the reviewed players' figures
    seat.add_game(review, 2)
    assert result["html"] == render_page(review, {"seat 2": seat.to_dict()}) and result["match_id"] == "web"
    assert 'data-lost="' in result["html"]  # by value: the points each decision lost
    text = (LOGS / "botzone_mahjong_gb_16matches.txt").read_text(encoding="utf-8")
    second = handle({"op": "review", "log": text, "game": 1})["result"]
    game = list(read_games(LOGS / "botzone_mahjong_gb_16matches.txt"))[1]
    assert second["games"] == 16 and second["match_id"] == game.match_id
    assert second["decisions"] == len(review_game(game)["decisions"])
    for params, code in (({"log": "no log here"}, "bad_log"), ({"log": "{"}, "bad_log"),
                         ({"log": text, "game": 16}, "bad_param"), ({"log": text, "player": 4}, "bad_param"),
                         ({}, "bad_param")):
        error = handle({"op": "review", **params})["error"]
        assert error["code"] == code and error["message"]


def test_advise_and_claim_with_opponents_a_budget_and_the_model(lines):
    hand, visible = "123m456p789s1357sE", "19mE CCC 1p2p"
    opponents = [{"seat": "S", "discards": "19mE", "melds": "[CCC1]", "draws": 12},
                 {"seat": 2, "discards": ["1p", "2p"], "draws": 14}]
    result = lines({"op": "advise", "hand": hand, "visible": visible, "draws": 8, "opponents": opponents})["result"]
    from mjfast.advice.danger import hand_danger, opponent

    danger = hand_danger(hand, visible, [opponent("S", "19mE", "[CCC1]", 12), opponent(2, ["1p", "2p"], (), 14)],
                         "E", 8)
    expected = mjfast.best_discards(hand, visible=visible, draws=8, danger=danger)
    assert [o["tile"] for o in result["options"]] == [o.tile for o in expected] and result["model"] == "value"
    assert [o["deal_in"] for o in result["options"]] == [round(o.deal_in, 4) for o in expected]
    assert result["ready"] == [round(r, 4) for r in danger.ready] and len(result["ready"]) == 2
    plain = lines({"op": "advise", "hand": hand, "budget_ms": 60000})["result"]
    assert plain["model"] == "value" and "ready" not in plain and "deal_in" not in plain["options"][0]
    claim = lines({"op": "claim", "hand": "123m456p78s1157sE", "tile": "9s", "from": "left",
                   "opponents": opponents[:1], "budget_ms": 60000})["result"]
    assert claim["model"] == "value" and claim["options"][0]["action"] == "chow" and "deal_in" in claim["options"][0]
    assert lines({"op": "claim", "hand": "123m456p78s1157sE", "tile": "9s", "from": "left",
                  "ranking": "fan-aware"})["result"]["model"] == "fan-aware"
    # an opponent's passed tiles: safe against them
    passed = lines({"op": "advise", "hand": hand, "visible": visible, "draws": 8,
                    "opponents": [dict(opponents[0], passed="7s 5s")]})["result"]
    deal_in = {o["tile"]: o["deal_in"] for o in passed["options"]}
    assert deal_in["7s"] == deal_in["5s"] == 0.0 and deal_in["1s"] > 0.0


@pytest.mark.parametrize("request_text, code, words", [
    ('{"op": "advise", "hand": "123m456p789s1357sE", "budget_ms": 0}', "bad_param", "budget_ms"),
    ('{"op": "advise", "hand": "123m456p789s1357sE", "budget_ms": "fast"}', "bad_param", "a number"),
    ('{"op": "advise", "hand": "123m456p789s1357sE", "opponents": {"seat": "S"}}', "bad_param", "a list"),
    ('{"op": "advise", "hand": "123m456p789s1357sE", "opponents": [{"discards": "1m"}]}', "bad_param", "'seat'"),
    ('{"op": "advise", "hand": "123m456p789s1357sE", "opponents": [{"seat": "X"}]}', "bad_param", "seat"),
    ('{"op": "advise", "hand": "123m456p789s1357sE", "opponents": [{"seat": "S", "draws": 99}]}', "bad_param", "0..40"),
    ('{"op": "advise", "hand": "123m456p789s1357sE", "opponents": [{"seat": "S", "luck": 1}]}', "bad_param", "luck"),
    ('{"op": "advise", "hand": "123m456p789s1357sE", "opponents": [{"seat": "S"}, {"seat": "W"}, {"seat": "N"}, '
     '{"seat": "E"}]}', "bad_param", "at most 3"),
])
def test_bad_opponents_and_budgets_are_request_errors(lines, request_text, code, words):
    error = lines(request_text)["error"]
    assert error["code"] == code and words in error["message"]
