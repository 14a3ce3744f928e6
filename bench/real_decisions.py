"""The discard decisions of the 16 real Botzone matches in tests/data/logs, as a bot asks the
service about them: the advise parameters of each (bench_service.py, load_http.py)."""

from __future__ import annotations

from mjfast.game import Replay, read_games
from tests.data import LOGS


def advise_params(limit: int) -> list[dict]:
    """advise parameters (hand, visible counts, winds) of the first `limit` decisions, in order."""
    requests = []
    for game in read_games(LOGS / "botzone_mahjong_gb_16matches.txt"):
        for step in Replay(game):
            if step.action.kind == "Play" and len(requests) < limit:
                table, player = step.table, step.action.player
                requests.append({"hand": table.hand(player).to_compact(),
                                 "visible": [int(c) for c in table.visible_to(player)],
                                 "seat_wind": player, "prevalent_wind": table.prevalent_wind})
    return requests
