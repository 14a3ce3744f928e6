"""The analysis of one game (mjfast.logs.analysis): each figure of each decision row against an
independent reading of the same real games.

The references here do not share the analysis's shortcuts: hands are read off the replayed
table with TableState.hand, discards are ranked by the public mjfast.best_discards, claims are
found by asking TableState about every claim, and a win by scoring it.
"""

from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast.bots import RandomBot, ShantenBot
from mjfast.fan import score
from mjfast.game import LogError, Replay, parse_game, play_games, read_games
from mjfast.game.agents import InProcessAgent
from mjfast.game.state import CLAIM, ROB, IllegalAction
from mjfast.hand import CHOW, KONG, PUNG, Hand, Meld
from mjfast.logs import GameAnalyser
from mjfast.logs.columns import ACTIONS, KINDS, NA, OPTION_BITS, RESULTS, D, G
from mjfast.tiles import TILE_INDEX, TILE_NAMES

from ..data import LOGS

REAL = LOGS / "botzone_mahjong_gb_16matches.txt"
GAMES = list(read_games(REAL))
DISCARD, CLAIM_KIND = KINDS.index("discard"), KINDS.index("claim")


@pytest.fixture(scope="module")
def analysed():
    analyser = GameAnalyser()
    for index, game in enumerate(GAMES):
        analyser.analyse(game, index)
    decisions, games, match_ids, fans = analyser.take()
    return decisions, games, match_ids, fans


def _steps(game):
    """(table copy before the action, action, line) of every step of a replayed game, and the
    table after the last action."""
    import copy

    replay = Replay(game)
    steps = [(copy.deepcopy(step.table), step.action, step.line) for step in replay]
    return steps, replay.table


def _rows(decisions, index, kind):
    return decisions[(decisions[:, D["game"]] == index) & (decisions[:, D["kind"]] == kind)]


def _cell(value):
    return None if value == NA else int(value)


def test_every_real_discard_is_ranked_as_best_discards_ranks_it(analysed):
    decisions = analysed[0]
    checked = 0
    for index, game in enumerate(GAMES):
        steps, _ = _steps(game)
        plays = [(table, action, line) for table, action, line in steps if action.kind == "Play"]
        rows = _rows(decisions, index, DISCARD)
        assert len(rows) == len(plays)
        for row, (table, action, line) in zip(rows, plays):
            p, played = action.player, TILE_NAMES[action.tile]
            hand, visible = table.hand(p), table.visible_to(p)
            plain = mjfast.best_discards(hand, visible, fan_aware=False, next_step=False)
            fan = mjfast.best_discards(hand, visible, seat_wind=p, prevalent_wind=table.prevalent_wind,
                                       ranking="fan-aware")
            mine = [o.tile for o in plain].index(played)
            mine_fan = [o.tile for o in fan].index(played)
            assert (row[D["line"]], row[D["player"]], TILE_NAMES[row[D["tile"]]]) == (line, p, played)
            assert row[D["discard_options"]] == len(plain)
            assert (TILE_NAMES[row[D["best_plain"]]], row[D["plain_rank"]]) == (plain[0].tile, mine + 1)
            assert (row[D["shanten_after"]], row[D["acceptance_after"]]) == (plain[mine].shanten,
                                                                             plain[mine].acceptance)
            assert (row[D["best_shanten"]], row[D["best_acceptance"]]) == (plain[0].shanten, plain[0].acceptance)
            assert (TILE_NAMES[row[D["best_fan_aware"]]], row[D["fan_aware_rank"]]) == (fan[0].tile, mine_fan + 1)
            assert row[D["effective_shanten_after"]] == fan[mine_fan].effective_shanten
            assert row[D["best_effective_shanten"]] == fan[0].effective_shanten
            assert _cell(row[D["valid_acceptance_after"]]) == fan[mine_fan].valid_acceptance
            assert _cell(row[D["best_valid_acceptance"]]) == fan[0].valid_acceptance
            lost = plain[mine].shanten - plain[0].shanten
            assert row[D["shanten_lost"]] == lost
            assert row[D["acceptance_lost"]] == (plain[0].acceptance - plain[mine].acceptance if lost == 0
                                                 else plain[0].acceptance)
            assert row[D["complete"]] == (mjfast.shanten(hand) == -1)
            checked += 1
    assert checked == 786
    # real players do not always follow mjfast: the ranks are not all 1
    assert 1 < decisions[decisions[:, D["kind"]] == DISCARD, D["plain_rank"]].max()


def test_before_is_the_hand_held_before_the_turn_counted_against_what_is_seen_now(analysed):
    decisions = analysed[0]
    for index, game in enumerate(GAMES):
        steps, _ = _steps(game)
        waiting = {p: steps[0][0].hand(p) for p in range(4)}  # the dealt hands
        rows = iter(_rows(decisions, index, DISCARD))
        for k, (table, action, _) in enumerate(steps):
            if action.kind != "Play":
                continue
            row = next(rows)
            p = action.player
            assert row[D["shanten_before"]] == mjfast.shanten(waiting[p])
            assert row[D["acceptance_before"]] == mjfast.acceptance(waiting[p], table.visible_to(p))
            if k + 1 < len(steps):
                waiting[p] = steps[k + 1][0].hand(p)


def _claims_allowed(table, player) -> tuple[int, int]:
    """(option bits, best shanten after one of them) of the claims TableState allows
    `player` on the pending tile; a win only if it scores the minimum."""
    giver, tile = table.pending
    bits, best = 0, None
    seat = table.seats[player]
    for name, kind in (("Chi", CHOW), ("Peng", PUNG), ("Gang", KONG)):
        if table.phase == ROB:
            break
        for middle in ([tile - 1, tile, tile + 1] if name == "Chi" else [tile]):
            try:
                table.check_claim(player, name, middle)
            except IllegalAction:
                continue
            bits |= OPTION_BITS[name.lower()]
            meld = Meld(kind, middle - 1 if kind == CHOW else tile)
            counts = np.array(seat.concealed)
            np.subtract.at(counts, [t for t in meld.tiles if t != tile] if kind == CHOW else meld.tiles[1:], 1)
            after = mjfast.shanten(Hand(counts, tuple(seat.melds) + (meld,)))
            best = after if best is None else min(best, after)
    try:
        win = table.win(player, tile)
        if score(win.hand, **win.conditions).meets_minimum:
            bits, best = bits | OPTION_BITS["hu"], -1
    except (IllegalAction, mjfast.HandError):
        pass
    return bits, best


def _claim_moments(steps):
    """(table with a tile open to claims, the action that followed or None, its line, the
    table after it or None) of a replayed game."""
    import copy

    for k, (table, action, line) in enumerate(steps):
        if table.pending is not None and table.phase in (CLAIM, ROB):
            yield table, action, line, steps[k + 1][0] if k + 1 < len(steps) else None
    table, action, line = steps[-1]
    if action.kind == "Play":  # the last discard of a drawn game: nobody claimed it
        after = copy.deepcopy(table)
        after.play(action.player, action.tile)
        yield after, None, line, None


def test_claim_rows_are_the_claims_the_rules_allowed_and_what_was_done(analysed):
    decisions = analysed[0]
    taken = overruled = passed = 0
    for index, game in enumerate(GAMES):
        steps, _ = _steps(game)
        rows = {(r[D["line"]], r[D["player"]]): r for r in _rows(decisions, index, CLAIM_KIND)}
        expected = set()
        for table, action, line, then in _claim_moments(steps):
            giver, tile = table.pending
            for p in range(4):
                allowed, best = _claims_allowed(table, p) if p != giver else (0, None)
                if not allowed:
                    continue
                expected.add((line, p))
                row = rows[(line, p)]
                assert (row[D["options"]], row[D["tile"]], row[D["shanten_before"]]) == (
                    allowed, tile, mjfast.shanten(table.hand(p)))
                lost = {who: claim for who, claim, _ in action.ignored} if action else {}
                if action and action.player == p and action.kind in ("Chi", "Peng", "Gang", "Hu"):
                    assert (ACTIONS[row[D["action"]]], row[D["overruled"]]) == (action.kind.lower(), 0)
                    assert row[D["shanten_after"]] == (-1 if action.kind == "Hu" else mjfast.shanten(then.hand(p)))
                    taken += 1
                elif p in lost:
                    assert (ACTIONS[row[D["action"]]], row[D["overruled"]]) == (lost[p].lower(), 1)
                    assert row[D["shanten_after"]] == row[D["shanten_before"]]
                    overruled += 1
                else:
                    assert ACTIONS[row[D["action"]]] == "pass"
                    assert row[D["shanten_after"]] == row[D["shanten_before"]]
                    passed += 1
                assert row[D["claim_shanten"]] == best
        assert set(rows) == expected  # no row for a player who could not claim
    claims_in_log = sum(a.kind in ("Chi", "Peng", "Gang") or (a.kind == "Hu" and i and g.actions[i - 1].kind == "Play")
                        for g in GAMES for i, a in enumerate(g.actions))
    assert taken == claims_in_log and overruled > 0 and passed > taken


def test_the_game_rows_are_the_replays_result(analysed):
    decisions, games, match_ids, fans = analysed
    assert match_ids == [g.match_id for g in GAMES]
    for index, (game, row, fan_line) in enumerate(zip(GAMES, games, fans)):
        check = Replay(game).check()
        assert row[G["game"]] == index and row[G["line"]] == game.line
        assert RESULTS[row[G["result"]]] == ("draw" if game.drawn else "win")
        assert (_cell(row[G["winner"]]), _cell(row[G["fan_total"]]), _cell(row[G["fan_line"]])) == (
            check.win and check.win.winner, check.fans and check.fans.total, game.fan_total)
        assert row[G["fan_line_matches"]] == (NA if check.win is None else 1) and row[G["score_line_matches"]] == 1
        assert tuple(row[[G["score_0"], G["score_1"], G["score_2"], G["score_3"]]]) == game.scores
        discards = _rows(decisions, index, DISCARD)
        assert row[G["discards"]] == len(discards)
        assert row[G["plain_agreements"]] == np.count_nonzero(discards[:, D["plain_rank"]] == 1)
        assert row[G["fan_aware_agreements"]] == np.count_nonzero(discards[:, D["fan_aware_rank"]] == 1)
        assert row[G["acceptance_lost"]] == discards[:, D["acceptance_lost"]].sum()
        # the fans as the Fan line writes them (the judge's own line, where it has one)
        assert (fan_line == "") == game.drawn
        if game.fan_total is not None:
            assert sorted(fan_line.split("+")) == sorted(f"{name}*{n}" for name, n in game.fans)


LINES = REAL.read_text(encoding="utf-8").split("\n")


def _text_of(game, last_line: "int | None" = None) -> list:
    """The lines of a real game's block, up to (not including) file line `last_line`."""
    end = LINES.index("", game.line - 1)
    return LINES[game.line - 1:end if last_line is None else last_line - 1]


def _unheld(table, player) -> str:
    return mjfast.tiles.botzone_token(next(t for t in range(34) if table.seats[player].concealed[t] == 0))


@pytest.mark.parametrize("change, reason", [
    (lambda table, a: f"Player {a.player} Play {_unheld(table, a.player)}", "which the hand does not hold"),
    (lambda table, a: f"Player {(a.player + 1) % 4} Play {mjfast.tiles.botzone_token(a.tile)}", "turn"),
])
def test_a_game_that_breaks_a_rule_is_raised_with_the_replays_reason_and_leaves_no_row(change, reason):
    game = GAMES[3]
    steps, _ = _steps(game)
    table, action, line = next(s for k, s in enumerate(steps) if k > 30 and s[1].kind == "Play")
    text = _text_of(game)
    text[line - game.line] = change(table, action)
    analyser = GameAnalyser(fan_aware=False)
    analyser.analyse(GAMES[0], 0)
    before = analyser.decisions.n
    with pytest.raises(LogError) as raised:
        analyser.analyse(parse_game("\n".join(text), game.line), 3)
    assert (raised.value.match_id, raised.value.line) == (game.match_id, line)
    assert reason in raised.value.reason
    assert analyser.decisions.n == before and len(analyser.match_ids) == 1


def test_without_the_fan_aware_ranking_its_cells_are_empty_and_the_rest_the_same(analysed):
    # every game: with the fan-aware ranking, the plain one is re-sorted from its rows (see
    # kernels.discard_rows); without it, worked out alone
    plain = GameAnalyser(fan_aware=False)
    for index, game in enumerate(GAMES):
        plain.analyse(game, index)
    rows = plain.take()[0]
    full = analysed[0]
    fan_cells = [D[c] for c in ("best_fan_aware", "fan_aware_rank", "effective_shanten_after",
                                "best_effective_shanten", "valid_acceptance_after", "best_valid_acceptance")]
    assert (rows[:, fan_cells] == NA).all() and (full[full[:, D["kind"]] == DISCARD][:, fan_cells[0]] != NA).all()
    other = [c for c in range(rows.shape[1]) if c not in fan_cells]
    assert np.array_equal(rows[:, other], full[:, other])


def test_games_the_table_plays_analyse_too_flowers_and_fouls_included():
    """Logs written by mjfast's table: the 144-tile wall with flowers, and a foul."""
    agents = [InProcessAgent(b) for b in (ShantenBot("shared"), RandomBot("shared", seed=5), ShantenBot("shared"),
                                          ShantenBot("shared"))]
    logs = [result.log for result in play_games(agents, range(200, 204), wall="shared")]
    cut = GAMES[1].action_lines[20]  # player 1 answers the 21st action with an illegal response
    foul = parse_game("\n".join(_text_of(GAMES[1], cut) + ["Player 1 Invalid", "Score 10 -30 10 10"]), GAMES[1].line)
    analyser = GameAnalyser(fan_aware=False)
    for index, game in enumerate(logs + [foul]):
        analyser.analyse(game, index)
    decisions, games, _, _ = analyser.take()
    assert [RESULTS[r] for r in games[:, G["result"]]][-1] == "foul"
    assert (games[:, G["score_line_matches"]] == 1).all()
    for index, game in enumerate(logs + [foul]):
        plays = sum(a.kind == "Play" for a in game.actions)
        assert len(_rows(decisions, index, DISCARD)) == plays > 0
    assert any(d.kind == "BuHua" for game in logs for d in game.actions)


def test_the_chows_found_at_every_discard_are_the_rules_answer_for_every_tile_and_neighbourhood():
    """The claim checks take the chows of TableState.chow_middles (its three runs written out)
    at every discard: they must be exactly the middles that check_claim allows (every tile,
    every holding of the tiles around it)."""
    from itertools import product

    from mjfast.game.state import TableState

    def allowed(table, middle):
        try:
            table.check_claim(1, "Chi", middle)
        except IllegalAction:
            return False
        return True

    for tile in range(34):
        near = [t for t in range(tile - 2, tile + 3) if 0 <= t < 34 and t != tile]
        for held in product((0, 1), repeat=len(near)):
            table = TableState()
            table.phase, table.pending = CLAIM, (0, tile)
            concealed = table.seats[1].concealed
            for t, h in zip(near, held):
                concealed[t] = h
            expected = [m for m in range(34) if allowed(table, m)]
            assert table.chow_middles(1) == expected, (tile, held)


def test_a_games_decisions_take_one_kernel_call_for_its_discards_and_one_for_its_claims(monkeypatch):
    """The replay stages every decision; kernels.discard_rows then fills all the discard rows
    of the game and kernels.claim_rows all its claim rows (one call from Python a decision
    cost a dispatch of 17 to 25 arguments)."""
    from mjfast.logs import kernels

    calls = []
    for name in ("discard_rows", "claim_rows"):
        kernel = getattr(kernels, name)
        monkeypatch.setattr(kernels, name, lambda *args, _k=kernel, _n=name: calls.append(_n) or _k(*args))
    analyser = GameAnalyser(fan_aware=False)
    analyser.analyse(GAMES[2], 2)
    decisions = analyser.take()[0]
    assert calls == ["discard_rows", "claim_rows"]
    assert len(_rows(decisions, 2, DISCARD)) == sum(a.kind == "Play" for a in GAMES[2].actions) > 20
    assert len(_rows(decisions, 2, CLAIM_KIND)) > 0


def test_a_discard_too_far_from_ready_for_the_value_graph_has_empty_value_cells_but_its_danger():
    from mjfast.logs.analysis import VALUE_CELLS, value_cells

    deal_in = np.linspace(0.0, 0.1, 34)
    far = mjfast.best_discards("1m2m4m8m1p4p8p1s2s4s8sENC")  # six steps: its graph would pass MAX_HANDS
    cells = value_cells(far, deal_in, TILE_INDEX["C"])
    assert len(cells) == len(VALUE_CELLS) and cells[6] == round(1000 * deal_in[TILE_INDEX["C"]])
    assert all(c == NA for i, c in enumerate(cells) if i != 6)
    near = mjfast.best_discards("123m456p789s1357sE")
    cells = value_cells(near, deal_in, TILE_INDEX["E"])
    assert cells[:2] == (TILE_INDEX["E"], 1) and NA not in cells
