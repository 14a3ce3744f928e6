"""MCR games: the rules at the table, Botzone's protocol and log formats, a table to play on.

    from mjfast.game import read_games, Replay, check_games      # logs (docs/game.md)
    from mjfast.game import read_botzone, write_botzone          # Botzone's JSON match logs
    read_games("session.json")                                   # a Tziakcha session's hands too
    from mjfast.game import play_game, deal_walls, InProcessAgent, MjfastBot

Modules, one concept each: tokens (Botzone tile tokens), state (TableState: a game in progress
and its rules), seats (a seat's tiles, a declared win), outcome (wins, draws, fouls and their
scores), walls (seeded walls), protocol (Botzone's requests and responses), gamelog (a logged
game: GameLog, Action, BrokenGame, LogError, LogRefused, and what only a Botzone JSON log holds:
JudgeRecord), logformat (the log text: reader and writer), botzone_log (Botzone's JSON match
log: reader and writer), tziakcha_log (Tziakcha's session records: reader), reading
(read_games, check_games: any format), judge (the Botzone judge's figures of a position),
replay (replaying and checking a log), agents (how the table talks to a bot), table (one
game). The bots are mjfast.bots'; their names are here too, loaded on first use, so that
importing mjfast.game (to read logs) loads no numba.
"""

from ..runtime.lazy import lazy_attributes
from .agents import AgentError, InProcessAgent, ProcessAgent
from .botzone_log import botzone_match, read_botzone, write_botzone
from .gamelog import Action, BrokenGame, GameLog, JudgeRecord, LogError, LogRefused
from .judge import JudgeCheck
from .logformat import format_game, parse_game, write_games
from .outcome import Outcome
from .reading import check_games, read_games
from .replay import GameCheck, Replay, Step
from .state import DUPLICATE, DUPLICATE_FLOWERS, SHARED, WALLS, IllegalAction, TableState, WinContext
from .table import GameResult, play_game, play_games
from .walls import deal_walls

# The bots' names, from mjfast.bots (which loads numba), on first use.
_BOTS = ("BOTS", "FanAwareBot", "MatchSummary", "MjfastBot", "ProtocolBot", "RandomBot", "ShantenBot", "run_match")
__getattr__, __dir__ = lazy_attributes(__name__, {"mjfast.bots": _BOTS})

__all__ = [
    "Action", "AgentError", "BOTS", "BrokenGame", "DUPLICATE", "DUPLICATE_FLOWERS", "FanAwareBot", "GameCheck",
    "GameLog", "GameResult", "IllegalAction", "InProcessAgent", "JudgeCheck", "JudgeRecord", "LogError", "LogRefused",
    "MatchSummary", "MjfastBot", "Outcome", "ProcessAgent", "ProtocolBot", "RandomBot", "Replay", "SHARED",
    "ShantenBot", "Step", "TableState", "WALLS", "WinContext", "botzone_match", "check_games", "deal_walls",
    "format_game", "parse_game", "play_game", "play_games", "read_botzone", "read_games", "run_match",
    "write_botzone", "write_games",
]
