"""Bots that play MCR through Botzone's protocol, and what runs them.

    from mjfast.bots import MjfastBot, BOTS, run_match
    run_match(["mjfast", "shanten", "shanten", "shanten"], range(100), duplicate=True).report()

Modules: clock (the time a bot keeps: Clock, BOTZONE_CLOCK), protocol_bot (ProtocolBot, which
follows a game from the requests), fan_aware (FanAwareBot), mjfast_bot (MjfastBot, mjfast's
own), baselines (RandomBot, ShantenBot), names (BOTS: the bots by name), safety (the game's last
discard), match (many games among bots by name: run_match), botzone (the program behind
`mjfast botzone`). The table they
play on, the protocol and the logs are mjfast.game's. docs/game.md says how each plays.
"""

from .baselines import RandomBot, ShantenBot
from .clock import BOTZONE_CLOCK, Clock
from .fan_aware import FanAwareBot
from .match import MatchSummary, run_match
from .mjfast_bot import MjfastBot
from .names import BOTS
from .protocol_bot import ProtocolBot

__all__ = ["BOTS", "BOTZONE_CLOCK", "Clock", "FanAwareBot", "MatchSummary", "MjfastBot", "ProtocolBot", "RandomBot",
           "ShantenBot", "run_match"]
