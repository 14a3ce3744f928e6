"""A player's games reviewed decision by decision against mjfast: `mjfast review`.

    from mjfast.review import review_game, render_page, review_logs
    review = review_game(game)                 # a GameLog (mjfast.game.read_games)
    html = render_page(review)                 # one self-contained page
    summary = review_logs(["logs/"], "out/", player=0)

Modules, one concept each: decisions (one game: its steps and every decision with mjfast's
options, the choice, its rank and cost), summary (the figures of a player over one game or
many, with intervals), page (the HTML page of a game), run (files in, pages, JSON and the
summary out), cli (the command's arguments). docs/review.md describes the output and its
JSON schema.
"""

from ..runtime.lazy import lazy_attributes

# Loaded on first use: `mjfast --help` imports this package (the command's arguments live in
# mjfast.review.cli) and must not pay for numba and the analysis.
_LOADED_LATER: "dict[str, tuple[str, ...]]" = {"decisions": ("review_game",), "page": ("render_page",),
                                               "run": ("review_logs",), "summary": ("Summary",)}
__getattr__, __dir__ = lazy_attributes(__name__, _LOADED_LATER)
__all__ = [name for names in _LOADED_LATER.values() for name in names]
