"""The `mjfast` command's pieces (mjfast.cli builds the parser and runs them): options (the
parser class, CommandError and the options several commands share: a leaf that `mjfast logs`
and `mjfast review` import too), terminal (colours, glyphs, the hand commands' lines), hand
(advise, shanten, waits, fan, warmup), service (serve, web), games (botzone, table, replay).
Each command imports what it needs when it runs, so that a query starts quickly."""
