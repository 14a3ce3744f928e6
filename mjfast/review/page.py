"""The page of a game's review: one self-contained HTML file (inline CSS and script, nothing
fetched) that steps through the game.

Every step is written out as a `<section class="step">` (the four seats: hand, melds, river,
flowers, tiles left; the action; the decisions reviewed at that step with mjfast's options),
so the page reads without its script too; the script shows one step at a time: buttons, and
the arrow keys (left / right: a step, up / down: the previous / next decision, Home / End),
and hides the decisions that lost fewer points than the severity asked for. At the top: the
players' figures, the game's curve per seat (inline SVG: the expected score of mjfast's best
at each decision, the points lost below it) and the decisions that lost most, worst first.
A page that writes Chinese (a win's fan names) carries the web page's font inline
(font_style). docs/review.md describes what is shown.
"""

from __future__ import annotations

import base64
from functools import cache
from html import escape

from ..advice.loss import BAD_POINTS, BAD_SHARE
from ..web.make_font import CJK, CJK_RANGES, FONT
from .decisions import FIGURES
from .summary import COSTS, plus_minus

WORST = 10  # the decisions listed at the top, worst first

WINDS = "ESWN"
_FIGURE_LABELS = {"effective_shanten": "eff. shanten", "shanten": "shanten", "valid_acceptance": "valid tiles",
                  "acceptance": "tiles", "next_valid_acceptance": "next valid", "next_acceptance": "next",
                  "fans": "fans", "points": "points"}
_FLAG_TEXT = {"win_declined": "a win of 8 fans or more not taken", "winning_tile_discarded":
              "the tile played completes the hand it leaves (8 fans or more)",
              "claim_lowers_value": "the claim leaves the hand further from a win than passing"}
_VALUE = ("win_probability", "expected_score")  # shown first where the value ranking ranks

_STYLE = """
body{font:14px/1.4 "mjfast CJK",system-ui,sans-serif;margin:0;background:#f4f1ea;color:#222}
header{padding:10px 16px;background:#24423a;color:#f4f1ea}
header h1{font-size:18px;margin:0 0 4px}
header table{border-collapse:collapse;margin-top:6px}
header td,header th{padding:2px 8px;text-align:left;font-weight:normal}
nav{position:sticky;top:0;background:#e2dccd;padding:6px 16px;display:flex;gap:6px;align-items:center;z-index:1}
nav button{font:inherit;padding:3px 10px}
#counter{margin-left:8px;font-weight:bold}
.hint{color:#555;margin-left:auto}
main{padding:8px 16px}
.step{display:none}
.step.current{display:block}
.step h2{font-size:16px;margin:8px 0}
.seats{display:grid;grid-template-columns:repeat(2,minmax(320px,1fr));gap:8px}
.seat{background:#fff;border:1px solid #cfc7b4;border-radius:6px;padding:6px 8px}
.seat.actor{border-color:#b5452e;box-shadow:0 0 0 2px #e7b8ad}
.seat h3{font-size:13px;margin:0 0 4px}
.row{margin:2px 0;min-height:26px}
.label{display:inline-block;width:52px;color:#666;font-size:12px}
.tile{display:inline-block;min-width:22px;padding:2px 3px;margin:1px;border:1px solid #aaa;border-radius:3px;
background:#fffdf6;text-align:center;font-weight:600;font-size:13px}
.tile.m{color:#b3261e}.tile.p{color:#1f4e9c}.tile.s{color:#2a7a2a}.tile.z{color:#333}
.tile.drawn{outline:2px solid #d79b00}
.meld{display:inline-block;margin-right:6px;padding:0 2px;border-bottom:2px solid #999}
.decision{background:#fff;border:1px solid #cfc7b4;border-left:4px solid #24423a;border-radius:6px;margin:8px 0;
padding:6px 8px}
.decision.differs{border-left-color:#b5452e}
.decision h3{font-size:14px;margin:0 0 4px}
table.options{border-collapse:collapse;font-size:13px}
table.options th,table.options td{border-bottom:1px solid #e5e0d4;padding:2px 8px;text-align:right}
table.options td.option,table.options th.option{text-align:left}
tr.mjfast td{background:#e3efe6}
tr.chosen td{font-weight:bold}
tr.chosen td.option::after{content:" \\2190 chosen";color:#b5452e;font-weight:normal}
.flag{color:#b5452e;font-weight:bold}
.cost{color:#444}
.result{background:#fff;border:1px solid #cfc7b4;border-radius:6px;padding:6px 8px;margin:8px 0}
.value{margin:4px 0}
.bad{color:#fff;background:#b5452e;border-radius:3px;padding:0 4px;font-weight:bold}
.accepts{color:#444;margin:2px 0}
.decision.filtered{display:none}
.overview{display:flex;flex-wrap:wrap;gap:12px;padding:8px 16px;background:#ebe6da}
.overview h2{font-size:14px;margin:0 0 4px}
.overview ol{margin:0;padding-left:22px}
.overview a{color:#24423a}
svg.curve{background:#fff;border:1px solid #cfc7b4;border-radius:6px}
svg.curve text{font:11px system-ui,sans-serif;fill:#444}
#severity{width:60px}
"""

_SCRIPT = """
(function () {
  var steps = Array.prototype.slice.call(document.querySelectorAll("section.step"));
  var counter = document.getElementById("counter");
  var at = 0;
  function show(k) {
    k = Math.max(0, Math.min(steps.length - 1, k));
    steps[at].classList.remove("current");
    at = k;
    steps[at].classList.add("current");
    counter.textContent = "step " + (at + 1) + " / " + steps.length;
    if (history.replaceState) history.replaceState(null, "", "#" + steps[at].id);
  }
  function decision(direction) {
    for (var k = at + direction; k >= 0 && k < steps.length; k += direction) {
      if (steps[k].querySelector(".decision:not(.filtered)")) { show(k); return; }
    }
  }
  var severity = document.getElementById("severity");
  function filter() {  // only the decisions that lost more than the severity asked for
    var least = parseFloat(severity.value) || 0;
    document.querySelectorAll(".decision").forEach(function (d) {
      var lost = d.getAttribute("data-lost");
      d.classList.toggle("filtered", least > 0 && (lost === "" || parseFloat(lost) <= least));
    });
  }
  severity.addEventListener("input", filter);
  var actions = {first: function () { show(0); }, back: function () { show(at - 1); },
    forward: function () { show(at + 1); }, last: function () { show(steps.length - 1); },
    "previous-decision": function () { decision(-1); }, "next-decision": function () { decision(1); }};
  Object.keys(actions).forEach(function (name) {
    document.getElementById(name).addEventListener("click", actions[name]);
  });
  document.addEventListener("keydown", function (e) {
    if (e.target.tagName === "INPUT") return;  // the severity's own arrows
    var keys = {ArrowLeft: "back", ArrowRight: "forward", ArrowUp: "previous-decision",
      ArrowDown: "next-decision", Home: "first", End: "last"};
    if (keys[e.key]) { e.preventDefault(); actions[keys[e.key]](); }
  });
  function wanted() {
    var k = steps.findIndex(function (s) { return "#" + s.id === location.hash; });
    return k >= 0 ? k : at;
  }
  window.addEventListener("hashchange", function () { show(wanted()); });  // a link to a step
  steps[0].classList.add("current");
  show(wanted());
})();
"""


_NOSCRIPT_STYLE = ".step{display:block;border-top:1px solid #999}"
# What the page holds inline (and font_style() where it writes Chinese), for a
# Content-Security-Policy that allows exactly these (web/assets.py)
REVIEW_SCRIPT, REVIEW_STYLES = _SCRIPT, (_STYLE, _NOSCRIPT_STYLE)


@cache
def font_style() -> str:
    """The web page's Chinese font (static/fonts/page-cjk.woff, made by make_font.py) as an
    inline @font-face: the page is one file that fetches nothing, and on a machine without a
    CJK font the fan names would be boxes. For CJK_RANGES only, as in the web page's style.css."""
    woff = base64.b64encode(FONT.read_bytes()).decode("ascii")
    ranges = ", ".join(f"U+{lo:04X}-{hi:04X}" for lo, hi in CJK_RANGES)
    return (f'@font-face{{font-family:"mjfast CJK";src:url(data:font/woff;base64,{woff}) format("woff");'
            f"unicode-range:{ranges}}}")


def _tile(name: str, drawn: bool = False) -> str:
    suit = name[1] if len(name) == 2 and name[1] in "mps" else "z"
    return f'<span class="tile {suit}{" drawn" if drawn else ""}">{escape(name)}</span>'


def _tiles(names, drawn=None) -> str:
    names = list(names)
    if drawn is not None and drawn in names:  # the tile just drawn, written last
        names.remove(drawn)
        return "".join(_tile(n) for n in names) + " " + _tile(drawn, True)
    return "".join(_tile(n) for n in names)


def _number(value) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".") if value % 1 else str(int(value))
    return str(value)


def _seat(review: dict, step: dict, p: int) -> str:
    seat = step["seats"][p]
    name = review["players"][p]["name"]
    actor = step["action"] is not None and step["action"]["player"] == p
    title = f"{p} ({WINDS[p]}){' · ' + escape(name) if name else ''}" + (
        " · reviewed" if p in review["reviewed"] else "")
    melds = "".join(f'<span class="meld">{escape(m)}</span>' for m in seat["melds"])
    return (f'<div class="seat{" actor" if actor else ""}" data-seat="{p}"><h3>{title} · {seat["tiles_left"]} left'
            f'{" · flowers " + str(seat["flowers"]) if seat["flowers"] else ""}</h3>'
            f'<div class="row"><span class="label">hand</span>{_tiles(seat["standing"], seat["drawn"])} {melds}</div>'
            f'<div class="row"><span class="label">river</span>{_tiles(seat["river"])}</div></div>')


def _columns(options) -> list:
    present = {k for o in options for k, v in o.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
    first = _VALUE + FIGURES + ("fans", "points")
    return [f for f in first if f in present] + sorted(present - set(first))


_SHARES = ("win_probability", "deal_in")  # probabilities, shown as percentages


def _cell(column: str, value) -> str:
    if column in _SHARES and isinstance(value, float):
        return f"{100 * value:.1f}%"
    return _number(value)


def _option_text(option: dict) -> str:
    text = escape(option["choice"])
    if "discard" in option:
        text += f" then play {escape(option['discard'])}"
    if option.get("waits"):
        text += " · waits " + ", ".join(f"{escape(w['tile'])} ({w['fans']} fans, {w['fans_self_drawn']} self-drawn)"
                                        for w in option["waits"])
    return text


def _decision(review: dict, d: dict) -> str:
    columns = _columns(d["options"])
    head = "".join(f"<th>{escape(_FIGURE_LABELS.get(c, c.replace('_', ' ')))}</th>" for c in columns)
    rows = []
    for i, option in enumerate(d["options"], 1):
        classes = " ".join(c for c, on in (("mjfast", option["choice"] == d["mjfast"]),
                                           ("chosen", option["choice"] == d["choice"])) if on)
        rank = str(i) if d["kind"] == "discard" else ""
        cells = "".join(f"<td>{_cell(c, option.get(c))}</td>" for c in columns)
        rows.append(f'<tr class="{classes}" data-choice="{escape(option["choice"])}"><td>{rank}</td>'
                    f'<td class="option">{_option_text(option)}</td>{cells}</tr>')
    verdict = "agrees with mjfast" if d["agrees"] else f"mjfast: {escape(d['mjfast'])}"
    rank = f" · rank {d['rank']} of {len(d['options'])}" if d["rank"] is not None else ""
    turn = f" · turn {d['turn']}" if d["turn"] is not None else ""
    what = f" {escape(d['tile'])}" if d["tile"] else ""
    costs = ", ".join(f"{escape(k.replace('_', ' '))} {_number(v)}" for k, v in d["cost"].items()
                      if v and k not in _VALUE)
    flags = "".join(f'<p class="flag">{escape(_FLAG_TEXT.get(f, f))}</p>' for f in d["flags"])
    lost = "" if d["points_lost"] is None else f'{d["points_lost"]:.4f}'
    return (f'<div class="decision{"" if d["agrees"] else " differs"}" data-kind="{d["kind"]}" '
            f'data-player="{d["player"]}" data-choice="{escape(d["choice"])}" data-mjfast="{escape(d["mjfast"])}" '
            f'data-lost="{lost}" data-bad="{"1" if d["bad_move"] else "0"}">'
            f'<h3>player {d["player"]}: {d["kind"]}{what}{turn} · chose {escape(d["choice"])}{rank} · {verdict}</h3>'
            f'{_value_line(d)}{_accepts_line(d)}'
            f'<table class="options"><thead><tr><th></th><th class="option">option</th>{head}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
            f'<p class="cost">{"cost against mjfast: " + costs if costs else "no cost against mjfast"}</p>'
            f'{flags}</div>')


def _value_line(d: dict) -> str:
    """The choice's win chance and expected score beside mjfast's best, and the points lost."""
    if d["points_lost"] is None:
        return ""
    chose = f'{100 * d["win_probability"]:.1f}% win, {d["expected_score"]:.2f} points expected'
    if d["agrees"]:
        return f'<p class="value">{chose} (mjfast\'s best)</p>'
    best = f'{100 * d["best_win_probability"]:.1f}% win, {d["best_expected_score"]:.2f} points'
    bad = ' <span class="bad">bad move</span>' if d["bad_move"] else ""
    return (f'<p class="value">{chose}; mjfast\'s best: {best} · <b>{d["points_lost"]:.2f} points lost</b>{bad}'
            '</p>')


def _accepts_line(d: dict) -> str:
    """What each choice accepts that the other does not (a miss)."""
    a = d["accepts"]
    if not a or not (a["mjfast_only"] or a["choice_only"]):
        return ""
    theirs = _tiles(a["choice_only"]) if a["choice_only"] else "nothing more"
    mine = _tiles(a["mjfast_only"]) if a["mjfast_only"] else "nothing more"
    return (f'<p class="accepts">accepts: the choice {theirs} · mjfast\'s {escape(d["mjfast"])} '
            f'{mine}</p>')


def _who(review: dict, p: int) -> str:
    name = review["players"][p]["name"]
    return f"player {p}" + (f" ({escape(name)})" if name else "")


# What the log's own scorer wrote of the win, beside mjfast's fans (result.logged_fans).
_LOGGED = {True: " · the log's fans are the same", False: " · the log's fans differ", None: ""}


def _result(review: dict) -> str:
    r = review["result"]
    scores = " ".join(f"{p}: {s:+d}" for p, s in enumerate(r["scores"]))
    if r["kind"] == "win":
        how = "self-drawn" if r["discarder"] is None else f"on {_who(review, r['discarder'])}'s tile"
        fans = " + ".join(f"{escape(f['name'])} {f['total']}" for f in r["fans"])
        return (f"{_who(review, r['winner'])} wins {how}, {r['fan_total']} fans ({fans})"
                f"{_LOGGED[r.get('logged_fans')]}; scores {scores}")
    if r["kind"] == "draw":
        return f"exhaustive draw; scores {scores}"
    return f"{_who(review, r.get('offender'))} fouls; scores {scores}"


def _summary_rows(summaries: dict) -> str:
    rows = []
    for name, s in summaries.items():
        agreement = _percent(s["agreement"])
        if s["agreement_interval"] is not None:
            low, high = s["agreement_interval"]
            agreement += f" ({100 * low:.0f}-{100 * high:.0f}%)"
        bad = "–" if s["bad_move_rate"] is None else f"{s['bad_moves']} ({_percent(s['bad_move_rate'])})"
        lost = plus_minus(s["points_lost"])
        costs = "; ".join(f"{c.replace('_', ' ')} {_number(s['cost'][c]['mean'])}" for c in COSTS if c in s["cost"])
        rows.append(f"<tr><td>{escape(name)}</td><td>{s['decisions']}</td><td>{agreement}</td>"
                    f"<td>{_percent(s['top3'])}</td><td>{bad}</td><td>{lost}</td><td>{escape(costs)}</td></tr>")
    return "".join(rows)


def _worst(review: dict) -> str:
    """The decisions that lost most points, worst first, each a link to its step."""
    lost = sorted((d for d in review["decisions"] if d["points_lost"]), key=lambda d: -d["points_lost"])[:WORST]
    if not lost:
        return ""
    items = "".join(
        f'<li><a href="#step-{d["step"]}">player {d["player"]} {d["kind"]}'
        f'{" turn " + str(d["turn"]) if d["turn"] is not None else ""}: {escape(d["choice"])}, mjfast '
        f'{escape(d["mjfast"])}</a>: {d["points_lost"]:.2f} points{" (bad move)" if d["bad_move"] else ""}</li>'
        for d in lost)
    return f'<div class="worst"><h2>The decisions that lost most</h2><ol>{items}</ol></div>'


def curve(review: dict, seat: int, width: int = 420, height: int = 150) -> str:
    """An inline SVG of one seat's game: at each of its valued decisions, the expected score of
    mjfast's best (the line) and the points lost (bars below the axis; dark red for a bad
    move); empty when the seat has no valued decision."""
    points = [d for d in review["decisions"] if d["player"] == seat and d["best_expected_score"] is not None]
    if not points:
        return ""
    left, top, bottom = 34, 16, 20
    middle = top + (height - top - bottom) * 2 / 3  # the axis: scores above, losses below
    high = max(1.0, max(d["best_expected_score"] for d in points))
    deep = max(1.0, max(d["points_lost"] for d in points))
    step = (width - left - 6) / max(1, len(points))
    x = [left + step * (i + 0.5) for i in range(len(points))]
    above, below = middle - top, height - bottom - middle
    line = " ".join(f"{x[i]:.1f},{middle - above * d['best_expected_score'] / high:.1f}" for i, d in enumerate(points))
    bars = "".join(
        f'<rect x="{x[i] - step * 0.35:.1f}" y="{middle:.1f}" width="{step * 0.7:.1f}" '
        f'height="{below * d["points_lost"] / deep:.1f}" fill="{"#8b1a1a" if d["bad_move"] else "#e39a86"}">'
        f'<title>turn {d["turn"]}: {escape(d["choice"])}, {d["points_lost"]:.2f} points lost</title></rect>'
        for i, d in enumerate(points) if d["points_lost"])
    return (f'<svg class="curve" data-seat="{seat}" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'role="img" aria-label="seat {seat}: expected score and points lost by decision">'
            f'<text x="4" y="12">seat {seat} · line: best\'s expected score (≤{high:.1f}) · bars: points lost '
            f'(≤{deep:.1f})</text>'
            f'<line x1="{left}" y1="{middle:.1f}" x2="{width - 4}" y2="{middle:.1f}" stroke="#999"/>'
            f'<text x="4" y="{middle + 4:.1f}">0</text>{bars}'
            f'<polyline points="{line}" fill="none" stroke="#24423a" stroke-width="1.5"/>'
            f'<text x="{left}" y="{height - 4}">decisions 1-{len(points)}, in game order</text></svg>')


def _percent(share) -> str:
    return "–" if share is None else f"{100 * share:.0f}%"


def render_page(review: dict, summaries: "dict | None" = None) -> str:
    """The HTML page of one game's review (decisions.review_game); summaries: the players'
    figures in this game (summary.Summary.to_dict by player), shown at the top."""
    steps = review["steps"]
    decisions = review["decisions"]
    sections = []
    for step in steps:
        action = step["action"]
        said = escape(action["text"]) if action is not None else "the end: " + _result(review)
        here = "".join(_decision(review, decisions[i]) for i in step["decisions"])
        seats = "".join(_seat(review, step, p) for p in range(4))
        sections.append(
            f'<section class="step" id="step-{step["step"]}" data-step="{step["step"]}" '
            f'data-decisions="{len(step["decisions"])}"><h2>step {step["step"] + 1} of {len(steps)} · line '
            f'{step["line"]} · {said}</h2><div class="seats">{seats}</div>{here}</section>')
    table = ""
    if summaries:
        table = ("<table><tr><th>player</th><th>decisions</th><th>agreement (95%)</th><th>top 3</th>"
                 "<th>bad moves</th><th>points lost per decision</th>"
                 f"<th>mean cost per decision</th></tr>{_summary_rows(summaries)}</table>")
    curves = "".join(curve(review, p) for p in review["reviewed"])
    overview = f'<div class="overview">{curves}{_worst(review)}</div>' if curves else ""
    names = ", ".join(f"{p['seat']}: {escape(p['name'])}" for p in review["players"] if p["name"])
    title = escape(review["match_id"])
    body = (
        f'<header><h1>mjfast review: {title}</h1>'
        f'<div>{escape(review["file"])} · prevalent wind {WINDS[review["prevalent_wind"]]} · '
        f'wall {review["wall"]} · rules {escape(review["ruleset"])}{" · " + names if names else ""}</div>'
        f'<div>{_result(review)}</div>{table}</header>{overview}'
        '<nav><button id="first" title="Home">&#xAB; first</button><button id="back" title="left arrow">&#x25C0; back'
        '</button><button id="forward" title="right arrow">forward &#x25B6;</button><button id="last" title="End">'
        'last &#xBB;</button><button id="previous-decision" title="up arrow">&#x25B2; decision</button>'
        '<button id="next-decision" title="down arrow">decision &#x25BC;</button><span id="counter"></span>'
        '<label for="severity">lost more than</label><input id="severity" type="number" '
        f'min="0" step="0.5" value="0" title="points; a bad move loses {BAD_POINTS:g} point or more and '
        f'{100 * BAD_SHARE:.0f}% or more of the best\'s expected score"> points'
        '<span class="hint">keys: &#x2190; &#x2192; step, &#x2191; &#x2193; decision, Home, End</span></nav>'
        f'<main>{"".join(sections)}</main><script>{_SCRIPT}</script></body></html>\n')
    font = f"<style>{font_style()}</style>" if CJK.search(title + body) else ""  # 76 KB: only when needed
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>mjfast review: {title}</title><style>{_STYLE}</style>{font}'
            f'<noscript><style>{_NOSCRIPT_STYLE}</style></noscript></head><body>{body}')
