"""The report a person reads first: report.md with three plots (PNG) beside it.

Everything here is drawn from the summary (summary.Summary.to_dict), never from the
decision table, so the report costs the same however many games were read. Needs
matplotlib (the `logs` extra); it draws off-screen.
"""

from __future__ import annotations

from pathlib import Path

from .resume import atomic, write_atomically

PLOTS = {
    "efficiency_by_turn.png": "Efficiency loss by turn",
    "agreement_by_player.png": "Agreement with mjfast by player",
    "win_fans.png": "Fans of the wins",
}
SEAT_NAMES = ("0 (East)", "1 (South)", "2 (West)", "3 (North)")


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # files only: no screen needed
    import matplotlib.pyplot as plt

    return plt


def _by_shanten(s: dict) -> list:
    """The agreement table by the hand's shanten, for each ranking computed."""
    computed = (("plain", "plain", True), ("fan_aware", "fan-aware", s["fan_aware"]), ("value", "value", s["value"]))
    rankings = [(name, label) for name, label, on in computed if on]
    lines = ["How often the tile played was each ranking's first choice (and among its first three), by the hand's "
             "shanten:", "",
             "| shanten | discards | " + " | ".join(f"{label} top 1 | top 3" for _, label in rankings) + " |",
             "|---|---|" + "---|---|" * len(rankings)]
    for band, figures in s["by_shanten"].items():
        cells = [f"{_percent(figures[name + '_top1'])} | {_percent(figures[name + '_top3'])}" for name, _ in rankings]
        lines.append(f"| {band} | {figures['discards']} | " + " | ".join(cells) + " |")
    return lines + [""]


def _players_by_name(s: dict) -> list:
    """The table of players by name (a bot's name in Botzone JSON logs, else its seat), with the
    value ranking's figures of their discards when computed."""
    value = s["value"]
    head = "| player | games | mean score (95%) | win rate | dealt in | fan-aware agreement |"
    rule = "|---|---|---|---|---|---|"
    if value:
        head += " value agreement (95%) | top 3 | bad moves | points lost per discard (95%) |"
        rule += "---|---|---|---|"
    lines = ["The players by name" + (" (a bad move loses 1 point or more and 10% or more of the best discard's "
                                      "expected score: mjfast.advice.loss)" if value else "") + ":", "",
             head + " claims made / possible |", rule + "---|"]
    for name, f in s["players_by_name"].items():
        row = (f"| {name} | {f['games']} | {_number(f['mean_score'])}{_interval(f['score_interval'])} "
               f"| {_percent(f['win_rate'])} | {_percent(f['dealt_in_rate'])} | {_percent(f['fan_aware_agreement'])} |")
        if value:
            lost = f["points_lost"]
            row += (f" {_percent(f['value_agreement'])}{_interval(f['value_agreement_interval'], 100, '%')} "
                    f"| {_percent(f['value_top3'])} | {f['bad_moves']} ({_percent(f['bad_move_rate'])}) "
                    f"| {_number(lost['mean'])}{_interval(lost['interval'], digits=2)} |")
        lines.append(row + f" {f['claims_made']} / {f['claim_opportunities']} |")
    return lines + [""]


def _interval(interval, scale: float = 1.0, unit: str = "", digits: int = 1) -> str:
    if interval is None:
        return ""
    low, high = (f"{scale * x:.{digits}f}{unit}" for x in interval)
    return f" ({low} to {high})"


def _percent(rate) -> str:
    return "–" if rate is None else f"{100 * rate:.1f}%"


def _number(value, digits: int = 2) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _save(plt, fig, path: Path) -> None:
    """Lay a figure out and write it as the PNG at `path` (whole or not at all), then free it."""
    fig.tight_layout()
    with atomic(path) as temporary:
        fig.savefig(temporary, dpi=100, format="png")
    plt.close(fig)


def _plot_turns(plt, summary: dict, path: Path) -> None:
    turns = summary["by_turn"]
    x = [t["turn"] for t in turns]
    fig, (loss, agree) = plt.subplots(2, 1, sharex=True, figsize=(8, 6))
    loss.bar(x, [t["mean_acceptance_lost"] or 0 for t in turns], color="tab:red")
    loss.set_ylabel("mean acceptance lost\n(tiles per discard)")
    loss.set_title(PLOTS[path.name])
    agree.plot(x, [t["plain_agreement"] for t in turns], marker="o", label="plain (efficiency)")
    if summary["fan_aware"]:
        agree.plot(x, [t["fan_aware_agreement"] for t in turns], marker="s", label="fan-aware")
    agree.set_ylim(0, 1)
    agree.set_ylabel("discards = mjfast's best")
    agree.set_xlabel("the player's turn (1 = first discard)")
    agree.legend(loc="lower right")
    _save(plt, fig, path)


def _plot_players(plt, summary: dict, path: Path) -> None:
    players = summary["players"]
    series = [("plain_agreement", "plain (efficiency)"), ("efficient_discards", "no acceptance lost")]
    if summary["fan_aware"]:
        series.insert(1, ("fan_aware_agreement", "fan-aware"))
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for k, (key, label) in enumerate(series):
        ax.bar([p + k * width for p in range(4)], [players[str(p)][key] or 0 for p in range(4)], width,
               label=label)
    ax.set_xticks([p + width * (len(series) - 1) / 2 for p in range(4)], SEAT_NAMES)
    ax.set_xlabel("seat")
    ax.set_ylabel("share of discards")
    ax.set_ylim(0, 1)
    ax.set_title(PLOTS[path.name])
    ax.legend(loc="lower right")
    _save(plt, fig, path)


def _plot_fans(plt, summary: dict, path: Path) -> None:
    fans = {int(total): n for total, n in summary["win_fans"].items()}
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar(list(fans), list(fans.values()), color="tab:green")
    ax.set_xlabel("fans of the win (as mjfast scores it)")
    ax.set_ylabel("wins")
    ax.set_title(PLOTS[path.name])
    _save(plt, fig, path)


def _listed(title: str, items: list, line, shown: int = 20) -> list:
    """A section listing the first `shown` items (line(item) each), none when there are none."""
    if not items:
        return []
    lines = [f"## {title}", "", *(f"- {line(item)}" for item in items[:shown])]
    if len(items) > shown:
        lines.append(f"- ... and {len(items) - shown} more in summary.json")
    return lines + [""]


def write_report(summary: dict, folder: Path, inputs: list) -> Path:
    """Write the plots and report.md into `folder`; returns the report's path."""
    plt = _pyplot()
    for name, plot in zip(PLOTS, (_plot_turns, _plot_players, _plot_fans)):
        plot(plt, summary, folder / name)
    s = summary
    lines = [
        "# Game log analysis",
        "",
        f"{s['games_read']} games read from {len(inputs)} file(s): {s['games_analysed']} "
        f"analysed, {s['games_rejected']} rejected. {s['wins']} wins ({s['self_drawn_wins']} self-drawn), "
        f"{s['exhaustive_draws']} exhaustive draws, {s['fouls']} fouls. The winners' fans as mjfast scores them "
        f"match {s['fan_lines_matched']} of {s['fan_lines']} Fan lines; the scores match "
        f"{s['score_lines_matched']} of {s['games_analysed']} Score lines."
        + (f" Of the {s['botzone_json_games']} games read from Botzone JSON logs, mjfast reproduces "
           f"{s['tile_counts_matched']} of the judge's {s['tile_counts_checked']} tileCnt values and "
           f"{s['can_hu_matched']} of its {s['can_hu_checked']} canHu values." if s["botzone_json_games"] else ""),
        "",
        f"{s['discard_decisions']} discards: {_percent(s['plain_agreement'])} were mjfast's best plain discard"
        + (f", {_percent(s['fan_aware_agreement'])} its best fan-aware discard" if s["fan_aware"] else "")
        + f"; {_percent(s['efficient_discards'])} lost no acceptance; on average "
        f"{_number(s['mean_acceptance_lost'])} tiles of acceptance were lost per discard. "
        f"{s['claim_opportunities']} claim opportunities.",
        "",
        f"![{PLOTS['efficiency_by_turn.png']}](efficiency_by_turn.png)",
        "",
        "Top: the tiles of acceptance a discard gave up against mjfast's best plain discard, by the "
        "player's turn. Bottom: how often the discard was mjfast's first choice.",
        "",
        *_by_shanten(s),
        f"![{PLOTS['agreement_by_player.png']}](agreement_by_player.png)",
        "",
        "| seat | games | win rate | dealt in | mean score | mean fans of wins | plain agreement | fan-aware agreement "
        "| mean acceptance lost | claims made / possible |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for p, name in enumerate(SEAT_NAMES):
        f = s["players"][str(p)]
        lines.append(f"| {name} | {f['games']} | {_percent(f['win_rate'])} | {_percent(f['dealt_in_rate'])} "
                     f"| {_number(f['mean_score'])} | {_number(f['mean_win_fans'], 1)} "
                     f"| {_percent(f['plain_agreement'])} | {_percent(f['fan_aware_agreement'])} "
                     f"| {_number(f['mean_acceptance_lost'])} | {f['claims_made']} / {f['claim_opportunities']} |")
    lines += ["", *_players_by_name(s), f"![{PLOTS['win_fans.png']}](win_fans.png)", ""]
    if s["fans_of_wins"]:
        common = ", ".join(f"{name} {n}" for name, n in list(s["fans_of_wins"].items())[:10])
        lines += [f"The fans most wins scored: {common}.", ""]
    lines += _listed("The judge's figures mjfast does not reproduce", s["judge_mismatches"],
                     lambda m: f"{m['file']} line {m['line']}, match {m['match_id']}: the judge's {m['what']}")
    lines += _listed("Files that could not be read", s["unreadable_files"], lambda f: f"{f['file']}: {f['reason']}")
    lines += _listed("Rejected games", s["rejected"],
                     lambda r: f"{r['file']} line {r['line']}, match {r['match_id']}: {r['reason']}")
    lines += ["Tables: decisions.parquet / decisions.csv (one row per decision), games.parquet / games.csv "
              "(one row per game), summary.json (these figures). Columns: docs/logs.md.", ""]
    path = folder / "report.md"
    write_atomically(path, "\n".join(lines))
    return path
