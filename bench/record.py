"""The speed record: every headline path of mjfast beside its anchor, in one process, one table.

    python bench/record.py                  # the full record (a few minutes on 2 cores)
    python bench/record.py --quick          # what .ci/run runs after the tests (under 3 minutes)
    python bench/record.py --quick --baseline bench/record.json --check   # fail on a regression
    python bench/record.py --tree ../old    # the same record of another checkout (an A/B)
    python bench/record.py --install        # adds the README's first command, timed (fresh venv)

Each row times mjfast and its anchor on the same inputs, interleaved in the same process, and
keeps the ratio anchor / mjfast (higher is better). The anchor is PyMahjongGB doing the same
work where it can (shanten, useful tiles, a best-discard analysis built from its calls, fan
scores, winning tiles); elsewhere it is the machine's yardstick, PyMahjongGB's all-forms
shanten per call (ANCHOR_US at the reference speed): a ratio against it moves with mjfast's
speed, not with the machine's, which drifts by a third from run to run here. The goals are
the issues' (47 and 48), stated as ratios in GOALS. `--out` writes the figures as JSON;
bench/record.json is the committed baseline, and `--check` fails (exit 1) when a row's ratio
falls below half of the baseline's (docs/install.md: when to refresh it).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from gb_work import FORMS as GB_FORMS
from gb_work import winning_tiles as gb_winning_tiles

ROOT = Path(__file__).resolve().parent.parent
ANCHOR_US = 6.5  # PyMahjongGB's all-forms shanten per call on the machine the goals were set on
REGRESSION = 0.5  # --check fails when a ratio falls below this fraction of the baseline's
YARDSTICK = "PyMahjongGB shanten/call"

# Goals as ratios anchor/mjfast. Like-for-like rows: the multiple. Yardstick rows: the
# goal in microseconds at the reference speed, ANCHOR_US / goal_us.
GOALS = {
    "batch_shanten": 100.0,
    "shanten_of_parsed_text": 2.0,
    "parse_hand": ANCHOR_US / 1.5,
    "best_discard_efficiency": 100.0,
    "fan_aware": ANCHOR_US / 25.0,
    "value_1": ANCHOR_US / 200.0,
    "value_2": ANCHOR_US / 2_000.0,
    "value_3": ANCHOR_US / 21_000.0,
    "value_4": ANCHOR_US / 100_000.0,
    "value_5": ANCHOR_US / 100_000.0,
    "review_game": ANCHOR_US / (1e6 / 3),  # three games a second on 2 cores: one at a time here
    "install": 1.0,  # the README's first command in 60 s or less: the figure is 60 s / its seconds
}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands and rounds (CI)")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose mjfast is measured")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    parser.add_argument("--baseline", type=Path, help="a record's JSON to print beside this one")
    parser.add_argument("--check", action="store_true", help="exit 1 when a ratio is below half the baseline's")
    parser.add_argument("--install", action="store_true", help="also time the README's first command (slow)")
    parser.add_argument("--only", help="comma-separated row keys to run")
    args = parser.parse_args(argv)
    tree = args.tree.resolve()
    sys.path.insert(0, str(tree))  # its mjfast and its tests' hand generators
    only = set(args.only.split(",")) if args.only else None
    rows = Record(tree, args.quick, only).run()
    if args.install:
        rows["install"] = install_row(tree)
    meta = {"commit": _commit(tree), "date": time.strftime("%Y-%m-%d %H:%M"), "mode": "quick" if args.quick else "full",
            "machine": f"{platform.machine()} {os.cpu_count()} cores", "python": platform.python_version(),
            "numba": _version("numba"), "numpy": np.__version__}
    baseline = json.loads(args.baseline.read_text()) if args.baseline else None
    print_table(rows, meta, baseline)
    if args.out:
        args.out.write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    if args.check and baseline:
        slow = regressions(rows, baseline["rows"])
        if slow:  # a stall of the machine can halve one pass: a regression is slow when measured again too
            print(f"measuring again: {', '.join(slow)}", file=sys.stderr)
            again = Record(tree, args.quick, set(slow)).run()
            slow = [key for key in regressions(again, baseline["rows"]) if key in slow]
            rows.update({key: again[key] for key in slow})
        for key in slow:
            print(f"REGRESSION: {key}: ratio {rows[key]['ratio']:.3g} below {REGRESSION} x the baseline's "
                  f"{baseline['rows'][key]['ratio']:.3g}", file=sys.stderr)
        return 1 if slow else 0
    return 0


def regressions(rows: dict, baseline: dict) -> list[str]:
    """The rows whose ratio fell below REGRESSION x the baseline's."""
    return [key for key, row in rows.items() if key in baseline and row["ratio"] < REGRESSION * baseline[key]["ratio"]]


# --- timing ------------------------------------------------------------------------------------

def per_item_us(run, items: list, rounds: int) -> float:
    """The best of `rounds` passes of run(item) over items, in microseconds per item."""
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for item in items:
            run(item)
        best = min(best, (time.perf_counter() - started) / len(items))
    return best * 1e6


def interleaved(ours, anchor, rounds: int) -> tuple[float, float]:
    """(ours, anchor): each a zero-argument timer returning microseconds, run in alternation
    `rounds` times and the best of each kept, so that both see the same machine."""
    ours(), anchor()  # what loads on first use (kernels, tables) loads before the clock
    a, b = float("inf"), float("inf")
    for _ in range(rounds):
        a = min(a, ours())
        b = min(b, anchor())
    return a, b


def _figures_row(label: str, ours: float, anchor: float, anchor_name: str, unit: str = "us", key: str = "") -> dict:
    return {"label": label, "ours_us": ours, "anchor_us": anchor, "anchor": anchor_name, "unit": unit,
            "ratio": anchor / ours, "goal": GOALS.get(key)}


# --- the inputs ----------------------------------------------------------------------------------

def dealt_hands(rng: np.random.Generator, n: int, tiles: int) -> list[np.ndarray]:
    """n concealed hands of `tiles` tiles dealt from shuffled walls (34 uint8 counts each)."""
    wall = np.repeat(np.arange(34), 4)
    hands = []
    for _ in range(n):
        hands.append(np.bincount(rng.choice(wall, tiles, replace=False), minlength=34).astype(np.uint8))
    return hands


TOKENS = [("WBT"[t // 9] + str(t % 9 + 1)) if t < 27 else (f"F{t - 26}" if t < 31 else f"J{t - 30}") for t in range(34)]
TOKEN_ID = {token: t for t, token in enumerate(TOKENS)}


def botzone_tiles(counts) -> tuple[str, ...]:
    """The Botzone tokens of 34 counts, PyMahjongGB's notation."""
    return tuple(TOKENS[t] for t in range(34) for _ in range(int(counts[t])))


class Record:
    def __init__(self, tree: Path, quick: bool, only: "set[str] | None") -> None:
        import MahjongGB

        import mjfast

        self.gb, self.mjfast, self.tree, self.quick, self.only = MahjongGB, mjfast, tree, quick, only
        self.rounds = 5 if quick else 9
        rng = np.random.default_rng(47)
        self.hands13 = dealt_hands(rng, 2_000, 13)
        self.hands14 = dealt_hands(rng, 300, 14)
        self.texts13 = [mjfast.parse_hand(h).to_compact() for h in self.hands13]
        self.tiles13 = [botzone_tiles(h) for h in self.hands13]
        self.rows: dict[str, dict] = {}

    def yardstick(self) -> float:
        """PyMahjongGB's all-forms shanten, microseconds per call, now."""
        shanten = self.gb.MahjongShanten
        return per_item_us(lambda t: shanten((), t), self.tiles13[:500], 3)

    def run(self) -> dict:
        steps = [("batch_shanten", self.batch_shanten), ("parse_hand", self.parse_hand),
                 ("shanten_of_parsed_text", self.shanten_of_parsed_text), ("shanten_of_text", self.shanten_of_text),
                 ("shanten_of_counts", self.shanten_of_counts), ("useful_tiles", self.useful_tiles),
                 ("best_discard_efficiency", self.best_discard_efficiency), ("fan_aware", self.fan_aware),
                 ("value", self.value), ("fan_score", self.fan_score), ("winning_tiles", self.winning_tiles),
                 ("botzone_game", self.botzone_game), ("review_game", self.review_game),
                 ("first_answer", self.first_answer)]
        for key, step in steps:
            if self.only is None or key in self.only or (key == "value" and any(k.startswith("value")
                                                                                for k in self.only)):
                started = time.perf_counter()
                step()
                print(f"  {key}: {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
        return self.rows

    def add(self, key: str, label: str, ours: float, anchor: float, anchor_name: str, unit: str = "us") -> None:
        self.rows[key] = _figures_row(label, ours, anchor, anchor_name, unit, key)

    # --- the shanten core -----------------------------------------------------------------------

    def batch_shanten(self) -> None:
        try:
            batch = self.mjfast.batch  # the package's face for the batch calls
        except AttributeError:  # a checkout from before it (an A/B's old side): its own module
            import mjfast.batch as batch

        n = 50_000 if self.quick else 200_000
        hands = np.array((self.hands13 * (n // len(self.hands13) + 1))[:n], np.uint8)
        batch.shanten(hands[:10])

        def ours():
            started = time.perf_counter()
            batch.shanten(hands)
            return (time.perf_counter() - started) / n * 1e6

        self.add("batch_shanten", f"batch all-forms shanten, {n:,} hands, per hand", *interleaved(
            ours, self.yardstick, self.rounds), "PyMahjongGB shanten/call")

    def parse_hand(self) -> None:
        parse, texts = self.mjfast.parse_hand, self.texts13
        self.add("parse_hand", "parse_hand(text)", *interleaved(
            lambda: per_item_us(parse, texts, 1), self.yardstick, self.rounds), YARDSTICK)

    def shanten_of_parsed_text(self) -> None:
        parse, shanten, gb = self.mjfast.parse_hand, self.mjfast.shanten, self.gb.MahjongShanten
        pairs = list(zip(self.texts13, self.tiles13))
        self.add("shanten_of_parsed_text", "shanten(parse_hand(text)) per call", *interleaved(
            lambda: per_item_us(lambda p: shanten(parse(p[0])), pairs, 1),
            lambda: per_item_us(lambda p: gb((), p[1]), pairs, 1), self.rounds), "PyMahjongGB MahjongShanten")

    def shanten_of_text(self) -> None:
        shanten, gb = self.mjfast.shanten, self.gb.MahjongShanten
        self.add("shanten_of_text", "shanten(text) per call", *interleaved(
            lambda: per_item_us(shanten, self.texts13, 1),
            lambda: per_item_us(lambda t: gb((), t), self.tiles13, 1), self.rounds), "PyMahjongGB MahjongShanten")

    def shanten_of_counts(self) -> None:
        shanten, gb = self.mjfast.shanten, self.gb.MahjongShanten
        self.add("shanten_of_counts", "shanten(counts) per call", *interleaved(
            lambda: per_item_us(shanten, self.hands13, 1),
            lambda: per_item_us(lambda t: gb((), t), self.tiles13, 1), self.rounds), "PyMahjongGB MahjongShanten")

    def useful_tiles(self) -> None:
        useful, forms = self.mjfast.useful_tiles, GB_FORMS
        self.add("useful_tiles", "useful_tiles(counts) per call", *interleaved(
            lambda: per_item_us(useful, self.hands13, 1),
            lambda: per_item_us(lambda t: [f(t) for f in forms], self.tiles13[:500], 1), self.rounds),
            "PyMahjongGB five forms' shanten+useful")

    def _gb_best_discard(self, counts14) -> list:
        """What PyMahjongGB offers a best-discard tool: every discard's shanten over the five
        forms, its useful tiles and their unseen copies, ranked."""
        forms, options = GB_FORMS, []
        unseen = 4 - counts14.astype(int)
        for t in np.flatnonzero(counts14):
            counts = counts14.copy()
            counts[t] -= 1
            results = [f(botzone_tiles(counts)) for f in forms]
            best = min(s for s, _ in results)
            useful = {u for s, us in results if s == best for u in us}
            acceptance = sum(max(0, unseen[TOKEN_ID[u]]) for u in useful)
            options.append((best, -acceptance, int(t)))
        return sorted(options)

    def best_discard_efficiency(self) -> None:
        best = self.mjfast.best_discards
        hands = self.hands14
        self.add("best_discard_efficiency", "best_discards(ranking='efficiency', next_step=False)", *interleaved(
            lambda: per_item_us(lambda h: best(h, ranking="efficiency", next_step=False), hands, 1),
            lambda: per_item_us(self._gb_best_discard, hands[:20], 1), self.rounds),
            "the same analysis from PyMahjongGB calls")

    # --- advice -----------------------------------------------------------------------------------

    def fan_aware(self) -> None:
        best = self.mjfast.best_discards
        self.add("fan_aware", "best_discards(ranking='fan-aware') per hand", *interleaved(
            lambda: per_item_us(lambda h: best(h, ranking="fan-aware"), self.hands14, 1), self.yardstick,
            self.rounds), YARDSTICK)

    def value(self) -> None:
        """The default ranking (by value, 18 draws, no budget), the median hand of each band of
        shanten (1 to 3; 4 and 5 in the full record)."""
        best, shanten = self.mjfast.best_discards, self.mjfast.shanten
        sizes = {1: 20, 2: 12, 3: 6} if self.quick else {1: 40, 2: 30, 3: 16, 4: 8, 5: 5}
        rng = np.random.default_rng(48)
        bands: dict[int, list] = {band: [] for band in sizes}
        while any(len(bands[b]) < n for b, n in sizes.items()):
            counts = dealt_hands(rng, 1, 14)[0]
            band = shanten(counts)
            if band in bands and len(bands[band]) < sizes[band]:
                bands[band].append(counts)
        best(bands[1][0])  # loaded before the clock
        for band, hands in bands.items():
            key = f"value_{band}"
            if self.only is not None and key not in self.only and "value" not in self.only:
                continue
            before = self.yardstick()
            times = []
            for counts in hands:
                started = time.perf_counter()
                best(counts, draws=18)
                times.append((time.perf_counter() - started) * 1e6)
            anchor = min(before, self.yardstick())
            self.add(key, f"best_discards by value, {band} from ready, median of {len(hands)}",
                     statistics.median(times), anchor, YARDSTICK)

    # --- fans -------------------------------------------------------------------------------------

    def _wins(self, n: int):
        try:
            from tests.fan.test_fan_support import random_win
        except ImportError:  # a checkout from before the tests' folders (an A/B's old side)
            from tests.test_fan_support import random_win

        rng = random.Random(99)
        return [random_win(rng) for _ in range(n)]

    def fan_score(self) -> None:
        from mjfast.fan import score

        wins = self._wins(2_000)
        gb_args = [_gb_args(hand, c) for hand, c in wins]
        calculator = self.gb.MahjongFanCalculator

        def theirs(args):
            try:
                calculator(*args)
            except Exception:  # PyMahjongGB raises for a hand under its minimum
                pass

        self.add("fan_score", "fan.score(Hand, conditions) per hand", *interleaved(
            lambda: per_item_us(lambda w: score(w[0], **w[1]), wins, 1),
            lambda: per_item_us(theirs, gb_args, 1), self.rounds), "PyMahjongGB MahjongFanCalculator")

    def winning_tiles(self) -> None:
        from mjfast.fan import winning_tiles
        from mjfast.hand import Hand

        ready = []
        for hand, c in self._wins(600):
            counts = hand.counts.copy()
            counts[hand.last_tile] -= 1
            before = Hand(counts, hand.melds)
            conditions = {k: v for k, v in c.items() if k != "last_copy"}
            ready.append((before, conditions, before.to_pymahjonggb()))
        self.add("winning_tiles", "fan.winning_tiles(ready hand) per hand", *interleaved(
            lambda: per_item_us(lambda r: winning_tiles(r[0], **r[1]), ready, 1),
            lambda: per_item_us(lambda r: gb_winning_tiles(r[2], r[1]), ready, 1), self.rounds),
            "PyMahjongGB forms + calculator")

    # --- games --------------------------------------------------------------------------------------

    def _games(self, n: int) -> list:
        from mjfast.game import read_games

        logs = self.tree / "tests" / "data" / "logs"
        games = [g for g in read_games(logs / "botzone_mahjong_gb_16matches.txt") if not hasattr(g, "reason")]
        return games[:n]

    def botzone_game(self) -> None:
        """MjfastBot on Botzone's clock answering every decision of every seat of real games."""
        from mjfast.bots import BOTZONE_CLOCK, MjfastBot
        from mjfast.game import Replay
        from mjfast.game.state import CLAIM, DISCARD

        games = self._games(2 if self.quick else 6)
        bot = MjfastBot(clock=BOTZONE_CLOCK)
        bot.on_start()

        def one_game(game) -> float:
            started = time.perf_counter()
            bot.wall = game.wall
            for step in Replay(game):
                table = step.table
                if table.phase == DISCARD and step.action.kind == "Play":
                    seats, decide = [table.turn], bot.on_draw
                elif table.phase == CLAIM:
                    seats, decide = [p for p in range(4) if p != table.pending[0]], bot.on_discard
                else:
                    continue
                for seat in seats:
                    bot.attach(table, seat)
                    bot.on_the_clock(BOTZONE_CLOCK.later, time.perf_counter())
                    decide()
            return (time.perf_counter() - started) * 1e6

        one_game(games[0])  # what loads on first use loads before the clock
        before = self.yardstick()
        ours = statistics.median(one_game(g) for g in games)
        self.add("botzone_game", f"MjfastBot on the clock, every decision of a real game, median of {len(games)}",
                 ours, min(before, self.yardstick()), YARDSTICK)

    def review_game(self) -> None:
        """mjfast review by value: one real game, all four seats, its page."""
        from mjfast.review import render_page, review_game

        games = self._games(2 if self.quick else 6)
        # a game a thread, as an archive's games run (a game alone runs its queries on every
        # core, docs/review.md): the row is the work a game costs
        render_page(review_game(games[-1], threads=1))  # what loads on first use loads before the clock
        before = self.yardstick()
        times = []
        for game in games:
            started = time.perf_counter()
            render_page(review_game(game, threads=1))
            times.append((time.perf_counter() - started) * 1e6)
        self.add("review_game", f"mjfast review by value, per game, median of {len(games)}",
                 statistics.median(times), min(before, self.yardstick()), YARDSTICK)

    def first_answer(self) -> None:
        """A fresh process: import, load the cached kernels, answer `mjfast advise`'s query.
        Against the yardstick: a fresh process's own start depends on the environment (the
        same PyMahjongGB process took 16 ms in CI's fresh venv and 33 ms in a dev one)."""
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPATH"] = os.pathsep.join([str(self.tree)] + [p for p in [env.get("PYTHONPATH")] if p])
        ours = [sys.executable, "-c", "import mjfast; mjfast.best_discards('123m456p789s1357sE')"]
        subprocess.run(ours, check=True, env=env, capture_output=True)  # caches warm

        def timed() -> float:
            started = time.perf_counter()
            subprocess.run(ours, check=True, env=env, capture_output=True)
            return (time.perf_counter() - started) * 1e6

        before = self.yardstick()
        ours_us = min(timed() for _ in range(3 if self.quick else 5))
        self.add("first_answer", "fresh process: import + first best_discards (value)", ours_us,
                 min(before, self.yardstick()), YARDSTICK)


def _gb_args(hand, c: dict) -> tuple:
    packs, tiles = hand.to_pymahjonggb()
    tiles = list(tiles)
    winning = TOKENS[hand.last_tile]
    tiles.remove(winning)
    return (packs, tuple(tiles), winning, c["flowers"], c["self_drawn"], c["last_copy"], c["kong"], c["last_tile"],
            "ESWN".index(c["seat_wind"]), "ESWN".index(c["prevalent_wind"]))


# --- the install ---------------------------------------------------------------------------------

def install_row(tree: Path) -> dict:
    """The README's first command on a fresh copy of the tree's committed files, a fresh venv
    and empty caches (pip's, numba's, mjfast's): seconds, against the 60 s goal."""
    with tempfile.TemporaryDirectory() as scratch:
        clone = Path(scratch) / "mjfast"
        subprocess.run(["git", "clone", "-q", str(tree), str(clone)], check=True)
        env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
        env.update(PIP_NO_CACHE_DIR="1", XDG_CACHE_HOME=str(Path(scratch) / "cache"))
        command = ("python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/mjfast advise 123m456p789s1357sE")
        started = time.perf_counter()
        subprocess.run(command, shell=True, cwd=clone, env=env, check=True, capture_output=True)
        seconds = time.perf_counter() - started
    return _figures_row("README's first command: fresh clone, venv and caches (s)", seconds * 1e6, 60e6,
                "the 60 s goal", "us", "install")


# --- the table ---------------------------------------------------------------------------------

def _figure(us: float) -> str:
    if us >= 1e6:
        return f"{us / 1e6:.2f} s"
    if us >= 1e3:
        return f"{us / 1e3:.2f} ms"
    return f"{us:.2f} us"


def print_table(rows: dict, meta: dict, baseline: "dict | None") -> None:
    print(f"\nmjfast speed record: {meta['commit']} ({meta['mode']}), {meta['machine']}, Python {meta['python']}, "
          f"numba {meta['numba']}")
    if baseline:
        print(f"baseline: {baseline['meta']['commit']} ({baseline['meta']['mode']}, {baseline['meta']['date']})")
    head = f"{'row':26s} {'mjfast':>10s} {'anchor':>10s} {'ratio':>9s} {'goal':>9s}"
    print(head + (f" {'baseline':>9s} {'change':>7s}" if baseline else "") + "  anchor / what")
    for key, row in rows.items():
        goal = row.get("goal")
        mark = "" if goal is None else ("  " if row["ratio"] >= goal else " !")
        line = (f"{key:26s} {_figure(row['ours_us']):>10s} {_figure(row['anchor_us']):>10s} {row['ratio']:9.3g} "
                f"{'' if goal is None else format(goal, '.3g'):>9s}{mark}")
        if baseline:
            base = baseline["rows"].get(key)
            line += (f" {base['ratio']:9.3g} {row['ratio'] / base['ratio']:6.2f}x" if base else f" {'':9s} {'':7s}")
        print(f"{line}  {row['anchor']} / {row['label']}")
    print("ratio = anchor / mjfast (higher is faster); ! = below its goal")


def _commit(tree: Path) -> str:
    try:
        found = subprocess.run(["git", "-C", str(tree), "describe", "--always", "--dirty"], capture_output=True,
                               text=True, check=True)
        return found.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _version(name: str) -> str:
    try:
        from importlib.metadata import version

        return version(name)
    except Exception:
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
