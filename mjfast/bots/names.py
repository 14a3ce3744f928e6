"""The bots by the names the command line and run_match take."""

from .baselines import RandomBot, ShantenBot
from .fan_aware import FanAwareBot
from .mjfast_bot import MjfastBot

BOTS = {"mjfast": MjfastBot, "fan-aware": FanAwareBot, "random": RandomBot, "shanten": ShantenBot}
