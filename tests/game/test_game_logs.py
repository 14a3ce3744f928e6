"""The Botzone log format: reading, writing, replaying with every rule checked, re-scoring.

The 16 real matches of tests/data/logs must replay without error and reproduce their Fan
and Score lines; each way of breaking a game (taken from those real games, one line changed)
must be reported with its match id and line number while the other games read on.
"""

from __future__ import annotations

import gzip
import io

import pytest

from mjfast.game import BrokenGame, LogError, Replay, check_games, format_game, parse_game, read_games
from mjfast.game.gamelog import GameLog
from mjfast.game.state import DISCARD, DISCARD_AFTER_CLAIM

from ..data import LOGS

REAL = LOGS / "botzone_mahjong_gb_16matches.txt"
TEXT = REAL.read_text(encoding="utf-8")
BLOCKS = [block.split("\n") for block in TEXT.strip().split("\n\n")]


def _games() -> list[GameLog]:
    return list(read_games(REAL))


def test_every_real_match_replays_and_reproduces_its_result_lines():
    checks = list(check_games(REAL))
    assert len(checks) == 16
    assert not [c for c in checks if isinstance(c, BrokenGame)]
    wins = [c for c in checks if c.win is not None]
    assert len(wins) == 14 and sum(c.game.drawn for c in checks) == 2
    assert all(c.fan_line_matches for c in wins)
    assert all(c.score_line_matches for c in checks)
    # the recomputed scores are mjfast's, and they settle the game
    assert all(sum(c.scores) == 0 for c in checks)


def test_written_games_are_the_real_text_line_for_line():
    for block, game in zip(BLOCKS, _games()):
        assert format_game(game) == "\n".join(block)


def test_a_written_game_reads_back_equal():
    for game in _games():
        assert parse_game(format_game(game)) == game


def test_line_numbers_point_into_the_file():
    lines = TEXT.split("\n")
    for game in _games():
        assert lines[game.line - 1] == f"Match {game.match_id}"
        for action, number in zip(game.actions, game.action_lines):
            assert lines[number - 1].split()[2] == action.kind


def test_keywords_and_tokens_in_any_case():
    block = "\n".join(BLOCKS[0])
    lowered = "\n".join(line if line.startswith("Fan") else line.lower() for line in BLOCKS[0])
    assert parse_game(lowered) == parse_game(block)


def test_gzip_and_open_files_and_line_iterables(tmp_path):
    packed = tmp_path / "logs.txt.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as f:
        f.write(TEXT)
    expected = _games()
    assert list(read_games(packed)) == expected
    assert list(read_games(io.StringIO(TEXT))) == expected
    assert list(read_games(TEXT.splitlines())) == expected


def test_reading_is_streamed_one_game_at_a_time():
    consumed = []

    def lines():
        for line in TEXT.splitlines():
            consumed.append(line)
            yield line

    games = read_games(lines())
    first = next(games)
    assert first.match_id == BLOCKS[0][0].split()[1]
    # only the first block and the line that ends it have been read
    assert len(consumed) <= len(BLOCKS[0]) + 1


def _with_line(game: int, line: int, new: "str | None") -> str:
    """The real text with line `line` (0-based within block `game`) replaced, or removed."""
    blocks = [list(b) for b in BLOCKS]
    if new is None:
        del blocks[game][line]
    else:
        blocks[game][line] = new
    return "\n\n".join("\n".join(b) for b in blocks) + "\n"


def _file_line(game: int, line: int) -> int:
    return sum(len(b) + 1 for b in BLOCKS[:game]) + line + 1


def _index(game: int, prefix: str) -> int:
    return next(i for i, text in enumerate(BLOCKS[game]) if text.startswith(prefix))


def _broken(text: str) -> list:
    results = list(check_games(text.splitlines()))
    assert len(results) == 16
    return [r for r in results if isinstance(r, BrokenGame)]


@pytest.mark.parametrize("change, reason", [
    (lambda b: (_index(b, "Player 1 Play"), "Player 1 Play J3"), "does not hold"),
    (lambda b: (_index(b, "Player 1 Draw"), "Player 1 Draw X9"), "is not a tile"),
    (lambda b: (_index(b, "Player 1 Draw"), "Player 3 Draw W1"), "to draw"),
    (lambda b: (_index(b, "Player 1 Draw"), "Player 1 Dance W1"), "unknown action"),
    (lambda b: (_index(b, "Player 1 Draw"), "Player 1 Chi W2"), "chow"),
    (lambda b: (_index(b, "Player 1 Draw"), "Player 1 Peng W2"), "claims"),
    (lambda b: (_index(b, "Player 2 Deal"), None), "deal"),
    (lambda b: (_index(b, "Score"), "Score 1 2 3"), "Score"),
    (lambda b: (_index(b, "Player 0 Draw"), "Player 0 Draw F2 Ignore Player 1 Chi F2"), "Ignore"),
    (lambda b: (_index(b, "Player 0 Draw"), "Huang"), "Player line after"),
])
def test_a_broken_line_is_reported_with_match_and_line_and_the_rest_reads_on(change, reason):
    game = 4
    line, new = change(game)
    broken = _broken(_with_line(game, line, new))
    assert len(broken) == 1
    assert broken[0].match_id == BLOCKS[game][0].split()[1]
    # a removed deal line shifts nothing before it: the report names the first line that fails
    assert broken[0].line >= _file_line(game, line) - (new is None)
    assert reason.lower() in broken[0].reason.lower()


def test_a_fifth_copy_of_a_tile_breaks_the_game():
    game = 4
    block = BLOCKS[game]
    last_draw = max(i for i, text in enumerate(block) if " Draw " in text)
    entered: dict = {}
    for text in block[2:last_draw]:
        words = text.split()
        if words[2] in ("Deal", "Draw"):
            for token in words[3:]:
                entered[token] = entered.get(token, 0) + 1
    all_four = sorted(token for token, n in entered.items() if n == 4)
    assert all_four, "some tile has all four copies in play before the last draw"
    player = block[last_draw].split()[1]
    broken = _broken(_with_line(game, last_draw, f"Player {player} Draw {all_four[0]}"))
    assert len(broken) == 1 and broken[0].line == _file_line(game, last_draw)
    assert "too many" in broken[0].reason


def test_an_ignored_claim_that_would_have_won_breaks_the_game():
    # game 0 line "Player 0 Peng W9 Ignore Player 3 Chi W8": a pung outranks the chow
    game = 0
    line = _index(game, "Player 0 Peng W9")
    inverted = _with_line(game, line, "Player 3 Chi W8 Ignore Player 0 Peng W9")
    broken = _broken(inverted)
    assert len(broken) == 1 and broken[0].line == _file_line(game, line)


def test_result_lines_that_disagree_are_reported_not_broken():
    game = 0
    fan = _index(game, "Fan")
    text = _with_line(game, fan, BLOCKS[game][fan].replace("Fan 9", "Fan 10"))
    results = list(check_games(text.splitlines()))
    assert not [r for r in results if isinstance(r, BrokenGame)]
    assert [r.fan_line_matches for r in results].count(False) == 1
    score = _index(game, "Score")
    text = _with_line(game, score, "Score 0 0 0 0")
    results = list(check_games(text.splitlines()))
    assert [r.score_line_matches for r in results].count(False) == 1


def test_an_exhaustive_draw_needs_an_empty_wall():
    drawn = next(i for i, b in enumerate(BLOCKS) if "Huang" in b)
    block = BLOCKS[drawn]
    early = block[:40] + ["Huang", "Score 0 0 0 0"]
    with pytest.raises(LogError) as info:
        Replay(parse_game("\n".join(early))).check()
    assert "cannot end drawn" in info.value.reason


def test_steps_show_the_table_before_each_action():
    for game in _games():
        replay = Replay(game)
        for step in replay:
            seat = step.table.seats[step.action.player]
            standing = sum(seat.concealed) + 3 * len(seat.melds)
            if step.action.kind == "Play":
                assert step.table.phase in (DISCARD, DISCARD_AFTER_CLAIM)
                assert standing == 14
                assert seat.concealed[step.action.tile] > 0
            elif step.action.kind == "Draw":
                assert standing == 13
        check = replay.check()
        assert check.score_line_matches


def test_a_hu_on_a_hand_that_is_no_win_breaks_the_game():
    game = 0
    hu = _index(game, "Player 1 Hu")
    block = BLOCKS[game][:hu] + ["Player 3 Hu B7", *BLOCKS[game][hu + 1:]]
    with pytest.raises(LogError) as info:
        Replay(parse_game("\n".join(block))).check()
    assert "no win" in info.value.reason and info.value.line == hu + 1
