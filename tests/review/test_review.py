"""`mjfast review`: every decision of a player against mjfast's options, a page per game.

On the three real Botzone matches: the review's rows are `mjfast logs --value`'s rows for the
same decisions (and its own figures agree with them), its points lost and bad moves are those
of best_discards and claim_options of the same positions, every step of the game is on the
page, and for a given step the page shows the options best_discards gives for that table;
the fan names it writes in Chinese come with the web page's font, inline.
"""

from __future__ import annotations

import base64
import json
import re
from html.parser import HTMLParser

import pyarrow.parquet as pq
import pytest
from fontTools.ttLib import TTFont

from mjfast import best_discards, claim_options, cli
from mjfast.advice.loss import BAD_POINTS, BAD_SHARE
from mjfast.advice.model import draws_left
from mjfast.game import InProcessAgent, Replay, ShantenBot, play_game, read_botzone
from mjfast.game.walls import deal_walls
from mjfast.logs import analyse_logs
from mjfast.review import render_page, review_game, review_logs
from mjfast.review.summary import Summary, wilson
from mjfast.tiles import TILE_NAMES
from mjfast.web import make_font

from ..data import LOGS

REAL = sorted((LOGS / "botzone_json").glob("*.json"))
FLOWERS = sorted((LOGS / "botzone_json" / "judge").glob("flowers-*.json"))


@pytest.fixture(scope="module")
def reviews():
    return {path.stem: review_game(read_botzone(path), file=str(path)) for path in REAL}  # by value: the default


def test_a_review_is_the_same_on_one_thread_or_several(reviews):
    """review_game by value runs a game's queries on every core (advice.value.at_once): the
    module's reviews (the default threads) are those of one thread, and of three."""
    game = read_botzone(REAL[0])
    alone = review_game(game, file=str(REAL[0]), threads=1)
    assert alone == reviews[REAL[0].stem] == review_game(game, file=str(REAL[0]), threads=3)


@pytest.fixture(scope="module")
def logs_run(tmp_path_factory):
    """`mjfast logs --value` of the three matches: (summary, output folder)."""
    out = tmp_path_factory.mktemp("logs")
    return analyse_logs(REAL, out, workers=1, value=True), out


@pytest.fixture(scope="module")
def logs_rows(logs_run):
    rows = pq.read_table(logs_run[1] / "decisions.parquet").to_pylist()
    return {(r["match_id"], r["kind"], r["line"], r["player"]): r for r in rows}


def test_mjfast_logs_value_gives_a_table_of_players_with_the_reviews_figures(reviews, logs_run, tmp_path):
    named = logs_run[0]["players_by_name"]
    assert set(named) == {"seat 0", "seat 1", "seat 2", "seat 3"}  # these logs name no bot
    for seat in range(4):
        mine = [d for r in reviews.values() for d in r["decisions"] if d["player"] == seat and d["kind"] == "discard"]
        figures = named[f"seat {seat}"]
        assert figures["games"] == 3 and figures["discards"] == len(mine)
        assert figures["value_agreement"] == round(sum(d["agrees"] for d in mine) / len(mine), 4)
        assert figures["value_top3"] == round(sum(d["top3"] for d in mine) / len(mine), 4)
        assert figures["bad_moves"] == sum(d["bad_move"] for d in mine)
        assert abs(figures["points_lost"]["mean"] - sum(d["points_lost"] for d in mine) / len(mine)) <= 1e-3
        low, high = figures["value_agreement_interval"]
        assert low <= figures["value_agreement"] <= high
    assert sum(f["bad_moves"] for f in named.values()) > 0
    report = (logs_run[1] / "report.md").read_text(encoding="utf-8")
    assert "| seat 3 | 3 |" in report and "bad moves" in report
    # a judge's log names its bots: the table is by name
    summary = analyse_logs([FLOWERS[0]], tmp_path, workers=1)
    names = set(summary["players_by_name"])
    assert "mjfast-kr" in names and not any(n.startswith("seat ") for n in names)
    assert summary["players_by_name"]["mjfast-kr"]["bad_moves"] is None  # no value figures without --value


def test_the_review_rows_are_mjfast_logs_rows_of_the_same_decisions(reviews, logs_rows):
    seen = set()
    for match_id, review in reviews.items():
        for d in review["decisions"]:
            if d["kind"] not in ("discard", "claim"):
                # a win or kong declined before a discard: that discard's row, value cells included
                assert d["logs"] is None or d["logs"]["kind"] == "discard"
                if d["logs"] is not None:
                    row = dict(logs_rows[(match_id, "discard", d["line"], d["player"])])
                    row.pop("match_id")
                    assert {**d["logs"], "game": row["game"]} == row
                continue
            key = (match_id, d["kind"], d["line"], d["player"])
            row = dict(logs_rows[key])
            row.pop("match_id")
            # the same row but for `game`, a game's position among the games a run reads
            assert {**d["logs"], "game": row["game"]} == row
            seen.add(key)
            if d["kind"] == "discard":
                by_choice = {o["choice"]: o for o in d["options"]}
                chosen, best = by_choice[d["choice"]], d["options"][0]
                assert d["choice"] == f"play {row['tile']}" and d["rank"] == row["value_rank"]
                assert best["tile"] == row["best_value"] and d["mjfast"] == f"play {row['best_value']}"
                assert (chosen["effective_shanten"], chosen["valid_acceptance"]) == (
                    row["effective_shanten_after"], row["valid_acceptance_after"])
                assert (chosen["shanten"], chosen["acceptance"]) == (row["shanten_after"], row["acceptance_after"])
                for figure, after, at_best in (("expected_score", "expected_score_after", "best_expected_score"),
                                               ("win_probability", "win_probability_after", "best_win_probability")):
                    assert abs(chosen[figure] - row[after]) <= 6e-4 and abs(best[figure] - row[at_best]) <= 6e-4
                assert d["agrees"] == (row["value_rank"] == 1)
                # the points lost as `mjfast logs --value` counts them (in thousandths)
                assert abs(d["points_lost"] - max(0.0, row["best_expected_score"] - row["expected_score_after"])) \
                    <= 1.1e-3
            else:
                choices = {o["choice"].split()[0] for o in d["options"]}
                assert choices == {"pass", *row["options"].split()}
                assert d["choice"].split()[0] == row["action"]
                assert d["shanten_before"] == row["shanten_before"]
                claims = [o for o in d["options"] if o["choice"] not in ("pass", "hu", "gang")]
                if claims:  # the best shanten a claim gave, as `mjfast logs` counts it
                    assert min(o["shanten"] for o in claims) >= row["claim_shanten"]
    # every decision of the table, and no other
    assert seen == set(logs_rows)
    counts = {m: sum(1 for d in r["decisions"] if d["kind"] == "discard") for m, r in reviews.items()}
    assert counts == {"ijcai2026-13-18-56": 54, "ijcai2026-13-22-10": 71, "ijcai2026-13-25-38": 59}


def _claim_key(option) -> str:
    """A claim_options option as the review names it."""
    if option.action == "chow":  # "[789s3]": the run 789s, its middle tile 8s
        digits = option.meld.strip("[]")
        return f"chi {digits[1]}{digits[3]}"
    return {"win": "hu", "pass": "pass", "pung": "peng", "kong": "gang"}[option.action]


def test_points_lost_and_bad_moves_are_those_of_best_discards_and_claim_options(reviews):
    """Each discard and claim of the three matches, valued again at its table: the review's
    figures are those of mjfast's first option and of the choice, and a bad move is one that
    loses BAD_POINTS and BAD_SHARE of the best's expected score."""
    bad = checked = 0
    for path in REAL:
        review = reviews[path.stem]
        at_step: dict = {}
        for d in review["decisions"]:
            if d["kind"] in ("discard", "claim"):
                at_step.setdefault(d["step"], []).append(d)
        for k, (_, _, table) in enumerate(Replay(read_botzone(path))):
            for d in at_step.pop(k, ()):
                p = d["player"]
                conditions = dict(seat_wind=p, prevalent_wind=table.prevalent_wind, flowers=table.seats[p].flowers,
                                  draws=draws_left(table.own_draws_left(p)))
                if d["kind"] == "discard":
                    options = best_discards(table.hand(p), visible=table.visible_to(p), drawn=table.drawn(p),
                                            **conditions)
                    keyed = [(f"play {o.tile}", o) for o in options]
                else:
                    giver, tile = table.pending
                    visible = table.visible_to(p)
                    visible[tile] -= 1
                    allowed = {o["choice"] for o in d["options"]}
                    keyed = [(_claim_key(o), o) for o in claim_options(table.hand(p), tile, (p - giver) % 4, visible,
                                                                         **conditions)]
                    keyed = [(key, o) for key, o in keyed if key in allowed]
                best = keyed[0][1]
                chosen = next(o for key, o in keyed if key == d["choice"])
                lost = max(0.0, best.expected_score - chosen.expected_score)
                assert d["mjfast"] == keyed[0][0]
                assert abs(d["expected_score"] - chosen.expected_score) <= 1e-4
                assert abs(d["best_expected_score"] - best.expected_score) <= 1e-4
                assert abs(d["win_probability"] - chosen.win_probability) <= 1e-4
                assert abs(d["points_lost"] - lost) <= 2e-4
                assert d["bad_move"] == (lost >= BAD_POINTS and lost >= BAD_SHARE * best.expected_score)
                bad += d["bad_move"]
                checked += 1
        assert set(at_step) <= {len(review["steps"]) - 1}  # only the claims on the game's last discard are left
    assert checked > 200 and bad > 0


def test_costs_and_flags(reviews):
    game = reviews["ijcai2026-13-22-10"]
    [win] = [d for d in game["decisions"] if d["kind"] == "win"]
    # player 1 drew a self-drawn win of 8 fans at line 186 and played on
    assert (win["player"], win["line"], win["choice"], win["mjfast"]) == (1, 188, "play on", "hu")
    assert win["flags"] == ["win_declined"] and win["cost"] == {"shanten": 1}
    assert win["options"][0]["points"] == 8
    pung = next(d for d in reviews["ijcai2026-13-18-56"]["decisions"] if d["flags"] == ["claim_lowers_value"])
    by_choice = {o["choice"]: o for o in pung["options"]}
    assert pung["choice"] == "peng" and by_choice["peng"]["valid_acceptance"] < by_choice["pass"]["valid_acceptance"]
    for review in reviews.values():
        for d in review["decisions"]:
            if d["kind"] == "discard" and d["rank"] == 1:
                assert d["agrees"] and all(v == 0 for v in d["cost"].values())


def test_a_win_never_declared_is_flagged_each_time():
    class NoWins(ShantenBot):
        def winning_response(self, tile):
            return None

    wall = "duplicate"
    log = play_game([InProcessAgent(NoWins(wall=wall)) for _ in range(4)], deal_walls(5, wall), 1).log
    review = review_game(log)
    declined = [d for d in review["decisions"] if "win_declined" in d["flags"]]
    assert declined and all(d["mjfast"] == "hu" and d["choice"] in ("play on", "pass") for d in declined)
    thrown = [d for d in review["decisions"] if "winning_tile_discarded" in d["flags"]]
    assert thrown  # ShantenBot plays the first tile that keeps the shape, a winning one too
    for d in thrown:  # the hand the discard leaves waits on the tile played, for 8 fans or more
        chosen = next(o for o in d["options"] if o["choice"] == d["choice"])
        assert any(w["tile"] == d["tile"] and w["fans"] >= 8 for w in chosen["waits"])


class _Page(HTMLParser):
    """The steps of a review page and, per step, its decisions' option rows."""

    def __init__(self):
        super().__init__()
        self.steps, self.external = [], []
        self._decision = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section" and "step" in attrs.get("class", "").split():
            self.steps.append({"step": int(attrs["data-step"]), "decisions": []})
        elif tag == "div" and "decision" in attrs.get("class", "").split():
            self._decision = {"kind": attrs["data-kind"], "player": int(attrs["data-player"]),
                              "choice": attrs["data-choice"], "mjfast": attrs["data-mjfast"], "rows": []}
            self.steps[-1]["decisions"].append(self._decision)
        elif tag == "tr" and "data-choice" in attrs:
            self._decision["rows"].append((attrs["data-choice"], attrs.get("class", "").split()))
        if tag in ("link", "img", "iframe") or "src" in attrs or (attrs.get("href") or "").startswith("http"):
            self.external.append((tag, attrs))


def test_the_page_holds_every_step_and_the_advice_of_best_discards(reviews, tmp_path):
    path = REAL[0]
    review = reviews[path.stem]
    html = render_page(review)
    page = _Page()
    page.feed(html)
    assert [s["step"] for s in page.steps] == list(range(len(review["steps"]))) and len(page.steps) == 110
    assert page.external == [] and "http" not in _without_font(html)[0]  # self-contained: nothing fetched
    assert html.count("<script>") == 1 and "<style>" in html
    # a discard with a choice that is not mjfast's: the page's ranking is best_discards' of that table
    game = read_botzone(path)
    shown = next(d for d in review["decisions"] if d["kind"] == "discard" and d["rank"] > 3)
    table = next(step.table for k, step in enumerate(Replay(game)) if k == shown["step"])
    p = shown["player"]
    advice = best_discards(table.hand(p), visible=table.visible_to(p), seat_wind=p,
                           prevalent_wind=table.prevalent_wind, flowers=table.seats[p].flowers)
    [decision] = [d for d in page.steps[shown["step"]]["decisions"] if d["kind"] == "discard"]
    assert [choice for choice, _ in decision["rows"]] == [f"play {o.tile}" for o in advice]
    assert decision["rows"][0][1] == ["mjfast"] and decision["mjfast"] == f"play {advice[0].tile}"
    assert "chosen" in dict(decision["rows"])[decision["choice"]]
    assert decision["choice"] == f"play {TILE_NAMES[game.actions[shown['step']].tile]}"
    # every decision of the review is on the page, at its step
    assert sum(len(s["decisions"]) for s in page.steps) == len(review["decisions"])
    # the overview: a curve per seat reviewed, the decisions that lost most (worst first) linked to their step
    assert html.count('<svg class="curve"') == 4
    worst = sorted((d for d in review["decisions"] if d["points_lost"]), key=lambda d: -d["points_lost"])[:10]
    listed = html[html.index('<div class="worst">'):]
    positions = [listed.index(f'href="#step-{d["step"]}"') for d in worst]
    assert positions == sorted(positions)
    assert html.count('data-bad="1"') == sum(d["bad_move"] for d in review["decisions"]) > 0
    assert html.count("bad move</span>") == sum(d["bad_move"] for d in review["decisions"])


def _without_font(html: str) -> "tuple[str, str]":
    """The page less its @font-face (whose base64 could hold any word), and the @font-face."""
    face = re.search(r"@font-face\{[^}]*\}", html)
    return (html, "") if face is None else (html[:face.start()] + html[face.end():], face.group())


def test_the_chinese_of_a_page_is_drawn_in_the_web_pages_font(reviews):
    """A win's fan names are written in Chinese: the page carries the web page's font inline
    (static/fonts/page-cjk.woff as a data: URL, for make_font.CJK_RANGES as style.css), which
    holds every CJK character the page writes; a page without Chinese carries no font (76 KB)."""
    cmap = TTFont(str(make_font.FONT)).getBestCmap()
    ranges = ", ".join(f"U+{lo:04X}-{hi:04X}" for lo, hi in make_font.CJK_RANGES)
    for review in reviews.values():
        html = render_page(review)
        rest, face = _without_font(html)
        woff = re.fullmatch(r'@font-face\{font-family:"mjfast CJK";src:url\(data:font/woff;base64,([A-Za-z0-9+/=]+)\) '
                            rf'format\("woff"\);unicode-range:{re.escape(ranges)}\}}', face)
        assert woff and base64.b64decode(woff.group(1)) == make_font.FONT.read_bytes()
        assert 'body{font:14px/1.4 "mjfast CJK",' in rest
        written = set(make_font.CJK.findall(rest))
        assert written >= {c for f in review["result"]["fans"] for c in make_font.CJK.findall(f["name"])} and written
        assert sorted(c for c in written if ord(c) not in cmap) == []
    drawn = {**review, "result": {**review["result"], "kind": "draw"}}
    html = render_page(drawn)
    assert "@font-face" not in html and not make_font.CJK.search(html)


def test_the_value_figures_of_an_option_are_shown_and_costed():
    review = review_game(read_botzone(REAL[0]), players=[2], value=True)
    discard = next(d for d in review["decisions"] if d["kind"] == "discard" and d["rank"] > 1)
    best = discard["options"][0]
    chosen = next(o for o in discard["options"] if o["choice"] == discard["choice"])
    for name in ("win_probability", "expected_score"):
        assert isinstance(best[name], float) and discard["cost"][name] == round(best[name] - chosen[name], 4)
    assert best["expected_score"] >= chosen["expected_score"]  # the value ranking puts the most first
    html = render_page(review)
    assert "<th>win probability</th>" in html and "<th>expected score</th>" in html
    summary = Summary("seat 2")
    summary.add_game(review, 2)
    assert set(summary.to_dict()["cost"]) >= {"win_probability", "expected_score"}


def test_with_value_false_the_discards_are_ranked_fan_aware(reviews):
    game = read_botzone(REAL[0])
    fast = review_game(game, players=[2], value=False)
    slow = reviews[REAL[0].stem]
    discards = [d for d in fast["decisions"] if d["kind"] == "discard"]
    assert len(discards) == sum(1 for d in slow["decisions"] if d["kind"] == "discard" and d["player"] == 2)
    for d in discards:
        row = d["logs"]  # mjfast logs' row of the same decision, without --value
        assert d["rank"] == row["fan_aware_rank"] and d["mjfast"] == f"play {row['best_fan_aware']}"
        assert all(o["expected_score"] is None for o in d["options"])
        assert d["points_lost"] is None and d["bad_move"] is None
    assert "value_rank" not in discards[0]["logs"] or discards[0]["logs"]["value_rank"] is None


def test_the_summary_counts_and_its_intervals(reviews):
    assert wilson(5, 10) == [0.2366, 0.7634] and wilson(0, 0) is None and wilson(10, 10)[1] == 1.0
    summary = Summary("seat 0")
    for review in reviews.values():
        summary.add_game(review, 0)
    figures = summary.to_dict()
    mine = [d for r in reviews.values() for d in r["decisions"] if d["player"] == 0]
    assert figures["games"] == 3 and figures["decisions"] == len(mine)
    assert figures["agreement"] == round(sum(d["agrees"] for d in mine) / len(mine), 4)
    low, high = figures["agreement_interval"]
    assert low < figures["agreement"] < high
    costs = [d["cost"]["acceptance"] for d in mine if "acceptance" in d["cost"]]
    acceptance = figures["cost"]["acceptance"]
    assert acceptance["n"] == len(costs) and acceptance["mean"] == round(sum(costs) / len(costs), 4)
    assert acceptance["interval"][0] < acceptance["mean"] < acceptance["interval"][1]
    assert sum(t["decisions"] for t in figures["by_turn"]) == len(mine)
    assert sum(s["decisions"] for s in figures["by_shanten"]) == len(mine)
    costliest = figures["costliest"]
    assert 0 < len(costliest) <= 10
    keys = [(c["points_lost"] or 0, *(c["cost"].get(k) or 0 for k in ("shanten", "valid_acceptance", "acceptance")))
            for c in costliest]
    assert keys == sorted(keys, reverse=True)
    # the points lost and bad moves, over the decisions the value ranking figures (discards and claims)
    valued = [d for d in mine if d["points_lost"] is not None]
    assert {d["kind"] for d in valued} == {"discard", "claim"} and figures["valued"] == len(valued)
    assert figures["bad_moves"] == sum(d["bad_move"] for d in valued)
    assert figures["bad_move_rate"] == round(figures["bad_moves"] / len(valued), 4)
    lost = figures["points_lost"]
    assert lost["n"] == len(valued) and lost["mean"] == round(sum(d["points_lost"] for d in valued) / len(valued), 4)
    assert lost["interval"][0] <= lost["mean"] <= lost["interval"][1]
    assert figures["bad_move_interval"][0] <= figures["bad_move_rate"] <= figures["bad_move_interval"][1]


def test_the_command_writes_a_page_and_data_per_game_and_a_summary(tmp_path, capsys):
    out = tmp_path / "review"
    assert cli.main(["review", str(REAL[0]), str(FLOWERS[0]), "--player", "3", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("2 games reviewed of 2 read") and "agreement" in text
    assert sorted(p.name for p in out.iterdir()) == [
        "flowers-game-1-hu.html", "flowers-game-1-hu.json", "ijcai2026-13-18-56.html", "ijcai2026-13-18-56.json",
        "summary.json"]
    data = json.loads((out / "ijcai2026-13-18-56.json").read_text(encoding="utf-8"))
    assert data["schema"] == "mjfast-review/1" and data["reviewed"] == [3]
    assert {d["player"] for d in data["decisions"]} == {3} and "seat 3" in data["summary"]
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert set(summary["players"]) == {"seat 3", "mjfast-kr"} and summary["games_reviewed"] == 2
    # a bot by name: the seats it plays in the Botzone JSON logs that name it
    figures = review_logs([FLOWERS[0], FLOWERS[1]], tmp_path / "bot", bot="mjfast-kr")
    assert [g["reviewed"] for g in figures["games"]] == [[3], [1]] and list(figures["players"]) == ["mjfast-kr"]
    nobody = review_logs([REAL[0]], tmp_path / "none", bot="mjfast-kr")
    assert nobody["games_reviewed"] == 0 and nobody["games_without_the_player"] == 1
    with pytest.raises(SystemExit) as exited:
        cli.main(["review", str(REAL[0]), "--player", "1", "--bot", "x", "--out", str(tmp_path / "x")])
    assert exited.value.code == 2 and "not allowed with" in capsys.readouterr().err


def test_a_lone_game_is_reviewed_in_this_process_on_every_core(reviews, tmp_path, monkeypatch):
    """No process is spawned for one game: its queries run on `workers` threads here, with the
    review one thread gives."""
    from mjfast.logs import execute

    def no_pool(workers):
        raise AssertionError("a lone game spawned a pool")

    monkeypatch.setattr(execute, "spawned_pool", no_pool)
    summary = review_logs([REAL[0]], tmp_path, workers=2)
    assert summary["games_reviewed"] == 1
    data = json.loads((tmp_path / summary["games"][0]["data"]).read_text(encoding="utf-8"))
    assert data["decisions"] == reviews[REAL[0].stem]["decisions"]
    again = review_logs([REAL[0]], tmp_path, workers=2)  # kept by the run before: read back, not reviewed again
    assert again["games"] == summary["games"]
