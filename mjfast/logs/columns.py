"""The columns of the two output tables: one row per decision, one row per game.

Workers fill integer matrices (cheap to build, to ship between processes and to merge);
the writer turns them into typed, named columns. Each column is declared once here with its
type and meaning; docs/logs.md lists the same (a test keeps the two in step).

Integer cells use NA where a value does not apply to the row (a claim has no discard
ranking; a draw has no winner). Tiles are tile ids, written out as mjfast's tile names;
times (type ms) are microseconds, written out as milliseconds; fractions and scores (type
milli) are thousandths, written out as floats.
"""

from __future__ import annotations

from typing import NamedTuple

NA = -(2 ** 31)  # int32 minimum: never a real value


class Column(NamedTuple):
    name: str
    # int8 int16 int32 bool string, ms (a time), milli (thousandths), or a set of names written as strings:
    # tile, options, LABELS
    type: str
    meaning: str

    @property
    def written_type(self) -> str:
        """The type in the files: names are strings, times milliseconds as float64."""
        if self.type in ("ms", "milli"):
            return "float64"
        return self.type if self.type in ("int8", "int16", "int32", "bool") else "string"


KINDS = ("discard", "claim")
ACTIONS = ("play", "pass", "chi", "peng", "gang", "hu")
CLAIM_ACTION = {"Chi": ACTIONS.index("chi"), "Peng": ACTIONS.index("peng"), "Gang": ACTIONS.index("gang"),
                "Hu": ACTIONS.index("hu")}
RESULTS = ("win", "draw", "foul")
# Botzone's verdicts on a bot's answer (its wiki's list); any other is written "other".
VERDICTS = ("OK", "TLE", "MLE", "OLE", "NJ", "RE", "other")
# Claim options as bits of the `options` cell, written as their names joined by spaces.
OPTION_BITS = {"chi": 1, "peng": 2, "gang": 4, "hu": 8}
LABELS = {"kind": KINDS, "action": ACTIONS, "result": RESULTS, "verdict": VERDICTS}

# --- one row per decision ------------------------------------------------------------------------
# The matrix a worker fills: these cells, in this order.
DECISION_CELLS = (
    Column("game", "int32", "the game's position among the games read (0 = first), as in games.*"),
    Column("line", "int32",
           "line number of the action in its file (for a claim: the action that followed the discard)"),
    Column("player", "int8", "seat 0-3 (0 = East, who draws first); the seat wind is the seat"),
    Column("turn", "int16", "the player's turn: 1 for their first discard (a claim counts toward the turn it starts)"),
    Column("kind", "kind", "discard: the player chose a tile to play; claim: the player could claim another's tile"),
    Column("tile", "tile",
           "discard: the tile played; claim: the tile offered (a discard, or the tile of an added kong)"),
    Column("action", "action", "play (a discard), or what the player did with a claim: chi, peng, gang, hu or pass"),
    Column("overruled", "bool", "claim: the player claimed but lost on priority (the log's Ignore clause)"),
    Column("options", "options", "claim: the claims the rules allowed, among chi peng gang hu (hu: 8 fans reached)"),
    Column("shanten_before", "int8",
           "shanten of the hand held before this turn (before the draw or the claim): -1 complete, 0 ready"),
    Column("acceptance_before", "int16",
           "discard: unseen copies of that hand's useful tiles, counted against what the player sees now"),
    Column("shanten_after", "int8",
           "discard: shanten after the tile played; claim: after what was done (a pass keeps shanten_before)"),
    Column("acceptance_after", "int16", "discard: unseen copies of the useful tiles after the tile played"),
    Column("claim_shanten", "int8", "claim: the best shanten one of the allowed claims gave (-1 for hu)"),
    Column("complete", "bool", "discard: the 14 tiles were complete (a win not declared, or under 8 fans)"),
    Column("discard_options", "int8", "discard: the distinct tiles the player could play"),
    Column("best_plain", "tile",
           "discard: mjfast's best discard by efficiency: shanten, then acceptance, then the least connected tile"),
    Column("plain_rank", "int8", "discard: position of the tile played in that ranking (1 = mjfast's choice)"),
    Column("best_shanten", "int8", "discard: shanten after mjfast's best plain discard"),
    Column("best_acceptance", "int16", "discard: acceptance after mjfast's best plain discard"),
    Column("best_fan_aware", "tile",
           "discard: mjfast's best discard by the lexicographic fan-aware ranking, knowing the 8-fan minimum "
           "(mjfast.best_discards(ranking='fan-aware'))"),
    Column("fan_aware_rank", "int8", "discard: position of the tile played in the fan-aware ranking"),
    Column("effective_shanten_after", "int8",
           "discard: shanten counting only waits that reach 8 fans, after the tile played (see docs/logs.md)"),
    Column("best_effective_shanten", "int8", "discard: the same after mjfast's best fan-aware discard"),
    Column("valid_acceptance_after", "int16",
           "discard: unseen copies of the waits (ready) or draws (one step away) that lead to 8 fans; "
           "empty further away"),
    Column("best_valid_acceptance", "int16", "discard: the same after mjfast's best fan-aware discard"),
    Column("best_value", "tile",
           "discard, with the value ranking (mjfast logs --value): mjfast's best discard by expected score "
           "(mjfast.best_discards' default ranking, the draws the player's wall makes likely); empty with the "
           "other value cells but deal_in_after where the hand is too far from ready for the value graph"),
    Column("value_rank", "int8", "discard, with --value: position of the tile played in that ranking"),
    Column("expected_score_after", "milli", "discard, with --value: the expected score of the tile played"),
    Column("best_expected_score", "milli", "discard, with --value: the expected score of mjfast's best discard"),
    Column("win_probability_after", "milli", "discard, with --value: the win probability of the tile played"),
    Column("best_win_probability", "milli", "discard, with --value: the win probability of mjfast's best discard"),
    Column("shanten_lost", "int8", "discard: shanten_after - best_shanten"),
    Column("acceptance_lost", "int16",
           "discard: best_acceptance - acceptance_after at the best shanten; all of best_acceptance when the "
           "tile played left the hand further from ready"),
    Column("response_ms", "ms",
           "Botzone JSON logs: the time the player's bot took over its answer (the discard, or what it said to "
           "the tile offered), in ms; empty for the text format"),
    Column("verdict", "verdict",
           "Botzone JSON logs: Botzone's verdict on that answer (OK, TLE, MLE, OLE, NJ, RE; other for any other)"),
    Column("dealt_in", "bool", "discard: another player won on the tile played"),
    Column("deal_in_after", "milli",
           "discard, with --value: the chance that the tile played deals in, from what the player saw "
           "(mjfast.advice.danger.table_danger)"),
    Column("best_deal_in", "milli", "discard, with --value: the same for mjfast's best discard by value"),
)
# Added when the table is written.
DECISION_DERIVED = (Column("match_id", "string", "the game's Match id"),)
DECISION_COLUMNS = DECISION_CELLS[:1] + DECISION_DERIVED + DECISION_CELLS[1:]

# --- one row per game ----------------------------------------------------------------------------
GAME_CELLS = (
    Column("game", "int32", "the game's position among the games read (0 = first)"),
    Column("line", "int32", "line number of the game's Match line in its file"),
    Column("prevalent_wind", "int8", "0-3 = E S W N"),
    Column("result", "result", "win, draw (exhaustive, 荒庄) or foul (a player's illegal action)"),
    Column("winner", "int8", "the seat that won (empty unless a win)"),
    Column("discarder", "int8", "the seat whose discard (or added kong) was won on; empty for a self-drawn win"),
    Column("fan_total", "int16", "fans of the win as mjfast scores it, flowers included"),
    Column("fan_line", "int16", "the total of the log's Fan line"),
    Column("fan_line_matches", "bool", "mjfast's fans equal the Fan line's, name by name"),
    Column("score_line_matches", "bool", "mjfast's settlement equals the Score line"),
    Column("score_0", "int32", "seat 0's score in the log's Score line"),
    Column("score_1", "int32", "seat 1's score"),
    Column("score_2", "int32", "seat 2's score"),
    Column("score_3", "int32", "seat 3's score"),
    Column("discards", "int16", "discard decisions in the game"),
    Column("plain_agreements", "int16", "of them, the tile played was mjfast's best plain discard"),
    Column("fan_aware_agreements", "int16", "of them, the tile played was mjfast's best fan-aware discard"),
    Column("acceptance_lost", "int32", "acceptance_lost summed over the game's discards"),
    Column("tile_counts_checked", "int16",
           "Botzone JSON logs: the judge's tileCnt values compared with mjfast's tiles left (each player, each step)"),
    Column("tile_counts_matched", "int16", "of them, those mjfast reproduced"),
    Column("can_hu_checked", "int16",
           "Botzone JSON logs: the judge's canHu values compared with mjfast's fans (the positive ones and the -3s)"),
    Column("can_hu_matched", "int16", "of them, those mjfast reproduced"),
    *(Column(f"response_ms_{p}", "ms", "Botzone JSON logs: the time seat 0's bot took over all its answers in the "
                                       "game, in ms" if p == 0 else f"the same for seat {p}") for p in range(4)),
    *(Column(f"verdict_{p}", "verdict", "Botzone JSON logs: seat 0's first verdict other than OK in the game, or OK"
             if p == 0 else f"the same for seat {p}") for p in range(4)),
)
GAME_DERIVED = (
    Column("match_id", "string", "the Match id"),
    Column("file", "string", "the log file the game was read from"),
    Column("fans", "string", "the win's fans as mjfast scores them, written as the Fan line writes them"),
    *(Column(f"bot_{p}", "string",
             "Botzone JSON logs and Tziakcha records: the name of seat 0's bot or player" if p == 0
             else f"the same for seat {p}") for p in range(4)),
)
GAME_COLUMNS = GAME_CELLS[:1] + GAME_DERIVED[:2] + GAME_CELLS[1:] + GAME_DERIVED[2:]


def index(columns) -> dict:
    """{name: position} of a column tuple."""
    return {c.name: i for i, c in enumerate(columns)}


D = index(DECISION_CELLS)
G = index(GAME_CELLS)
# The value ranking's cells of a discard row, in the order analysis.value_cells gives them.
VALUE_CELLS = [D[name] for name in ("best_value", "value_rank", "expected_score_after", "best_expected_score",
                                      "win_probability_after", "best_win_probability", "deal_in_after",
                                      "best_deal_in")]


def option_names(bits: int) -> "str | None":
    """The `options` cell written out: the claim names joined by spaces."""
    return " ".join(name for name, bit in OPTION_BITS.items() if bits & bit) or None


def decode(columns, row) -> dict:
    """One row of integer cells as the files write it: {name: value}, None for NA, codes as
    their names (tiles, labels, options), bools, times in ms (output.py does the same for
    whole columns, in Arrow)."""
    from ..tiles import TILE_NAMES

    decoded: dict = {}
    for column, value in zip(columns, row.tolist()):
        if value == NA:
            decoded[column.name] = None
        elif column.type == "tile":
            decoded[column.name] = TILE_NAMES[value]
        elif column.type in LABELS:
            decoded[column.name] = LABELS[column.type][value]
        elif column.type == "options":
            decoded[column.name] = option_names(value)
        elif column.type == "bool":
            decoded[column.name] = value != 0
        elif column.type in ("ms", "milli"):
            decoded[column.name] = value / 1000.0
        else:
            decoded[column.name] = value
    return decoded
