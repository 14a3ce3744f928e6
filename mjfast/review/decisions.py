"""One game reviewed: the table at every step, and every decision of the players reviewed
with mjfast's options, the player's choice, its rank, the points it lost and what else it cost.

The game is replayed by mjfast.game.Replay and analysed by mjfast.logs' GameAnalyser, whose
rows (the columns of `mjfast logs`' decisions table) each decision carries as `logs`: the
review adds what the table of a run does not keep, every option with its figures. By value
(the default) the review fills a discard row's value cells itself, from the options it ranks
(logs.analysis.value_cells): each game is analysed once.

- discard (every Play): the options are mjfast.best_discards of the hand, with what the
  player sees, the winds, the flowers, the draws the player's wall makes likely
  (advice.model.draws_left) and the tile just drawn, in the value ranking (seconds a game), or
  with value=False in the fan-aware ranking (milliseconds a game); the choice is the tile
  played, its rank its position there.
- claim (every claim opportunity of `mjfast logs`): pass and each claim the rules allowed,
  valued by claim_options; a chow or pung is shown by the discard after it (the value
  ranking's), pass by the hand as it is (the option of discarding the offered tile from the
  hand that holds it: the same 13 tiles), a kong by the shanten and acceptance of the hand
  after it, a win by its fans. mjfast's choice is claim_options' first among the claims
  allowed (with value=False, FanAwareBot's answer).
- kong (a draw after which a concealed or added kong is possible): each kong and no kong, by
  shanten; mjfast's choice is that bot's.
- win (a draw that completes a hand of 8 fans or more): the win or playing on.

Points lost (advice.loss): mjfast's first option's expected score minus the choice's, and a
bad move when that is at least BAD_POINTS and BAD_SHARE of the first's. Costs compare the
player's option with mjfast's first choice: `shanten` (effective shanten where known, worse is
positive), `valid_acceptance` and `acceptance` (what mjfast's choice has more; all of it when
the player's choice left the hand further from ready, as `mjfast logs` counts
acceptance_lost), and every other numeric figure an option carries (such as a win
probability or an expected score: higher is taken as better; the danger of the discard,
`deal_in` and `deal_in_cost`, which every discard option carries from
mjfast.advice.danger.table_danger of what its player saw: lower is better). Flags:
`win_declined` (a win of 8 fans or more not taken), `winning_tile_discarded` (the tile played
completes the hand it leaves, for 8 fans or more), `claim_lowers_value` (a claim made whose
hand is further from a win, or as far with fewer valid tiles, than passing would have kept).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ..advice.claims import claim_options
from ..advice.danger import annotated, table_danger
from ..advice.loss import bad_move, points_lost
from ..advice.model import draws_left
from ..advice.options import best_discards
from ..bots import FanAwareBot, MjfastBot
from ..efficiency.api import acceptance as acceptance_of
from ..efficiency.api import shanten as shanten_of
from ..errors import HandError
from ..game.gamelog import GameLog
from ..game.replay import Replay
from ..game.state import CLAIM, DISCARD, ROB, IllegalAction
from ..hand import Hand, standing_less
from ..logs.analysis import VALUE_CELLS, GameAnalyser, value_cells
from ..logs.columns import DECISION_CELLS, KINDS, NA, D, decode
from ..melds import CHOW, KONG, PUNG, Meld
from ..tiles import TILE_NAMES

SCHEMA = "mjfast-review/1"
# The figures of an option in the order a page shows them; any other numeric field of a
# DiscardOption is shown after them (and its cost counted, higher taken as better).
FIGURES = ("effective_shanten", "shanten", "valid_acceptance", "acceptance", "next_valid_acceptance",
           "next_acceptance")
_MASKS = ("useful_mask", "valid_draws_mask")  # shown as their tiles
_NOT_VALUES = FIGURES + ("fans", "points")
_LOWER_IS_BETTER = ("deal_in", "deal_in_cost")  # the danger: what the choice adds to it is its cost
_CLAIM_WORDS = {"PASS": "pass", "HU": "hu", "PENG": "peng", "GANG": "gang"}
WORDS = {"Draw": "draws", "Play": "discards", "Chi": "chows", "Peng": "pungs", "Gang": "kongs", "AnGang": "kongs",
         "BuGang": "adds a kong with", "Hu": "wins on", "BuHua": "shows the flower", "Invalid": "fouls"}


@lru_cache(maxsize=1)
def _analyser() -> GameAnalyser:
    return GameAnalyser(fan_aware=True)


def logs_rows(game: GameLog) -> dict:
    """`mjfast logs`' decision rows of the game, {(kind, line, player): row of int cells}: the
    review fills a discard row's value cells itself (logs.analysis.value_cells, from the
    options it ranks), so that each game is analysed once."""
    analyser = _analyser()
    analyser.analyse(game, 0)
    rows = analyser.take()[0]
    return {(KINDS[row[D["kind"]]], int(row[D["line"]]), int(row[D["player"]])): row for row in rows}


def option_figures(option) -> dict:
    """A DiscardOption's figures: every numeric field (None where unknown), the waits with
    their fans, the useful tiles."""
    figures = {"tile": option.tile}
    for name in option._fields:
        value = getattr(option, name)
        if name in ("tile", "wait_fans") or name in _MASKS or isinstance(value, bool):
            continue
        if value is None or isinstance(value, (int, float, np.integer, np.floating)):
            is_float = isinstance(value, (float, np.floating))
            figures[name] = None if value is None else (round(float(value), 4) if is_float else int(value))
    figures["waits"] = [{"tile": w.tile, "fans": w.discard, "fans_self_drawn": w.self_drawn} for w in option.wait_fans]
    figures["useful"] = list(option.useful)
    return figures


def _level(figures: dict) -> "int | None":
    level = figures.get("effective_shanten")
    return figures.get("shanten") if level is None else level


def cost(best: dict, chosen: dict) -> dict:
    """What `chosen` gives up against `best` (see the module doc)."""
    found = {}
    b, c = _level(best), _level(chosen)
    if b is not None and c is not None:
        found["shanten"] = c - b
    further = found.get("shanten", 0) > 0
    for name in ("valid_acceptance", "acceptance"):
        b, c = best.get(name), chosen.get(name)
        if b is not None and (c is not None or further):
            found[name] = b if further else b - c
    for name, b in best.items():
        c = chosen.get(name)
        if (name not in _NOT_VALUES and isinstance(b, (int, float)) and isinstance(c, (int, float))
                and not isinstance(b, bool)):
            found[name] = round(c - b if name in _LOWER_IS_BETTER else b - c, 4)
    return found


def _worse(a: dict, b: dict) -> bool:
    """Whether figures `a` leave the hand further from a win than `b`, or as far with fewer
    valid tiles."""
    la, lb = _level(a), _level(b)
    if la is None or lb is None or la != lb:
        return la is not None and lb is not None and la > lb
    va, vb = a.get("valid_acceptance"), b.get("valid_acceptance")
    return va is not None and vb is not None and va < vb


_VALUE_FIGURES = ("expected_score", "win_probability", "best_expected_score", "best_win_probability", "points_lost",
                  "bad_move")


def _cell(row, name: str) -> "int | None":
    """An integer cell of a logs row (None for NA)."""
    value = row[D[name]]
    return None if value == NA else int(value)


def _value_figures(best: "dict | None", chosen: "dict | None") -> dict:
    """A decision's value figures: the expected score and win probability of the choice and of
    mjfast's best, the points lost and the bad-move flag (advice.loss); all None where the
    options carry no value figures (the fan-aware ranking, kongs, wins)."""
    if best is None or chosen is None or best.get("expected_score") is None or chosen.get("expected_score") is None:
        return dict.fromkeys(_VALUE_FIGURES)
    lost = round(points_lost(best["expected_score"], chosen["expected_score"]), 4)
    return {"expected_score": chosen["expected_score"], "win_probability": chosen["win_probability"],
            "best_expected_score": best["expected_score"], "best_win_probability": best["win_probability"],
            "points_lost": lost, "bad_move": bad_move(lost, best["expected_score"])}


def _accepts(best: "dict | None", chosen: "dict | None") -> "dict | None":
    """For a choice other than mjfast's: the useful tiles only mjfast's best accepts, and those
    only the choice accepts (tile names); None otherwise."""
    if best is None or chosen is None or best is chosen or "useful" not in best or "useful" not in chosen:
        return None
    return {"mjfast_only": [t for t in best["useful"] if t not in chosen["useful"]],
            "choice_only": [t for t in chosen["useful"] if t not in best["useful"]]}


def _names(tiles) -> list:
    return [TILE_NAMES[t] for t in tiles]


def _seat_view(table, p: int) -> dict:
    seat = table.seats[p]
    drawn = table.drawn(p)
    return {"standing": [TILE_NAMES[t] for t in range(34) for _ in range(seat.concealed[t])],
            "melds": [str(m) for m in seat.melds], "flowers": seat.flowers, "river": _names(seat.river),
            "tiles_left": table.tiles_left(p), "drawn": TILE_NAMES[drawn] if drawn is not None else None}


def _action_view(action) -> dict:
    tile = TILE_NAMES[action.tile] if action.tile is not None and action.tile < 34 else (
        f"H{action.tile - 33}" if action.tile is not None else None)
    text = f"player {action.player} {WORDS[action.kind]}" + (f" {tile}" if tile else "")
    if action.kind == "Chi":
        text = f"player {action.player} chows {TILE_NAMES[action.tile - 1]}{TILE_NAMES[action.tile]}" \
               f"{TILE_NAMES[action.tile + 1]}"
    for who, claim, t in action.ignored:
        text += f" (player {who}'s {claim.lower()} {TILE_NAMES[t]} overruled)"
    return {"player": action.player, "kind": action.kind, "tile": tile, "text": text}


class Asked(NamedTuple):
    """Where a decision was asked and of whom: its kind (discard, claim, win, kong), the step
    and line, the player, the tile (None for a kong's), and for a decision without a logs row,
    the player's turn and the shanten of the hand before the draw."""

    kind: str
    step: int
    line: int
    player: int
    tile: "str | None"
    turn: "int | None" = None
    shanten_before: "int | None" = None


class _Reviewer:
    """Reviews the decisions of one game, step by step, for the seats in `players`."""

    def __init__(self, game: GameLog, players, value: bool):
        self.game, self.players = game, tuple(players)
        self.ruleset = game.ruleset  # the wins and the advice are scored by the ruleset the game was played under
        self.value = value
        self.ranking = "expected-score" if value else "fan-aware"
        self.rows = logs_rows(game)
        # the advice's model, as mjfast logs --value's: not the bot's race and danger (docs/advice.md)
        self.bot = MjfastBot(wall=game.wall, race=False, danger=False) if value else FanAwareBot(wall=game.wall)
        self.decisions: list = []
        self.plays = [0, 0, 0, 0]  # discards made so far, by player: a turn is the next one

    def add(self, decision: dict) -> int:
        self.decisions.append(decision)
        return len(self.decisions) - 1

    def _decision(self, asked: "Asked", options: list, choice: str, mjfast: str, row, flags=(), rank=None) -> int:
        """The decision `asked` (where, whose, on what tile), its options, the player's choice
        and mjfast's. row: the logs row (int cells, decoded when the game's review is done: a
        discard fills its value cells after a kong or win declined before it took the same
        row), when the decision has one; else `asked` says the turn and the shanten before."""
        by_key = {o["choice"]: o for o in options}
        chosen, best = by_key.get(choice), by_key.get(mjfast)
        found = cost(best, chosen) if chosen is not None and best is not None else {}
        return self.add({
            "kind": asked.kind, "step": asked.step, "line": asked.line, "player": asked.player,
            "turn": _cell(row, "turn") if row is not None else asked.turn, "tile": asked.tile,
            "shanten_before": _cell(row, "shanten_before") if row is not None else asked.shanten_before,
            "options": options, "choice": choice, "mjfast": mjfast, "rank": rank,
            "agrees": choice == mjfast, "top3": rank <= 3 if rank is not None else choice == mjfast,
            **_value_figures(best, chosen), "accepts": _accepts(best, chosen),
            "cost": found, "flags": list(flags), "logs": row,
        })

    # --- discards -------------------------------------------------------------------------------

    def discard(self, table, action, step: int, line: int) -> int:
        p, tile = action.player, action.tile
        seat = table.seats[p]
        draws = draws_left(table.own_draws_left(p))
        danger = table_danger(table, p, draws)
        in_order = best_discards(table.hand(p), visible=table.visible_to(p), seat_wind=p,
                                 prevalent_wind=table.prevalent_wind, flowers=seat.flowers, draws=draws,
                                 ranking=self.ranking, drawn=table.drawn(p), ruleset=self.ruleset,
                                 danger=danger if getattr(self.bot, "danger", False) else None)
        options = [option_figures(o) for o in annotated(in_order, danger)]
        for o in options:
            o["choice"] = f"play {o['tile']}"
        choice = f"play {TILE_NAMES[tile]}"
        rank = next(i for i, o in enumerate(options) if o["choice"] == choice) + 1
        flags = ["winning_tile_discarded"] if self._wins_on_own_discard(table, p, tile, self.ruleset) else []
        self.plays[p] += 1
        row = self.rows.get(("discard", line, p))
        if row is not None and self.value:  # the cells `mjfast logs --value` computes, from these options
            row[VALUE_CELLS] = value_cells(in_order, danger.deal_in, tile)
        return self._decision(Asked("discard", step, line, p, TILE_NAMES[tile]), options, choice,
                              options[0]["choice"], row, flags, rank)

    @staticmethod
    def _wins_on_own_discard(table, p: int, tile: int, ruleset) -> bool:
        from ..fan import score

        after = table.copy()
        after.play(p, tile)
        try:
            win = after.win_on_pending(p)
            return score(win.hand, ruleset=ruleset, **win.conditions).meets_minimum
        except (IllegalAction, HandError):
            return False

    # --- claims ---------------------------------------------------------------------------------

    def claims(self, table, action, step: int, line: int) -> list:
        giver, tile = table.pending
        found = []
        for p in ((giver + 1) % 4, (giver + 2) % 4, (giver + 3) % 4):
            row = self.rows.get(("claim", line, p))
            if p in self.players and row is not None:
                found.append(self.claim(table, action, step, line, p, row))
        return found

    def claim(self, table, action, step: int, line: int, p: int, row) -> int:
        from ..fan import score

        giver, tile = table.pending
        cells = decode(DECISION_CELLS, row)
        hand = table.hand(p)
        seat = table.seats[p]
        visible = table.visible_to(p)
        visible[tile] -= 1  # the offered tile, in the hand or a meld in every option
        conditions = dict(seat_wind=p, prevalent_wind=table.prevalent_wind, flowers=seat.flowers,
                          ruleset=self.ruleset)
        draws = draws_left(table.own_draws_left(p))
        # the options' efficiency figures; their value figures are claim_options' (below)
        advice = dict(visible=visible, draws=draws, ranking="fan-aware", **conditions)
        allowed = (cells["options"] or "").split()
        offer = (p - giver) % 4
        melds = []
        if "peng" in allowed:
            melds.append(("peng", {tile: 2}, Meld(PUNG, tile, offer)))
        if "chi" in allowed:
            for middle in table.chow_middles(p):
                uses = {t: 1 for t in (middle - 1, middle, middle + 1) if t != tile}
                melds.append((f"chi {TILE_NAMES[middle]}", uses, Meld(CHOW, middle - 1, tile - middle + 2)))
        valued: dict = {}  # review option -> claim_options' option, by value
        if self.value:
            keys = {"win": "hu", "pass": "pass", "kong": "gang", "pung": "peng"}
            keys.update({str(meld): key for key, _, meld in melds})
            for o in claim_options(hand, tile, offer, visible, draws=draws, **conditions):
                key = keys.get(o.meld) if o.action == "chow" else keys[o.action]
                if key is not None and (key == "pass" or key.split()[0] in allowed):
                    valued[key] = o
        with_tile = hand.counts.copy()
        with_tile[tile] += 1
        keep = next(o for o in best_discards(Hand(with_tile, hand.melds), **advice) if o.tile == TILE_NAMES[tile])
        options = [dict(option_figures(keep), choice="pass")]
        options[0].pop("tile")
        if "hu" in allowed:
            win = table.win(p, tile)
            result = score(win.hand, ruleset=self.ruleset, **win.conditions)
            options.append({"choice": "hu", "shanten": -1, "effective_shanten": -1, "fans": result.total,
                            "points": result.points})
        for key, uses, meld in melds:
            after_claim = best_discards(Hand(standing_less(hand, uses), hand.melds + (meld,)), **advice)
            discard = valued[key].discard if key in valued else after_claim[0].tile  # the value ranking's
            best = option_figures(next(o for o in after_claim if o.tile == discard))
            best["discard"] = best.pop("tile")
            options.append(dict(best, choice=key))
        if "gang" in allowed:
            after = Hand(standing_less(hand, {tile: 3}), hand.melds + (Meld(KONG, tile, offer),))
            options.append({"choice": "gang", "shanten": shanten_of(after),
                            "acceptance": acceptance_of(after, visible)})
        for figures in options:
            if figures["choice"] in valued:
                claim = valued[figures["choice"]]
                figures.update(win_probability=round(claim.win_probability, 4),
                               expected_score=round(claim.expected_score, 4))
        choice = self._claimed(action, p, cells)
        if self.value:  # the value ranking's first
            mjfast = next(iter(valued))
        else:
            self.bot.attach(table, p)
            answer = self.bot.on_kong_added() if table.phase == ROB else self.bot.on_discard()
            mjfast = _CLAIM_WORDS.get(answer.action) or f"chi {TILE_NAMES[answer.tiles[0]]}"
        by_key = {o["choice"]: o for o in options}
        flags = []
        if "hu" in allowed and choice != "hu":
            flags.append("win_declined")
        if choice not in ("pass", "hu") and not cells["overruled"] and _worse(by_key[choice], by_key["pass"]):
            flags.append("claim_lowers_value")
        return self._decision(Asked("claim", step, line, p, TILE_NAMES[tile]), options, choice, mjfast, row, flags)

    @staticmethod
    def _claimed(action, p: int, row: dict) -> str:
        """What player p did with the tile: pass, or the claim (taken or overruled)."""
        done = row["action"]
        if done != "chi":
            return done
        if action is not None and action.player == p and action.kind == "Chi":
            return f"chi {TILE_NAMES[action.tile]}"
        middle = next(t for who, claim, t in action.ignored if who == p and claim == "Chi")
        return f"chi {TILE_NAMES[middle]}"

    # --- after a draw: a win, a kong ------------------------------------------------------------

    def turn(self, table, action, step: int, line: int) -> list:
        p = table.turn
        found = []
        self.bot.attach(table, p)
        row = self.rows.get(("discard", line, p)) if action.kind == "Play" else None  # the discard that follows
        drawn = table.seats[p].last_drawn
        before = None  # the shanten of the hand before the draw, when no logs row says it
        if row is None and drawn is not None:
            waiting = table.hand(p).counts.copy()
            waiting[drawn] -= 1
            before = shanten_of(Hand(waiting, table.hand(p).melds))
        if drawn is not None and self.bot.winning_response(drawn) is not None:
            from ..fan import score

            win = table.win(p, drawn)
            result = score(win.hand, ruleset=self.ruleset, **win.conditions)
            taken = action.kind == "Hu"
            # playing on from a complete hand leaves it ready at best: a step further
            options = [{"choice": "hu", "shanten": -1, "effective_shanten": -1, "fans": result.total,
                        "points": result.points}, {"choice": "play on", "shanten": 0}]
            asked = Asked("win", step, line, p, TILE_NAMES[drawn], self.plays[p] + 1, before)
            found.append(self._decision(asked, options, "hu" if taken else "play on", "hu", row,
                                        () if taken else ("win_declined",)))
        concealed, added = table.own_kongs(p)
        if concealed or added:
            hand = table.hand(p)
            options = [{"choice": "no kong", "shanten": shanten_of(hand)}]
            for t in concealed:
                after = Hand(standing_less(hand, {t: 4}), hand.melds + (Meld(KONG, t, 0),))
                options.append({"choice": f"kong {TILE_NAMES[t]}", "shanten": shanten_of(after)})
            for t in added:
                melds = tuple(Meld(KONG, t, m.offer, added=True) if m.tile == t and m.kind == PUNG else m
                              for m in hand.melds)
                options.append({"choice": f"add kong {TILE_NAMES[t]}",
                                "shanten": shanten_of(Hand(standing_less(hand, {t: 1}), melds))})
            answer = self.bot.on_draw()
            mjfast = {"GANG": "kong", "BUGANG": "add kong"}.get(answer.action)
            mjfast = f"{mjfast} {TILE_NAMES[answer.tiles[0]]}" if mjfast else "no kong"
            choice = {"AnGang": "kong", "BuGang": "add kong"}.get(action.kind)
            choice = f"{choice} {TILE_NAMES[action.tile]}" if choice else "no kong"
            found.append(self._decision(Asked("kong", step, line, p, None, self.plays[p] + 1, before), options, choice,
                                        mjfast, row))
        return found


def review_game(game: GameLog, players=None, file: str = "", value: bool = True, *,
                threads: "int | None" = None) -> dict:
    """The review of one game (the schema is docs/review.md's): its steps (the table before
    each action, and at the end) and the decisions of the seats in `players` (default: all
    four), by value (the default: every discard and claim with its expected score, win
    probability and points lost) or, with value=False, in the fan-aware ranking (milliseconds
    a game). By value, its queries run `threads` at a time (default: one a core; the review
    is the same, advice.value.at_once). Raises LogError for a game that breaks a rule."""
    if not value:
        return _review(game, players, file, value)
    from ..advice.value.at_once import with_queries_at_once
    from ..runtime.threads import thread_count

    threads = thread_count() if threads is None else threads
    return with_queries_at_once(lambda: _review(game, players, file, value), threads)


def _review(game: GameLog, players, file: str, value: bool) -> dict:
    players = tuple(range(4)) if players is None else tuple(players)
    if game.actions and not game.action_lines:
        # a game made in memory (mjfast's table) has no lines: decisions are told apart by
        # line, so its actions are numbered 1, 2, ... instead
        game = replace(game, action_lines=tuple(range(1, len(game.actions) + 1)))
    reviewer = _Reviewer(game, players, value)
    replay = Replay(game)
    steps = []
    last = len(game.actions) - 1
    final_claims: list = []
    for k, (action, line, table) in enumerate(replay):
        here = []
        if table.pending is not None and table.phase in (CLAIM, ROB):
            here += reviewer.claims(table, action, k, line)
        if table.phase == DISCARD and table.turn == action.player and action.player in players:
            here += reviewer.turn(table, action, k, line)
        if action.kind == "Play" and action.player in players:
            here.append(reviewer.discard(table, action, k, line))
        steps.append({"step": k, "line": line, "action": _action_view(action),
                      "seats": [_seat_view(table, p) for p in range(4)], "decisions": here})
        if k == last and action.kind == "Play":  # nothing follows: the claims on it all passed
            after = table.copy()
            after.play(action.player, action.tile)
            final_claims = reviewer.claims(after, None, k + 1, line)
    check = replay.check()
    final = {"step": len(steps), "line": steps[-1]["line"] if steps else game.line, "action": None,
             "seats": [_seat_view(replay.table, p) for p in range(4)],
             "decisions": final_claims}
    steps.append(final)
    for d in reviewer.decisions:  # every value cell is in: the rows as `mjfast logs` writes them
        if d["logs"] is not None:
            d["logs"] = decode(DECISION_CELLS, d["logs"])
    return {
        "schema": SCHEMA, "match_id": game.match_id, "file": file, "prevalent_wind": game.prevalent_wind,
        "wall": game.wall, "ruleset": game.ruleset.name or "custom",
        "players": [{"seat": p, "name": game.names[p] or None} for p in range(4)],
        "reviewed": list(players), "result": _result(game, check), "steps": steps,
        "decisions": reviewer.decisions,
    }


def _result(game: GameLog, check) -> dict:
    if check.win is not None:
        kind = "win"
    else:
        kind = "draw" if game.drawn else "foul"
    result = {"kind": kind, "scores": list(game.scores), "winner": None, "discarder": None, "fan_total": None,
              "fans": []}
    if check.win is not None:
        result.update(winner=check.win.winner, discarder=check.win.discarder, fan_total=check.fans.total,
                      fans=[{"name": f.name_cn, "name_en": f.name_en, "count": f.count, "total": f.total}
                            for f in check.fans.fans],
                      logged_fans=check.fan_line_matches if game.fan_total is not None else None)
    elif kind == "foul":
        result["offender"] = game.actions[-1].player
    return result
