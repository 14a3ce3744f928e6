"""The page for players (`mjfast web`): discard advice to click through, and the fan calculator.

The page is static files run by the browser; everything it knows it asks the JSON service
(mjfast.service) it is served by, on the same origin. Nothing is fetched from elsewhere.

    assets.py       the files under static/, read from the package and served under /app/
                    (by mjfast.service, whose page_server.py is `mjfast web`)
    draw_tiles.py   draws static/tiles/*.svg (run it after changing a tile's drawing), the
                    characters and honours as the outlines of tile_glyphs.py
    make_font.py    cuts the page's font, static/fonts/page-cjk.woff, and tile_glyphs.py
                    from Noto CJK (run it after changing the page's Chinese or a fan's name;
                    a review's page, mjfast.review.page, carries the font inline)
    static/         index.html and style.css; the page's JavaScript modules:
                    main.js (start, tabs, keys), service.js (requests), tiles.js (tile names,
                    notation, images), i18n.js (English and Chinese), state.js (the URL),
                    dom.js (making elements), editor.js (entering a hand), figures.js (tables
                    and the reason in words), advice.js (the advice page), calculator.js (the
                    fan calculator); tiles/ (the tile images); fonts/ (the page's font and its
                    licence)

docs/web.md is the guide.
"""
