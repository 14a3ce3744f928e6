"""mjfast's public calls as JSON operations: parameters in, a JSON-ready result out.

Each operation takes the request's parameters (a dict) and returns a dict; a missing,
unknown or ill-typed parameter raises RequestError("bad_param"), a hand mjfast cannot accept
raises HandError (the transport reports it as "bad_hand"), and any other argument out of
range ArgumentError ("bad_param"). The `mjfast`
command builds its --json output with the same functions, so the two never disagree.
docs/protocol.md is the reference for every operation.
"""

from __future__ import annotations

from ..errors import MjfastError

PROTOCOL_VERSION = 1


class RequestError(MjfastError, ValueError):
    """A request the service cannot run: `code` says which kind of problem (see docs)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


_TYPES = {str: "a string", int: "an integer", float: "a number", bool: "true or false", list: "a list",
          dict: "an object"}


def _take(params: dict, allowed: dict, required: tuple = ("hand",)) -> dict:
    """The parameters, checked: `allowed` maps each name to its accepted types."""
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise RequestError("bad_param", f"unknown parameter(s) {', '.join(unknown)}; this operation takes "
                                        f"{', '.join(sorted(allowed)) or 'none'}")
    for name in [name for name, value in params.items() if value is None]:
        del params[name]  # null is no value: the parameter's default
    for name in required:
        if name not in params:
            raise RequestError("bad_param", f"missing parameter {name!r}")
    for name, value in params.items():
        types = allowed[name]
        if not (isinstance(value, types) and not (isinstance(value, bool) and bool not in types)):
            wanted = " or ".join(_TYPES.get(t, t.__name__) for t in types)
            raise RequestError("bad_param", f"parameter {name!r} must be {wanted}, got {json_type(value)}")
    return params


def json_type(value) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true or false", type(None): "null"}.get(
        type(value), "a number")


HAND = (str, list)  # any notation parse_hand reads from JSON: a string, or a list of tiles / 34 counts
WIND = (str, int)
_WINDS = {"seat_wind": WIND, "prevalent_wind": WIND, "flowers": (int,)}
_CONDITIONS = {**_WINDS, "self_drawn": (bool,), "last_copy": (bool,), "kong": (bool,), "last_tile": (bool,)}


def _hand(params: dict):
    from ..hand import parse_hand

    return parse_hand(params["hand"])


def op_parse(params: dict) -> dict:
    _take(params, {"hand": HAND})
    hand = _hand(params)
    from ..tiles import format_tiles

    return {"hand": hand.to_compact(), "standing": format_tiles(hand.counts), "melds": [str(m) for m in hand.melds],
            "tiles": hand.n_standing + 3 * hand.n_melds, "drawn": hand.drawn, "concealed": hand.concealed,
            "last_tile": None if hand.last_tile is None else format_tiles([hand.last_tile])}


def op_tiles(params: dict) -> dict:
    _take(params, {"tiles": HAND}, ("tiles",))
    from ..hand import visible_counts
    from ..tiles import TILE_NAMES

    counts = [int(c) for c in visible_counts(params["tiles"])]
    return {"tiles": [TILE_NAMES[t] for t in range(len(counts)) for _ in range(counts[t])], "counts": counts}


def op_shanten(params: dict) -> dict:
    _take(params, {"hand": HAND})
    import mjfast

    by_form = mjfast.shanten_by_form(_hand(params))
    return {"shanten": min(v for v in by_form.values() if v is not None), "by_form": by_form}


def op_acceptance(params: dict) -> dict:
    _take(params, {"hand": HAND, "visible": HAND})
    import mjfast

    hand, visible = _hand(params), params.get("visible")
    useful = mjfast.useful_tiles(hand)
    return {"shanten": mjfast.shanten(hand), "useful": useful, "acceptance": mjfast.acceptance(hand, visible=visible)}


def _fan_conditions(params: dict, names) -> dict:
    return {name: params[name] for name in names if params.get(name) is not None}


def op_waits(params: dict) -> dict:
    _take(params, {"hand": HAND, "visible": HAND, "fans": (bool,), **_CONDITIONS, **RULESET})
    import mjfast

    hand, visible = _hand(params), params.get("visible")
    waits = mjfast.waits(hand)
    result = {"waits": waits, "acceptance": mjfast.acceptance(hand, visible=visible) if waits else 0}
    if params.get("fans"):
        from ..fan import winning_tiles

        wins = winning_tiles(hand, ruleset=_ruleset(params.get("ruleset")), **_fan_conditions(params, _CONDITIONS))
        result["fans"] = [{"tile": tile, "total": r.total, "points": r.points, "meets_minimum": r.meets_minimum}
                          for tile, r in wins.items()]
    return result


def advice(hand, visible=None, seat_wind="E", prevalent_wind="E", flowers=0, fan_aware=True, ranking=None,
           draws=None, drawn=None, budget_ms=None, opponents=None, ruleset=None) -> dict:
    """The advise result: the hand, its shanten (overall and per form), the model that ranked
    the discards (mjfast.advice.value.MODELS), each opponent's chance of being ready when
    `opponents` are given (mjfast.advice.danger.Opponent), and every discard. A hand waiting to draw
    raises HandError (advise ranks the discards of one that has drawn)."""
    import mjfast

    from ..hand import require_size

    require_size(hand, 14, "advise")
    danger = _danger(hand, visible, opponents, prevalent_wind, draws)
    options = mjfast.best_discards(hand, visible=visible, seat_wind=seat_wind, prevalent_wind=prevalent_wind,
                                   flowers=flowers, fan_aware=fan_aware, ranking=ranking, draws=draws, drawn=drawn,
                                   budget_ms=budget_ms, danger=danger, ruleset=ruleset)
    by_form = mjfast.shanten_by_form(hand)
    result = {
        "hand": hand.to_compact(),
        "shanten": min(v for v in by_form.values() if v is not None),
        "shanten_by_form": by_form,
        "model": options[0].model,
        "options": [_option(o) for o in options],
    }
    if danger is not None:
        result["ready"] = [round(r, 4) for r in danger.ready]
    return result


def _danger(hand, visible, opponents, prevalent_wind, draws):
    """The Danger of the opponents given (mjfast.advice.danger.Opponent list), None without them."""
    if not opponents:
        return None
    from ..advice.danger import hand_danger
    from ..advice.model import value_model

    return hand_danger(hand, visible, opponents, prevalent_wind, value_model(draws).draws)


def opponents_param(value) -> "list | None":
    """The request's `opponents` (a list of objects {"seat", "discards", "melds", "draws",
    "passed"}) as mjfast.advice.danger.Opponents; RequestError for a malformed one."""
    if value is None:
        return None
    from ..advice.danger import opponent

    if not isinstance(value, list) or len(value) > 3:
        raise RequestError("bad_param",
                           "'opponents' is a list of at most 3 objects {seat, discards, melds, draws, passed}")
    found = []
    for item in value:
        if not isinstance(item, dict) or "seat" not in item:
            raise RequestError("bad_param", "each opponent is an object with 'seat' (and 'discards', 'melds', 'draws', "
                                            "'passed')")
        _take(item, {"seat": WIND, "discards": HAND, "melds": HAND, "draws": (int,), "passed": HAND}, ("seat",))
        found.append(opponent(item["seat"], item.get("discards") or (), item.get("melds") or (), item.get("draws", 0),
                              item.get("passed") or ()))
    return found


def _option(o) -> dict:
    row = {"tile": o.tile, "shanten": o.shanten, "useful": list(o.useful), "useful_kinds": o.useful_kinds,
           "acceptance": o.acceptance, "next_acceptance": round(o.next_acceptance, 3)}
    if o.effective_shanten is not None:
        row["effective_shanten"] = o.effective_shanten
    if o.valid_acceptance is not None:
        row["valid_acceptance"] = o.valid_acceptance
        if o.shanten == 1:
            row["next_valid_acceptance"] = round(o.next_valid_acceptance, 3)
            row["valid_draws"] = list(o.valid_draws)
    if o.wait_fans:
        row["waits"] = [{"tile": w.tile, "fans": w.discard, "fans_self_drawn": w.self_drawn} for w in o.wait_fans]
    _value_fields(row, o)
    if o.deal_in is not None:
        row["deal_in"] = round(o.deal_in, 4)
        row["deal_in_cost"] = round(o.deal_in_cost, 3)
    return row


def _value_fields(row: dict, o) -> None:
    """The value figures of an option (a discard or a claim), where it has them."""
    if o.win_probability is not None:
        row["win_probability"] = round(o.win_probability, 4)
        row["expected_score"] = round(o.expected_score, 3)
        row["ready_by_draw"] = [round(p, 4) for p in o.ready_by_draw]
        row["win_by_draw"] = [round(p, 4) for p in o.win_by_draw]


_VALUE = {"ranking": (str,), "draws": (int,), "budget_ms": (int, float)}


def op_advise(params: dict) -> dict:
    _take(params, {"hand": HAND, "visible": HAND, "fan_aware": (bool,), "drawn": (str, int), "opponents": (list,),
                   **_WINDS, **_VALUE, **RULESET})
    return advice(_hand(params), params.get("visible"), fan_aware=params.get("fan_aware", True),
                  opponents=opponents_param(params.get("opponents")), ruleset=_ruleset(params.get("ruleset")),
                  **_fan_conditions(params, (*_WINDS, *_VALUE, "drawn")))


_OFFERED_BY = {"left": 1, "across": 2, "right": 3, 1: 1, 2: 2, 3: 3}


def claim(hand, tile, offered_by, visible=None, last_discard=False, opponents=None, **conditions) -> dict:
    """The claim result: every answer to the discard, best first (mjfast.claim_options), with
    the danger of the opponents given (their discards then count the offered tile)."""
    from ..advice.claims import WHO, claim_options

    danger = None
    if opponents:
        from ..hand import visible_counts
        from ..tiles import tile_id

        seen = visible_counts(visible).astype(int)
        seen[tile_id(tile)] += 1  # the offered tile is on the table
        danger = _danger(hand, seen, opponents, conditions.get("prevalent_wind", "E"), conditions.get("draws"))
    options = claim_options(hand, tile, offered_by, visible, last_discard=last_discard, danger=danger, **conditions)
    rows = []
    for o in options:
        row = {"action": o.action, "meld": o.meld, "discard": o.discard, "shanten": o.shanten}
        if o.fans is not None:
            row["fans"] = o.fans
        if o.valid_acceptance is not None:
            row["valid_acceptance"] = o.valid_acceptance
        _value_fields(row, o)
        if o.deal_in is not None:
            row["deal_in"] = round(o.deal_in, 4)
            row["deal_in_cost"] = round(o.deal_in_cost, 3)
        rows.append(row)
    result = {"hand": hand.to_compact(), "tile": tile, "from": WHO[offered_by], "model": options[-1].model,
              "options": rows}
    if danger is not None:
        result["ready"] = [round(r, 4) for r in danger.ready]
    return result


def op_claim(params: dict) -> dict:
    _take(params, {"hand": HAND, "tile": (str, int), "from": (str, int), "visible": HAND, "last_discard": (bool,),
                   "opponents": (list,), **_WINDS, **_VALUE, **RULESET}, ("hand", "tile", "from"))
    offered_by = _OFFERED_BY.get(params["from"])
    if offered_by is None:
        raise RequestError("bad_param", f"'from' is who discarded the tile: left, across or right (or 1-3), "
                                        f"got {params['from']!r}")
    from ..tiles import tile_name

    return claim(_hand(params), tile_name(params["tile"]), offered_by, params.get("visible"),
                 params.get("last_discard", False), opponents_param(params.get("opponents")),
                 ruleset=_ruleset(params.get("ruleset")), **_fan_conditions(params, (*_WINDS, *_VALUE)))


def fan_rows(result) -> list:
    return [{"name_cn": f.name_cn, "name_en": f.name_en, "points": f.points, "count": f.count} for f in result.fans]


def _ruleset(value):
    """The Ruleset a request names: a preset's name (mjfast.fan.RULESETS: judge, tziakcha,
    wmo2014, strict_1998), or an object of Ruleset fields (the switches true or false, "minimum"
    a number; the others keep the judge's value); None when it names none."""
    from ..errors import ArgumentError
    from ..fan.ruleset import RULESETS, Ruleset

    if value is None:
        return None
    if isinstance(value, str):
        if value not in RULESETS:
            raise RequestError("bad_param", f"parameter 'ruleset' must be a preset ({', '.join(RULESETS)}) or an "
                                            f"object of switches, got {value!r}")
        return RULESETS[value]
    fields = {name: (int,) if name == "minimum" else (bool,) for name in Ruleset.__dataclass_fields__}
    unknown = sorted(set(value) - set(fields))
    if unknown:
        raise RequestError("bad_param",
                           f"unknown ruleset field(s) {', '.join(unknown)}; known: {', '.join(sorted(fields))}")
    try:
        return Ruleset(**_take(dict(value), fields, ()))  # _take drops nulls: a switch's default
    except ArgumentError as exc:  # switches that contradict each other
        raise RequestError("bad_param", f"parameter 'ruleset': {exc}") from None


def _scored(params: dict):
    from ..fan import score, score_best_tile

    scorer = score_best_tile if params.get("best_tile") else score
    return scorer(_hand(params), ruleset=_ruleset(params.get("ruleset")), **_fan_conditions(params, _CONDITIONS))


RULESET = {"ruleset": (str, dict)}
_SCORING = {**_CONDITIONS, **RULESET, "best_tile": (bool,)}


def op_score(params: dict) -> dict:
    _take(params, {"hand": HAND, **_SCORING})
    result = _scored(params)
    return {"total": result.total, "points": result.points, "meets_minimum": result.meets_minimum,
            "fans": fan_rows(result), "win_tile": result.win_tile, "self_drawn": result.self_drawn,
            "last_copy": result.last_copy, "kong": result.kong, "last_tile": result.last_tile,
            "ruleset": result.ruleset.name}


def op_settle(params: dict) -> dict:
    _take(params, {"hand": HAND, "winner": (int,), "discarder": (int,), **_SCORING}, ("hand", "winner"))
    from ..fan import settle

    result = _scored(params)
    return {"total": result.total, "scores": settle(result, params["winner"], params.get("discarder"))}


def _bad_log(match_id: str, line: int, reason: str) -> RequestError:
    return RequestError("bad_log", f"match {match_id}, line {line}: {reason}")


def _log_games(text: str) -> list:
    """The games of a log's text (GameLog or BrokenGame each): Botzone's JSON (either shape), a
    Tziakcha session, or the text format."""
    from ..game import read_games
    from ..game.botzone_log import JSON_BLANK
    from ..game.reading import json_blocks, parsed

    if text.lstrip(JSON_BLANK)[:1] in ("[", "{"):
        return [parsed(block) for block in json_blocks(text, "web")]
    games = list(read_games(text.splitlines()))
    if not games:
        raise RequestError("bad_log", "no game in the log: Botzone's JSON match log, a Tziakcha session or the "
                                      "Botzone / PKU text format")
    return games


def op_review(params: dict) -> dict:
    _take(params, {"log": (str,), "game": (int,), "player": (int,), "value": (bool,), **RULESET}, ("log",))
    from ..game import BrokenGame, LogError
    from ..review import render_page, review_game
    from ..review.run import game_summaries

    games = _log_games(params["log"])
    k = params.get("game", 0)
    if not 0 <= k < len(games):
        raise RequestError("bad_param", f"'game' is a game of the log, 0-{len(games) - 1}, got {k}")
    game = games[k]
    if isinstance(game, BrokenGame):
        raise _bad_log(game.match_id, game.line, game.reason)
    player = params.get("player")
    if player is not None and player not in (0, 1, 2, 3):
        raise RequestError("bad_param", f"'player' is a seat 0-3, got {player}")
    seats = (0, 1, 2, 3) if player is None else (player,)
    try:
        review = review_game(game.scored_under(_ruleset(params.get("ruleset"))), seats, value=params.get("value", True))
    except LogError as exc:
        raise _bad_log(exc.match_id, exc.line, exc.reason) from None
    summaries = {name: s.to_dict() for name, s in game_summaries(game, review, seats).items()}
    return {"match_id": game.match_id, "games": len(games), "game": k, "decisions": len(review["decisions"]),
            "html": render_page(review, summaries)}


def op_version(params: dict) -> dict:
    _take(params, {}, ())
    from .. import __version__

    return {"protocol": PROTOCOL_VERSION, "mjfast": __version__, "ops": sorted(OPS)}


OPS = {
    "parse": op_parse,
    "tiles": op_tiles,
    "shanten": op_shanten,
    "waits": op_waits,
    "acceptance": op_acceptance,
    "advise": op_advise,
    "claim": op_claim,
    "score": op_score,
    "settle": op_settle,
    "review": op_review,
    "version": op_version,
}
