"""The figures of a whole run, added up chunk by chunk: games, results, agreement with mjfast,
acceptance lost, per seat, per player (by the bots' names) and per turn, fans of wins, the
Botzone judge's figures checked; written as summary.json.

Everything is kept as integer counts and sums and divided only at the end, so the figures
do not depend on how the run was split into chunks or where they ran.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..advice.loss import bad_move, points_lost
from .columns import ACTIONS, KINDS, NA, RESULTS, D, G
from .intervals import mean_interval, wilson
from .work import ChunkResult

SEATS = 4
# Per-seat counts and sums (one array of 4 each); those of the discards, counted together.
_DISCARD_FIGURES = ("discards", "plain_agreements", "fan_aware_agreements", "efficient_discards", "acceptance_lost",
                    "shanten_lost")
_SEAT_FIGURES = ("games", "wins", "self_drawn_wins", "dealt_in", "score", "win_fans") + _DISCARD_FIGURES + (
    "claim_opportunities", "claims_made")
# Per-turn counts and sums (arrays that grow with the longest game).
_TURN_FIGURES = ("discards", "plain_agreements", "fan_aware_agreements", "acceptance_lost")
_DISCARD, _CLAIM = KINDS.index("discard"), KINDS.index("claim")
_JUDGE_FIGURES = ("tile_counts_checked", "tile_counts_matched", "can_hu_checked", "can_hu_matched")
_PASS = ACTIONS.index("pass")
# Agreement by the hand's shanten (the best discard's: 0 ready, 1, 2, 3 or more): for each
# ranking, the tile played was its first, or among its first three.
BANDS = ("0", "1", "2", "3+")
_RANKS = {"plain": "plain_rank", "fan_aware": "fan_aware_rank", "value": "value_rank"}


def _rate(part, whole) -> "float | None":
    return round(float(part / whole), 4) if whole else None


# The sums kept per player name (the bot's name in a Botzone JSON log, else "seat N").
_NAMED = ("games", "score", "score_squares", "wins", "dealt_in", "discards", "fan_aware_top1", "value_top1",
          "value_top3", "valued", "bad_moves", "points_lost", "points_lost_squares", "claim_opportunities",
          "claims_made")
_N = {name: i for i, name in enumerate(_NAMED)}


class _Players:
    """Per player name: games, score, wins, deal-ins, discard agreement and, with the value
    ranking, the discards' points lost and bad moves (advice.loss); sums, divided at the end."""

    def __init__(self):
        self.sums: dict = {}

    def add(self, result: ChunkResult) -> None:
        games = result.games
        if not len(games):
            return
        names = [[name or f"seat {p}" for p, name in enumerate(four)] for four in result.names]
        ids = {name: i for i, name in enumerate(sorted({n for four in names for n in four}))}
        sums = np.zeros((len(ids), len(_NAMED)))
        seat_ids = np.array([[ids[n] for n in four] for four in names])  # game row, seat -> name id
        row_of = {int(g): i for i, g in enumerate(games[:, G["game"]])}
        scores = games[:, [G[f"score_{p}"] for p in range(SEATS)]].astype(np.float64)
        np.add.at(sums[:, _N["games"]], seat_ids.ravel(), 1)
        np.add.at(sums[:, _N["score"]], seat_ids.ravel(), scores.ravel())
        np.add.at(sums[:, _N["score_squares"]], seat_ids.ravel(), (scores * scores).ravel())
        won = games[:, G["winner"]] != NA
        rows = np.flatnonzero(won)
        np.add.at(sums[:, _N["wins"]], seat_ids[rows, games[rows, G["winner"]]], 1)
        rows = np.flatnonzero(won & (games[:, G["discarder"]] != NA))
        np.add.at(sums[:, _N["dealt_in"]], seat_ids[rows, games[rows, G["discarder"]]], 1)
        decisions = result.decisions
        if len(decisions):
            who = seat_ids[[row_of[int(g)] for g in decisions[:, D["game"]]], decisions[:, D["player"]]]
            kind = decisions[:, D["kind"]]
            discard = kind == _DISCARD
            rank, fan = decisions[:, D["value_rank"]], decisions[:, D["fan_aware_rank"]]
            best = decisions[:, D["best_expected_score"]].astype(np.int64)
            after = decisions[:, D["expected_score_after"]].astype(np.int64)
            valued = discard & (best != NA)
            lost = np.where(valued, points_lost(best, after) / 1000.0, 0.0)  # thousandths: exact
            bad = valued & bad_move(lost, best / 1000.0)
            claim = kind == _CLAIM
            made = claim & (decisions[:, D["action"]] != _PASS) & (decisions[:, D["overruled"]] == 0)
            for name, weights in (("discards", discard), ("fan_aware_top1", discard & (fan == 1)),
                                  ("value_top1", valued & (rank == 1)), ("value_top3", valued & (rank <= 3)),
                                  ("valued", valued), ("bad_moves", bad), ("points_lost", lost),
                                  ("points_lost_squares", lost * lost), ("claim_opportunities", claim),
                                  ("claims_made", made)):
                np.add.at(sums[:, _N[name]], who, weights.astype(np.float64))
        for name, i in ids.items():
            kept = self.sums.get(name)
            self.sums[name] = sums[i] if kept is None else kept + sums[i]

    def to_dict(self, value: bool) -> dict:
        found = {}
        for name, v in sorted(self.sums.items()):
            n = {k: v[_N[k]] for k in _NAMED}
            games, discards, valued = int(n["games"]), int(n["discards"]), int(n["valued"])
            score = mean_interval(games, n["score"], n["score_squares"])
            found[name] = {
                "games": games, "mean_score": score["mean"], "score_interval": score["interval"],
                "win_rate": _rate(n["wins"], games), "dealt_in_rate": _rate(n["dealt_in"], games),
                "discards": discards, "fan_aware_agreement": _rate(n["fan_aware_top1"], discards),
                "value_agreement": _rate(n["value_top1"], valued) if value else None,
                "value_agreement_interval": wilson(int(n["value_top1"]), valued) if value else None,
                "value_top3": _rate(n["value_top3"], valued) if value else None,
                "bad_moves": int(n["bad_moves"]) if value else None,
                "bad_move_rate": _rate(n["bad_moves"], valued) if value else None,
                "bad_move_interval": wilson(int(n["bad_moves"]), valued) if value else None,
                "points_lost": mean_interval(valued, n["points_lost"], n["points_lost_squares"]) if value else None,
                "claim_opportunities": int(n["claim_opportunities"]), "claims_made": int(n["claims_made"]),
            }
        return found


class Summary:
    def __init__(self, fan_aware: bool = True, value: bool = False):
        self.fan_aware = fan_aware
        self.value = value
        self.bands = {name: np.zeros((3, len(BANDS)), np.int64) for name in _RANKS}  # discards, top 1, top 3
        self.games_read = self.games_analysed = 0
        self.rejected: list = []
        self.unreadable: list = []  # {"file", "reason"} of each file that could not be read
        self.results: Counter = Counter()
        self.decisions = self.discards = self.claim_opportunities = 0
        self.fan_lines = self.fan_lines_matched = self.score_lines_matched = 0
        # the judge's figures of the games read from Botzone JSON logs
        self.judge = dict.fromkeys(_JUDGE_FIGURES, 0)
        self.judged_games = 0
        self.judge_mismatches: list = []
        self.seat = {name: np.zeros(SEATS, np.int64) for name in _SEAT_FIGURES}
        self.turn = {name: np.zeros(0, np.int64) for name in _TURN_FIGURES}
        self.win_fans: Counter = Counter()  # fan total -> wins
        self.fan_names: Counter = Counter()  # fan name -> wins that scored it
        self.named = _Players()

    def add(self, result: ChunkResult) -> None:
        self.games_read += result.games_read
        self.rejected.extend(result.rejected)
        if result.unreadable:
            self.unreadable.append({"file": result.file, "reason": result.unreadable})
        self.judge_mismatches.extend(result.judge_mismatches)
        games, decisions = result.games, result.decisions
        self.games_analysed += len(games)
        self.decisions += len(decisions)
        self._add_games(games, result.fans)
        self.named.add(result)
        discards = decisions[decisions[:, D["kind"]] == _DISCARD]
        claims = decisions[decisions[:, D["kind"]] == _CLAIM]
        self.discards += len(discards)
        self.claim_opportunities += len(claims)
        self._add_discards(discards)
        seat = self.seat
        players = claims[:, D["player"]]
        seat["claim_opportunities"] += np.bincount(players, minlength=SEATS)
        made = (claims[:, D["action"]] != _PASS) & (claims[:, D["overruled"]] == 0)
        seat["claims_made"] += np.bincount(players[made], minlength=SEATS)

    def _add_games(self, games: np.ndarray, fans: list) -> None:
        seat = self.seat
        seat["games"] += len(games)
        self.results.update(RESULTS[r] for r in games[:, G["result"]])
        self.fan_lines += int(np.count_nonzero(games[:, G["fan_line"]] != NA))
        self.fan_lines_matched += int(np.count_nonzero(games[:, G["fan_line_matches"]] == 1))
        self.score_lines_matched += int(np.count_nonzero(games[:, G["score_line_matches"]] == 1))
        seat["score"] += games[:, [G["score_0"], G["score_1"], G["score_2"], G["score_3"]]].sum(axis=0)
        judged = games[games[:, G["tile_counts_checked"]] != NA]
        self.judged_games += len(judged)
        for name in _JUDGE_FIGURES:
            self.judge[name] += int(judged[:, G[name]].sum())
        won = games[games[:, G["winner"]] != NA]
        winners = won[:, G["winner"]]
        seat["wins"] += np.bincount(winners, minlength=SEATS)
        seat["self_drawn_wins"] += np.bincount(winners[won[:, G["discarder"]] == NA], minlength=SEATS)
        seat["dealt_in"] += np.bincount(won[won[:, G["discarder"]] != NA, G["discarder"]], minlength=SEATS)
        seat["win_fans"] += np.bincount(winners, weights=won[:, G["fan_total"]], minlength=SEATS).astype(np.int64)
        self.win_fans.update(won[:, G["fan_total"]].tolist())
        for line in fans:
            if line:
                self.fan_names.update(part.rpartition("*")[0] for part in line.split("+"))

    def _add_discards(self, discards: np.ndarray) -> None:
        players, turns = discards[:, D["player"]], discards[:, D["turn"]]
        band = np.clip(discards[:, D["best_shanten"]], 0, len(BANDS) - 1)
        for name, column in _RANKS.items():
            rank = discards[:, D[column]]
            known = rank != NA
            counts = self.bands[name]
            for row, chosen in enumerate((known, known & (rank == 1), known & (rank <= 3))):
                counts[row] += np.bincount(band[chosen], minlength=len(BANDS))
        plain = discards[:, D["plain_rank"]] == 1
        fan = discards[:, D["fan_aware_rank"]] == 1
        lost = discards[:, D["acceptance_lost"]]
        efficient = (discards[:, D["shanten_lost"]] == 0) & (lost == 0)
        weights = {"discards": None, "plain_agreements": plain, "fan_aware_agreements": fan,
                   "efficient_discards": efficient, "acceptance_lost": lost,
                   "shanten_lost": discards[:, D["shanten_lost"]]}
        for name in _DISCARD_FIGURES:
            self.seat[name] += np.bincount(players, weights[name], minlength=SEATS).astype(np.int64)
        if not len(turns):
            return
        longest = int(turns.max()) + 1
        for name in _TURN_FIGURES:
            counts = np.bincount(turns, weights[name], minlength=longest).astype(np.int64)
            kept = self.turn[name]
            if len(kept) < longest:
                kept = np.concatenate([kept, np.zeros(longest - len(kept), np.int64)])
            kept[:len(counts)] += counts
            self.turn[name] = kept

    # --- the figures -------------------------------------------------------------------------

    def by_shanten(self) -> dict:
        """For each band of BANDS and each ranking computed: discards, top-1 and top-3 rates."""
        shown = [name for name, on in (("plain", True), ("fan_aware", self.fan_aware), ("value", self.value)) if on]
        return {band: {"discards": int(self.bands["plain"][0, b]),
                       **{f"{name}_top1": _rate(self.bands[name][1, b], self.bands[name][0, b]) for name in shown},
                       **{f"{name}_top3": _rate(self.bands[name][2, b], self.bands[name][0, b]) for name in shown}}
                for b, band in enumerate(BANDS)}

    def players(self) -> dict:
        s = self.seat
        fan_aware = self.fan_aware
        return {str(p): {
            "games": int(s["games"][p]),
            "wins": int(s["wins"][p]),
            "win_rate": _rate(s["wins"][p], s["games"][p]),
            "self_drawn_wins": int(s["self_drawn_wins"][p]),
            "dealt_in": int(s["dealt_in"][p]),
            "dealt_in_rate": _rate(s["dealt_in"][p], s["games"][p]),
            "mean_score": _rate(s["score"][p], s["games"][p]),
            "mean_win_fans": _rate(s["win_fans"][p], s["wins"][p]),
            "discards": int(s["discards"][p]),
            "plain_agreement": _rate(s["plain_agreements"][p], s["discards"][p]),
            "fan_aware_agreement": _rate(s["fan_aware_agreements"][p], s["discards"][p]) if fan_aware else None,
            "efficient_discards": _rate(s["efficient_discards"][p], s["discards"][p]),
            "mean_acceptance_lost": _rate(s["acceptance_lost"][p], s["discards"][p]),
            "mean_shanten_lost": _rate(s["shanten_lost"][p], s["discards"][p]),
            "claim_opportunities": int(s["claim_opportunities"][p]),
            "claims_made": int(s["claims_made"][p]),
        } for p in range(SEATS)}

    def by_turn(self) -> list:
        t = self.turn
        return [{"turn": turn, "discards": int(t["discards"][turn]),
                 "plain_agreement": _rate(t["plain_agreements"][turn], t["discards"][turn]),
                 "fan_aware_agreement": (_rate(t["fan_aware_agreements"][turn], t["discards"][turn])
                                         if self.fan_aware else None),
                 "mean_acceptance_lost": _rate(t["acceptance_lost"][turn], t["discards"][turn])}
                for turn in range(1, len(t["discards"])) if t["discards"][turn]]

    def to_dict(self) -> dict:
        s = self.seat
        discards = self.discards
        return {
            "games_read": self.games_read,
            "games_analysed": self.games_analysed,
            "games_rejected": len(self.rejected),
            "rejected": [r._asdict() for r in self.rejected],
            "unreadable_files": self.unreadable,
            "decisions": self.decisions,
            "discard_decisions": discards,
            "claim_opportunities": self.claim_opportunities,
            "wins": self.results["win"],
            "self_drawn_wins": int(s["self_drawn_wins"].sum()),
            "exhaustive_draws": self.results["draw"],
            "fouls": self.results["foul"],
            "fan_lines": self.fan_lines,
            "fan_lines_matched": self.fan_lines_matched,
            "score_lines_matched": self.score_lines_matched,
            "botzone_json_games": self.judged_games,
            **self.judge,
            "judge_mismatches": [m._asdict() for m in self.judge_mismatches],
            "fan_aware": self.fan_aware,
            "plain_agreement": _rate(s["plain_agreements"].sum(), discards),
            "fan_aware_agreement": _rate(s["fan_aware_agreements"].sum(), discards) if self.fan_aware else None,
            "efficient_discards": _rate(s["efficient_discards"].sum(), discards),
            "mean_acceptance_lost": _rate(s["acceptance_lost"].sum(), discards),
            "value": self.value,
            "value_agreement": _rate(self.bands["value"][1].sum(), discards) if self.value else None,
            "by_shanten": self.by_shanten(),
            "players": self.players(),
            "players_by_name": self.named.to_dict(self.value),
            "by_turn": self.by_turn(),
            "win_fans": {str(total): n for total, n in sorted(self.win_fans.items())},
            "fans_of_wins": dict(self.fan_names.most_common()),
        }
