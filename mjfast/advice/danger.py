"""The danger of each discard: how likely it is to deal in, and what dealing in costs.

From what a player sees of each opponent (their discards in order, their exposed melds, the
draws they have made) and the copies of each tile the player cannot see, two fitted models:

- **ready**: the probability that the opponent's hand is ready with a wait worth 8 fans on a
  discard win, a logistic model of the draws they have made and their exposed melds;
- **wait**: given that, the probability that tile t is one of their winning tiles: none for
  a tile another player discarded since the opponent's last discard (they held the hand
  they hold now and did not win on it: a player declares a win of 8 fans, and the tile is
  worth as many fans now, unless it is now the last copy, 绝张), else a logistic
  model of the tile and what the opponent showed: whether they discarded t themselves
  (MCR has no furiten, but a tile a player threw away is seldom what they wait on), its
  kind (honour, terminal, 2 or 8, middle), its unseen copies and the ways a hand could wait
  on them (bots.safety), how much of their river and of their melds is in t's
  suit (a one-suit hand shows itself in its melds), whether they discarded the tile three
  away (suji), and for an honour whether a pung of it would score for them.

A discard of t deals in when some opponent is ready and waits on it: deal_in(t) = 1 - the
product over the opponents of (1 - ready x wait(t)). Dealing in costs the discarder 8 + the
winner's fans (the Botzone / MCR settlement; the others pay 8 either way, so that is what a
discard risks): LOSS, the mean on the wins of the games the models were fitted on. The
danger s draws from now grows as the opponents draw: `growth[s]` is the ready probability
summed over the opponents s draws later, over its sum now.

The coefficients are fitted by tables/fit_danger.py on games with every hand known (see
there for which), and checked on the real matches of tests/data (bench/bench_danger.py:
predicted deal-in probability against what happened, in bins).
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np

from ..errors import ArgumentError
from ..fan.settlement import discarder_pays
from ..tiles import N_KINDS, TILE_NAMES
from .value.query import NO_RISK, Risk

_TILE_IDS = {name: t for t, name in enumerate(TILE_NAMES)}

_KINDS = np.arange(N_KINDS)
HONOUR = _KINDS >= 27
_RANK = np.where(HONOUR, -1, _KINDS % 9)
SUIT = np.where(HONOUR, 3, _KINDS // 9)  # 0-2 the suits, 3 the honours
TERMINAL = (_RANK == 0) | (_RANK == 8)
TWO_OR_EIGHT = (_RANK == 1) | (_RANK == 7)
DRAGON = _KINDS >= 31
# For each kind of the suits, the pairs of tiles that make a run with it (ways a hand waits on it).
_RUN_PARTNERS = [[tuple(f + s + i for i in range(3) if f + s + i != t)
                  for s in range(max(0, t % 9 - 2), min(t % 9, 6) + 1)]
                 for t in range(27) for f in [t - t % 9]]

READY_FEATURES = ("constant", "draws / 10", "(draws / 10)^2", "exposed melds", "exposed melds^2",
                  "exposed melds x draws / 10")
WAIT_FEATURES = ("constant", "discarded by them", "honour", "terminal", "2 or 8", "log(1 + ways to wait)",
                 "no copy unseen", "copies unseen", "their river's share in the suit", "their melds' share in the suit",
                 "their number melds all in the suit", "the tile three away discarded (suji)", "an honour that scores",
                 "honour x copies unseen")
# Fitted by tables/fit_danger.py (see the module doc).
READY_WEIGHTS = np.array([-5.855, 4.540, -0.931, 0.984, 0.138, -0.569])
WAIT_WEIGHTS = np.array([-3.143, -2.206, -1.557, -0.829, -0.521, 0.078, -0.403, 0.293, -1.541, -0.712, 0.230, -0.118,
                         0.825, 0.069])
LOSS = float(discarder_pays(13.1))
"""Points a discard that deals in pays: 8 + the winner's fans (their mean, flowers included)."""


class Opponent(NamedTuple):
    """What a player sees of one opponent."""

    seat: int
    """The opponent's seat wind, 0-3 (E S W N)."""
    discards: tuple
    """Every tile they have discarded, in order (tile ids; those claimed since too)."""
    melds: tuple
    """Their melds the table sees (mjfast Melds; a concealed kong shows no tile)."""
    draws: int
    """The tiles they have drawn so far (the game's clock for them)."""
    passed: tuple = ()
    """The others' discards since their last that they did not win on (tile ids): safe against them."""


class Danger(NamedTuple):
    """The danger of each discard for one player (see the module doc)."""

    deal_in: np.ndarray
    """34: the probability that discarding the tile now deals in."""
    loss: np.ndarray
    """34: the points paid when it does (8 + the winner's fans)."""
    growth: np.ndarray
    """growth[s]: the danger of a discard s draws from now, over the danger now (growth[0] 1)."""
    ready: tuple
    """Each opponent's probability of being ready with a wait worth 8 fans."""

    @property
    def cost(self) -> np.ndarray:
        """34: the expected points a discard of the tile loses now (deal_in x loss)."""
        return self.deal_in * self.loss


NO_DANGER = None  # best_discards' default: no opponents, no danger (the figures of the value model alone)


def ready_features(opponent: Opponent, later_draws: int = 0) -> np.ndarray:
    """The ready model's inputs for an opponent `later_draws` draws from now."""
    d = (opponent.draws + later_draws) / 10.0
    m = sum(1 for meld in opponent.melds if meld.offer != 0 or meld.added)
    return np.array([1.0, d, d * d, m, m * m, m * d])


def ways_to_wait(unseen: np.ndarray) -> np.ndarray:
    """34: the ways an opponent's concealed tiles could wait on each tile (bots.safety's count,
    for every tile at once): a single or a pair wait on its own copies, runs on the others'."""
    u = unseen.astype(np.float64)
    ways = u + u * (u - 1) / 2.0
    for t, partners in enumerate(_RUN_PARTNERS):
        ways[t] += sum(u[a] * u[b] for a, b in partners)
    return ways


def wait_features(opponent: Opponent, unseen: np.ndarray, prevalent_wind: int,
                  ways: "np.ndarray | None" = None) -> np.ndarray:
    """34 x len(WAIT_FEATURES): the wait model's inputs of every tile against an opponent."""
    discarded = np.zeros(N_KINDS, bool)
    discarded[list(opponent.discards)] = True
    river = np.bincount(SUIT[list(opponent.discards)], minlength=4) / max(1, len(opponent.discards))
    exposed = [m for m in opponent.melds if m.offer != 0 or m.added]
    in_suit = np.bincount([SUIT[m.tile] for m in exposed], minlength=4)
    share = in_suit[SUIT] / len(exposed) if exposed else np.zeros(N_KINDS)
    number_suits = np.flatnonzero(in_suit[:3])
    one_suit = (SUIT == number_suits[0]) if len(number_suits) == 1 else np.zeros(N_KINDS, bool)
    suji = np.zeros(N_KINDS, bool)
    suji[3:27] |= discarded[:24] & (_RANK[3:27] >= 3)
    suji[:24] |= discarded[3:27] & (_RANK[:24] <= 5)
    scores = DRAGON.copy()
    scores[27 + opponent.seat] = scores[27 + prevalent_wind] = True
    u = unseen.astype(np.float64)
    ways = ways_to_wait(unseen) if ways is None else ways
    columns = (np.ones(N_KINDS), discarded, HONOUR, TERMINAL, TWO_OR_EIGHT, np.log1p(ways), u == 0, u,
               river[SUIT], share, one_suit, suji, scores & HONOUR, HONOUR * u)
    return np.stack([np.asarray(c, np.float64) for c in columns], axis=1)


def _logistic(z):
    return 1.0 / (1.0 + np.exp(-z))


def danger_of(opponents: Sequence[Opponent], unseen, prevalent_wind: int = 0, draws: int = 10) -> Danger:
    """The Danger of every discard for a player who cannot see `unseen` (34 counts: 4 less the
    copies in their hand, their melds and on the table) facing `opponents`, over the next
    `draws` draws."""
    unseen = np.asarray(unseen, np.int64)
    ways = ways_to_wait(unseen)
    safe = np.ones(N_KINDS)
    ready = []
    later = np.zeros(draws + 1)
    for opponent in opponents:
        r = float(_logistic(ready_features(opponent) @ READY_WEIGHTS))
        ready.append(r)
        wait = _logistic(wait_features(opponent, unseen, prevalent_wind, ways) @ WAIT_WEIGHTS)
        wait[list(opponent.passed)] = 0.0  # passed with the hand they hold: no win of 8 fans on it
        safe *= 1.0 - r * wait
        later += [_logistic(ready_features(opponent, s) @ READY_WEIGHTS) for s in range(draws + 1)]
    growth = later / later[0] if opponents and later[0] > 0 else np.ones(draws + 1)
    return Danger(1.0 - safe, np.full(N_KINDS, LOSS), growth, tuple(ready))


def annotated(options: list, danger: Danger) -> list:
    """best_discards' options with `danger`'s deal_in and deal_in_cost of each discard, their
    order and other figures unchanged (to show the danger of a ranking made without it)."""
    cost = danger.cost
    return [o._replace(deal_in=float(danger.deal_in[t]), deal_in_cost=float(cost[t]))
            for o, t in ((o, _TILE_IDS[o.tile]) for o in options)]


def opponent(seat, discards=(), melds=(), draws: int = 0, passed=()) -> Opponent:
    """An Opponent from any notation, checked: seat a wind (E S W N or 0-3); discards a tile
    string ("19mE", in order) or a list of tiles; melds bracketed melds ("[CCC1][345p2]") or
    a list; draws the tiles they have drawn (0-40); passed the others' discards since theirs,
    as discards. Raises HandError for bad tiles or melds, ArgumentError for the rest, naming
    the fault."""
    from ..fan.conditions import wind_index
    from ..melds import parse_melds

    seat = wind_index(seat, "an opponent's seat")
    thrown, let_by = _tiles(discards, "discards"), _tiles(passed, "passed tiles")
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)) or not 0 <= draws <= 40:
        raise ArgumentError(f"an opponent's draws are the tiles they have drawn, 0..40, got {draws!r}")
    return Opponent(seat, thrown, parse_melds(melds), int(draws), let_by)


def _tiles(tiles, what: str) -> tuple:
    """Tile ids of a tile string or a list of tiles (opponent()'s)."""
    from ..tiles import parse_tiles, tile_id

    try:
        return tuple(parse_tiles(tiles) if isinstance(tiles, str) else (tile_id(t) for t in tiles))
    except TypeError:
        raise ArgumentError(f"an opponent's {what} are tiles, got {type(tiles).__name__}") from None


def hand_danger(hand, visible, opponents: Sequence[Opponent], prevalent_wind=0, draws: int = 10) -> Danger:
    """The Danger for a player holding `hand` (any notation parse_hand reads) who sees
    `visible` elsewhere (every tile on the table and in the others' melds, as best_discards'
    visible), facing `opponents` (Opponent or opponent()), over `draws` draws."""
    from ..fan.conditions import wind_index
    from ..hand import Hand, parse_hand, visible_counts

    hand = hand if isinstance(hand, Hand) else parse_hand(hand)
    if len(opponents) > 3 or not all(isinstance(o, Opponent) for o in opponents):
        raise ArgumentError("opponents: at most three, each an Opponent of mjfast.advice.danger (opponent() reads any "
                        "notation)")
    unseen = 4 - hand.counts.astype(np.int64) - hand.meld_counts.astype(np.int64) - visible_counts(visible)
    return danger_of(opponents, np.maximum(unseen, 0), wind_index(prevalent_wind, "prevalent_wind"), draws)


def table_danger(table, viewer: int, draws: int = 10) -> Danger:
    """The Danger of every discard for player `viewer` of a game.TableState (a bot's own view
    or a whole table: only what the viewer sees is read)."""
    hand = table.hand(viewer)
    unseen = 4 - hand.counts.astype(np.int64) - hand.meld_counts.astype(np.int64) - table.visible_to(viewer)
    shown = table.shown  # every copy shown at the table: discards and exposed melds
    # a tile passed is safe but as the last copy (绝张, 4 fans more than when it was passed)
    opponents = [Opponent(o, tuple(table.seats[o].discards), tuple(table.seats[o].melds), table.draws[o],
                          tuple(t for t in table.seats[o].passed if shown[t] < 3))
                 for o in range(4) if o != viewer]
    return danger_of(opponents, np.maximum(unseen, 0), table.prevalent_wind, draws)


def risk_of(danger, draws: int) -> Risk:
    """The value engine's Risk of a mjfast.advice.danger.Danger (checked), or NO_RISK without
    one. The growth is capped so that no discard deals in for certain."""
    if danger is None:
        return NO_RISK
    if not isinstance(danger, Danger):
        raise ArgumentError(f"danger must be a Danger of mjfast.advice.danger (danger_of, table_danger), got "
                        f"{type(danger).__name__}")
    deal_in = np.ascontiguousarray(danger.deal_in, np.float64)
    loss = np.ascontiguousarray(danger.loss, np.float64)
    growth = np.ascontiguousarray(danger.growth, np.float64)
    if deal_in.shape != (N_KINDS,) or loss.shape != (N_KINDS,) or growth.ndim != 1 or len(growth) < draws + 1 or \
            not (np.all((deal_in >= 0) & (deal_in <= 1)) and np.all(loss >= 0) and np.all(growth >= 0)):
        raise ArgumentError(f"a Danger needs deal_in (34, in 0..1), loss (34, >= 0) and growth (>= 0, at least "
                            f"draws + 1 = {draws + 1} of them)")
    top = deal_in.max()
    if top > 0:
        growth = np.minimum(growth, 1.0 / top)
    return Risk(deal_in, loss, growth)
