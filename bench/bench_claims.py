"""Claims against strong play: at every chance to chow, pung or kong a discard in the real
matches of tests/data (no win on it), MjfastBot's answer against the player's.

    pytest bench/bench_claims.py -s

The games: the 16 Botzone matches of tests/data/logs and the three 2026 matches of
tests/data/logs/botzone_json. A chance is a discard that a player other than its discarder
could chow (from the left) or pung, not the game's last, that the player could not win on;
the player's answer is the claim they made (or that lost on priority), else pass. The table
gives the agreement (pass / chow / pung / kong), how often each claims, and both by the
shanten of the hand before the claim.
"""

from __future__ import annotations

import collections

from mjfast.bots import MjfastBot
from mjfast.efficiency.api import shanten
from mjfast.game import Replay, read_games
from mjfast.game.state import CLAIM
from tests.data import LOGS

SOURCES = [LOGS / "botzone_mahjong_gb_16matches.txt"] + sorted((LOGS / "botzone_json").glob("*.json"))
ANSWER = {"PASS": "pass", "PENG": "pung", "CHI": "chow", "GANG": "kong", "HU": "win"}


def claim_chances(bot) -> list:
    """(shanten, the player's answer, the bot's) at every claim chance of the games."""
    found = []
    for path in SOURCES:
        for game in read_games(path):
            if hasattr(game, "reason"):
                continue
            bot.wall = game.wall
            for step in Replay(game):
                table, action = step.table, step.action
                if table.phase != CLAIM or table.last_discard(table.pending[0]):
                    continue
                giver, tile = table.pending
                for p in range(4):
                    hand = table.hand(p)
                    bot.attach(table, p)
                    if p == giver or not (hand.counts[tile] >= 2 or table.chow_middles(p)) or \
                            bot.winning_response(tile) is not None:
                        continue
                    made = [kind for who, kind, _ in action.ignored if who == p]
                    if action.player == p and action.kind in ("Chi", "Peng", "Gang"):
                        made.append(action.kind)
                    player = {"Chi": "chow", "Peng": "pung", "Gang": "kong"}[made[0]] if made else "pass"
                    found.append((shanten(hand), player, ANSWER[bot.on_discard().action]))
    return found


def bench_claims_against_strong_play(benchmark):
    results = {}
    benchmark.pedantic(lambda: results.update(chances=claim_chances(MjfastBot())), rounds=1, iterations=1)
    chances = results["chances"]
    agree = sum(p == m for _, p, m in chances)
    players = sum(p != "pass" for _, p, _ in chances)
    bots = sum(m != "pass" for _, _, m in chances)
    print(f"\n{len(chances)} claim chances in the 19 real matches of tests/data: MjfastBot answers as the player "
          f"{100 * agree / len(chances):.1f}%; the players claim {players} times, MjfastBot {bots} "
          f"({100 * (bots - players) / players:+.1f}%)")
    print(f"{'shanten':>8s} {'chances':>8s} {'agree':>7s} {'player claims':>14s} {'mjfast claims':>14s}")
    for band in sorted({min(s, 4) for s, _, _ in chances}):
        rows = [(p, m) for s, p, m in chances if min(s, 4) == band]
        print(f"{band:>8d} {len(rows):8d} {100 * sum(p == m for p, m in rows) / len(rows):6.1f}% "
              f"{sum(p != 'pass' for p, _ in rows):14d} {sum(m != 'pass' for _, m in rows):14d}")
    print("(player, mjfast) where they differ:", dict(collections.Counter((p, m) for _, p, m in chances if p != m)))
    benchmark.extra_info.update(chances=len(chances), agreement=round(agree / len(chances), 4), player_claims=players,
                                mjfast_claims=bots)
