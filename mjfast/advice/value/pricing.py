"""Pricing the graph's ready hands: for each wait, the points of a win on another player's
discard and of a self-drawn win (the fan scorer, advice.win_scoring), whether any reaches the
query's minimum, and the chance of a win on a discard a round."""

from ...fan.layout import WIN_SELF_DRAWN
from ...fan.settlement import winner_gain
from ...runtime.decorators import njit
from ...runtime.intrinsics import lowest_bit
from ..win_scoring import PLAYED_OPEN, hand_ranks, ranks_with, scored_points


@njit
def unseen_of(hand, scope, out):
    """out = the copies of each kind the player has not seen, with `hand` held: 4 less the
    copies fixed (melds, seen elsewhere), less the hand's or the decision hand's copies,
    whichever is more (a tile of the decision hand discarded since is on the table).
    Returns their total."""
    total = 0
    fixed, reference = scope.fixed, scope.reference
    for t in range(34):
        held = hand[t] if hand[t] > reference[t] else reference[t]
        u = 4 - fixed[t] - held
        u = u if u > 0 else 0
        out[t] = u
        total += u
    return total


@njit(inline="always")
def ready_figures(i, graph, query, scope, room, total):
    """Node i's figures as a ready hand, priced as it is (valid, ron, ron_score; each wait's
    self-drawn win score in room.win_score) and, with scope.open_pricing, as played open
    (the *_open columns, room.win_score_open); none for a hand not ready."""
    priced(i, graph, query, room, total, 0, (graph.valid, graph.ron, graph.ron_score), room.win_score)
    if scope.open_pricing:
        priced(i, graph, query, room, total, PLAYED_OPEN, (graph.valid_open, graph.ron_open, graph.ron_score_open),
               room.win_score_open)


@njit(nrt=False)  # called twice for a concealed hand with claims: compiled once, not inlined twice
def priced(i, graph, query, room, total, opened, columns, win_score):
    """Node i's figures as a ready hand scored with the condition bits `opened` (0, or
    win_scoring.PLAYED_OPEN) into `columns`: whether a wait can win (valid), the chance of a win
    on another player's discard per round (ron) and its mean score; each wait's self-drawn
    win score into `win_score` (0 elsewhere)."""
    valid, ron, ron_score = columns
    hand, unseen = room.hand, room.unseen
    position = query.position
    table = position.table
    for t in range(34):
        win_score[t] = 0.0
    valid[i] = False
    ron[i] = 0.0
    ron_score[i] = 0.0
    if graph.dist[i] != 1 or total <= 0:
        return
    ron_copies = 0
    ron_total = 0.0
    ranks = hand_ranks(table, hand)
    waits = graph.mask[i]
    while waits:
        w = lowest_bit(waits)
        waits &= waits - 1
        if unseen[w] <= 0:
            continue
        hand[w] += 1
        won = ranks_with(table, hand, ranks, w)
        on_discard = scored_points(position, hand, won, w, opened, room.scoring)[0]
        self_drawn = scored_points(position, hand, won, w, WIN_SELF_DRAWN | opened, room.scoring)[0]
        hand[w] -= 1
        if on_discard >= position.minimum:
            ron_copies += unseen[w]
            ron_total += unseen[w] * winner_gain(on_discard + position.flowers, False)
            valid[i] = True
        if self_drawn >= position.minimum:
            win_score[w] = winner_gain(self_drawn + position.flowers, True)
            valid[i] = True
    if ron_copies > 0:
        ron[i] = 1.0 - (1.0 - ron_copies / total) ** query.model.ron_discards
        ron_score[i] = ron_total / ron_copies
