"""TableState: each rule of the table, the flow of a turn, and the conditions of a win."""

from __future__ import annotations

import pytest

from mjfast.game.protocol import ProtocolError, Response, parse_request, parse_response
from mjfast.game.state import CLAIM, DISCARD, DRAW, ROB, SHARED, IllegalAction, TableState
from mjfast.game.tokens import TOKEN_ID
from mjfast.game.walls import deal_walls

# Player 0 holds 1-9m E E E S; player 1 2-3p 4-6s W W N 7-8p 1s 1s; the others honours-free fillers.
DEALS = [
    "W1 W2 W3 W4 W5 W6 W7 W8 W9 F1 F1 F1 F2",
    "B2 B3 T4 T5 T6 F3 F3 F4 B7 B8 T1 T1 W9",
    "B1 B1 B4 B5 B6 T2 T3 T7 T8 T9 J1 J1 J2",
    "B9 B9 T2 T3 T7 T8 T9 J2 J3 J3 J3 F4 B4",
]


def ids(text: str) -> list[int]:
    return [TOKEN_ID[t] for t in text.split()]


def dealt(wall: str = "duplicate", viewer=None) -> TableState:
    table = TableState(prevalent_wind=1, wall=wall, viewer=viewer)
    for p, deal in enumerate(DEALS):
        table.deal(p, ids(deal) if viewer in (None, p) else [None] * 13)
    return table


def test_turns_go_draw_discard_claims_next():
    table = dealt()
    assert (table.phase, table.turn) == (DRAW, 0)
    with pytest.raises(IllegalAction, match="player 0 is to draw"):
        table.draw(1, TOKEN_ID["B1"])
    table.draw(0, TOKEN_ID["B1"])
    assert table.phase == DISCARD
    with pytest.raises(IllegalAction, match="does not hold"):
        table.play(0, TOKEN_ID["T9"])
    table.play(0, TOKEN_ID["B1"])
    assert table.phase == CLAIM and table.to_draw() == 1
    table.draw(1, TOKEN_ID["J2"])  # nobody claimed: the next player draws
    assert table.shown[TOKEN_ID["B1"]] == 1 and table.seats[0].river == [TOKEN_ID["B1"]]


def test_chow_only_from_the_left_with_the_tiles_held():
    table = dealt()
    table.draw(0, TOKEN_ID["B1"])
    table.play(0, TOKEN_ID["B1"])
    assert table.chow_middles(1) == [TOKEN_ID["B2"]]  # B1 B2 B3
    assert table.chow_middles(2) == []  # not the left neighbour of player 0
    with pytest.raises(IllegalAction, match="only chow the discards of player 1"):
        table.check_claim(2, "Chi", TOKEN_ID["B2"])
    with pytest.raises(IllegalAction, match="no chow"):
        table.check_claim(1, "Chi", TOKEN_ID["B5"])
    table.chi(1, TOKEN_ID["B2"])
    seat = table.seats[1]
    assert str(seat.melds[0]) == "[123p1]" and seat.concealed[TOKEN_ID["B2"]] == 0
    assert table.seats[0].river == []  # the claimed discard left the table for the meld
    with pytest.raises(IllegalAction, match="cannot act now"):
        table.draw(1, TOKEN_ID["W1"])  # after a claim: a discard, no draw
    table.play(1, TOKEN_ID["W9"])


def test_the_drawn_tile_is_known_until_the_discard_and_never_after_a_claim():
    table = dealt()
    table.draw(0, TOKEN_ID["W1"])
    assert table.drawn(0) == TOKEN_ID["W1"] and table.drawn(1) is None
    table.play(0, TOKEN_ID["W1"])
    assert table.drawn(0) is None
    for player, tile in ((1, "J2"), (2, "T1"), (3, "T5"), (0, "B1")):
        table.draw(player, TOKEN_ID[tile])
        table.play(player, TOKEN_ID[tile])
    table.chi(1, TOKEN_ID["B2"])
    # player 1 last drew J2, but discards now after a chow: no tile was just drawn
    assert table.seats[1].last_drawn == TOKEN_ID["J2"] and table.drawn(1) is None


def test_pung_and_kong_need_the_tiles_and_a_kong_needs_a_draw_left():
    table = dealt()
    table.draw(0, TOKEN_ID["F3"])
    table.play(0, TOKEN_ID["F3"])
    with pytest.raises(IllegalAction, match="three"):
        table.check_claim(1, "Gang", TOKEN_ID["F3"])
    with pytest.raises(IllegalAction, match="two"):
        table.check_claim(2, "Peng", TOKEN_ID["F3"])
    table.peng(1, TOKEN_ID["F3"])
    assert str(table.seats[1].melds[0]) == "[WWW1]"
    assert table.shown[TOKEN_ID["F3"]] == 3
    table = dealt()
    table.draws[3] = 21  # player 3's private wall is empty; player 1, next after player 0, still draws
    table.draw(0, TOKEN_ID["J3"])
    table.play(0, TOKEN_ID["J3"])
    table.check_claim(3, "Peng", TOKEN_ID["J3"])
    with pytest.raises(IllegalAction, match="no tile left to draw after a kong"):
        table.check_claim(3, "Gang", TOKEN_ID["J3"])


def test_concealed_and_added_kongs_and_robbing():
    table = dealt()
    table.draw(0, TOKEN_ID["F1"])
    assert table.own_kongs(0) == ([TOKEN_ID["F1"]], [])
    table.an_gang(0, TOKEN_ID["F1"])
    assert table.phase == DRAW and table.replacement and table.to_draw() == 0
    assert table.shown[TOKEN_ID["F1"]] == 0  # a concealed kong shows nothing
    table.draw(0, TOKEN_ID["B1"])
    table.play(0, TOKEN_ID["F2"])
    table.draw(1, TOKEN_ID["F2"])
    table.play(1, TOKEN_ID["W9"])
    table.draw(2, TOKEN_ID["J1"])
    table.play(2, TOKEN_ID["B1"])
    table.draw(3, TOKEN_ID["J1"])
    table.play(3, TOKEN_ID["J2"])
    table.draw(0, TOKEN_ID["T1"])
    table.play(0, TOKEN_ID["T1"])
    table.peng(1, TOKEN_ID["T1"])
    table.play(1, TOKEN_ID["F4"])
    table.draw(2, TOKEN_ID["T6"])
    table.play(2, TOKEN_ID["T6"])
    table.draw(3, TOKEN_ID["W2"])
    table.play(3, TOKEN_ID["W2"])
    table.draw(0, TOKEN_ID["B9"])
    table.play(0, TOKEN_ID["B9"])
    table.draw(1, TOKEN_ID["T1"])
    assert table.own_kongs(1) == ([], [TOKEN_ID["T1"]])
    table.bu_gang(1, TOKEN_ID["T1"])
    assert table.phase == ROB and table.pending == (1, TOKEN_ID["T1"])
    with pytest.raises(IllegalAction, match="own kong"):
        table.check_claim(1, "Hu", TOKEN_ID["T1"])
    with pytest.raises(IllegalAction, match="added kong is"):
        table.check_claim(2, "Hu", TOKEN_ID["T2"])
    table.draw(1, TOKEN_ID["W3"])  # nobody robbed: the replacement draw
    assert str(table.seats[1].melds[0]) == "[1111s5]"  # added to the pung claimed from the left


def test_a_self_drawn_win_is_on_the_tile_just_drawn_with_the_judges_conditions():
    table = dealt()
    table.draw(0, TOKEN_ID["F2"])  # 1-9m EEE SS: a pure straight
    with pytest.raises(IllegalAction, match="drew F2"):
        table.win(0, TOKEN_ID["W1"])
    win = table.win(0, TOKEN_ID["F2"])
    assert win.discarder is None and win.hand.last_tile == TOKEN_ID["F2"]
    assert win.conditions == dict(self_drawn=True, last_copy=False, kong=False, last_tile=False, seat_wind=0,
                                  prevalent_wind=1, flowers=0)


def test_a_discard_win_knows_the_last_copy_and_the_last_tile():
    table = dealt()
    table.draw(0, TOKEN_ID["W9"])
    table.play(0, TOKEN_ID["W9"])
    table.draw(1, TOKEN_ID["J2"])
    table.play(1, TOKEN_ID["W9"])  # two W9 shown; player 0 holds the third
    table.draws[2] = 21  # the next player to draw has nothing left: 海底
    win = table.win(0, TOKEN_ID["W9"])
    assert win.discarder == 1 and not win.conditions["self_drawn"]
    assert win.conditions["last_tile"]
    assert not win.conditions["last_copy"]  # player 0 holds a W9: two shown + this one


def test_an_exhausted_wall_ends_the_game_drawn_only_when_the_drawer_has_nothing():
    table = dealt()
    with pytest.raises(IllegalAction, match="cannot end drawn"):
        table.end_drawn()
    table.draws[0] = 21
    assert table.exhausted()
    table.end_drawn()


def test_the_shared_wall_counts_flowers_and_draws_together():
    table = TableState(0, SHARED)
    for p, deal in enumerate(DEALS):
        table.deal(p, ids(deal) + (ids("H1 H2") if p == 2 else []))
    assert table.seats[2].flowers == 2
    assert table.tiles_left(0) == 144 - 52 - 2
    table.bu_hua(0, TOKEN_ID["H3"])
    table.draw(0, TOKEN_ID["B1"])
    assert table.tiles_left(3) == 144 - 52 - 4
    with pytest.raises(IllegalAction, match="too many"):
        TableState(0, SHARED).deal(0, ids(DEALS[0]) + ids("H1 H1"))


def test_duplicate_walls_hold_no_flowers():
    table = dealt()
    with pytest.raises(IllegalAction, match="no flowers"):
        table.bu_hua(0, TOKEN_ID["H1"])


def test_a_viewer_follows_the_others_without_seeing_their_tiles():
    view = dealt(viewer=1)
    view.draw(0, None)
    view.an_gang(0, None)  # player 0's concealed kong: tile unknown
    view.draw(0, None)
    view.play(0, TOKEN_ID["B1"])
    assert view.chow_middles(1) == [TOKEN_ID["B2"]]
    assert view.visible_to(1)[TOKEN_ID["B1"]] == 1
    assert view.seats[0].melds == []  # the unseen kong is not guessed


def test_seeded_walls_are_reproducible_and_complete():
    a, b = deal_walls(7), deal_walls(7)
    assert a.walls == b.walls and a.walls != deal_walls(8).walls
    tiles = sorted(t for w in a.walls for t in w)
    assert tiles == sorted(list(range(34)) * 4)
    shared = deal_walls(7, "shared")
    assert sorted(shared.tiles) == sorted(list(range(34)) * 4 + list(range(34, 42)))
    for p in range(4):
        hand = shared.deal(p)
        assert sum(t < 34 for t in hand) == 13 and all(t >= 34 for t in hand[13:])


def test_protocol_requests_and_responses_parse_strictly():
    assert parse_request("3 2 CHI T2 W3") == (2, "CHI", (TOKEN_ID["T2"], TOKEN_ID["W3"]))
    assert parse_request("1 0 1 0 0 " + DEALS[0] + " H4").flowers == (TOKEN_ID["H4"],)
    assert parse_response("CHI T2 W3") == Response("CHI", (TOKEN_ID["T2"], TOKEN_ID["W3"]))
    assert str(parse_response("GANG")) == "GANG" and str(parse_response("GANG T6")) == "GANG T6"
    for bad in ("PLAY", "CHI T2", "HU W1", "PENG X1", "", "FOLD"):
        with pytest.raises(ProtocolError):
            parse_response(bad)
    for bad in ("3 2 CHI T2", "2", "0 5 0", "1 0 0 0 1 " + DEALS[0], "4 1 DRAW"):
        with pytest.raises(ProtocolError):
            parse_request(bad)


@pytest.mark.parametrize("viewer", [None, 2])
def test_a_copy_changes_alone_and_as_a_deep_copy_would(viewer):
    """TableState.copy (the log analysis plays the last discard of a game on one): actions on
    the copy leave the table as it was and end where the same actions on a deep copy end."""
    import copy

    table = dealt(viewer=viewer)
    table.draw(0, TOKEN_ID["B1"])
    table.play(0, TOKEN_ID["B1"])
    table.peng(2, TOKEN_ID["B1"])  # a meld, a claimed discard and shown tiles to copy
    table.play(2, TOKEN_ID["T8"])
    before = copy.deepcopy(table)
    mine, deep = table.copy(), copy.deepcopy(table)
    for state in (mine, deep):
        state.chi(3, TOKEN_ID["T8"])
        state.play(3, TOKEN_ID["T2"])
        state.draw(0, TOKEN_ID["T4"] if viewer is None else None)
    def view(state):
        seats = [(s.concealed if isinstance(s.concealed, list) else None, s.melds, s.flowers, s.river, s.last_drawn)
                 for s in state.seats]
        return {k: v for k, v in vars(state).items() if k != "seats"}, seats
    assert view(mine) == view(deep) and view(mine) != view(before)
    assert view(table) == view(before)
