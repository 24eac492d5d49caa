"""The One-Eyed Jack board: a 10x10 grid of cards with a free space in each corner.

The layout is docs/rules.md's, built here from the same words: four 5x5 blocks, each filled in
rows from the top, skipping its board corner, with one suit from Ace to King (no Jack) and
then a second suit. Row 0 is the top, column 0 the left.

>>> card_at(0, 1), card_at(0, 8), card_at(5, 4), card_at(5, 5)
('AS', 'AC', 'AC', 'AS')
>>> spaces_of("7S")
((1, 2), (6, 6))
>>> card_at(0, 0) is None
True
"""

from __future__ import annotations

from operator import itemgetter
from typing import Callable, Iterator

from companion.cards import RANKS

SIZE = 10
BLOCK = 5
ROW_LENGTH = 5  # chips in a line that make a row
CORNERS = frozenset({(0, 0), (0, SIZE - 1), (SIZE - 1, 0), (SIZE - 1, SIZE - 1)})
BOARD_RANKS = tuple(r for r in RANKS if r != "J")  # A..K without the Jack: 12 a suit
TWO_EYED = ("JC", "JD")
ONE_EYED = ("JS", "JH")
JACKS = ONE_EYED + TWO_EYED

Space = tuple[int, int]

# (first row, first column, fill left to right?, first suit, second suit), as docs/rules.md lists them.
_BLOCKS = (
    (0, 0, True, "S", "H"),  # top left
    (0, 5, False, "C", "D"),  # top right
    (5, 0, False, "C", "D"),  # bottom left
    (5, 5, True, "S", "H"),  # bottom right
)


def _build() -> tuple[tuple[str | None, ...], ...]:
    grid: list[list[str | None]] = [[None] * SIZE for _ in range(SIZE)]
    for top, left, left_to_right, first, second in _BLOCKS:
        cards = iter([rank + first for rank in BOARD_RANKS] + [rank + second for rank in BOARD_RANKS])
        columns = range(left, left + BLOCK) if left_to_right else range(left + BLOCK - 1, left - 1, -1)
        for row in range(top, top + BLOCK):
            for col in columns:
                if (row, col) not in CORNERS:
                    grid[row][col] = next(cards)
    return tuple(tuple(row) for row in grid)


LAYOUT = _build()

_SPACES: dict[str, tuple[Space, Space]] = {}
for _r, _row in enumerate(LAYOUT):
    for _c, _card in enumerate(_row):
        if _card is not None:
            _SPACES[_card] = _SPACES.get(_card, ()) + ((_r, _c),)  # type: ignore[assignment]

ALL_SPACES: tuple[Space, ...] = tuple((r, c) for r in range(SIZE) for c in range(SIZE))
PLAYABLE_SPACES: tuple[Space, ...] = tuple(s for s in ALL_SPACES if s not in CORNERS)


def on_board(row: int, col: int) -> bool:
    return 0 <= row < SIZE and 0 <= col < SIZE


def is_corner(row: int, col: int) -> bool:
    return (row, col) in CORNERS


def card_at(row: int, col: int) -> str | None:
    """The card a space shows, or None for a free corner."""
    if not on_board(row, col):
        raise ValueError(f"({row}, {col}) is not on the board: rows and columns go from 0 to {SIZE - 1}")
    return LAYOUT[row][col]


def spaces_of(card: str) -> tuple[Space, ...]:
    """The two spaces showing ``card`` (canonical code), top half first; () for a Jack."""
    return _SPACES.get(card, ())


def index(space: Space) -> int:
    """A space's place in a flat, row-by-row list of the 100 spaces."""
    return space[0] * SIZE + space[1]


def _lines() -> tuple[tuple[Space, ...], ...]:
    """Every straight line of at least 5 spaces: across, down, and both diagonals."""
    lines: list[tuple[Space, ...]] = []
    lines += [tuple((r, c) for c in range(SIZE)) for r in range(SIZE)]
    lines += [tuple((r, c) for r in range(SIZE)) for c in range(SIZE)]
    for start in range(-(SIZE - ROW_LENGTH), SIZE - ROW_LENGTH + 1):
        # down-right: col - row == start
        lines.append(tuple((r, r + start) for r in range(SIZE) if on_board(r, r + start)))
        # down-left: row + col == SIZE - 1 + start
        lines.append(tuple((r, SIZE - 1 + start - r) for r in range(SIZE) if on_board(r, SIZE - 1 + start - r)))
    return tuple(lines)


LINES = _lines()
# The same lines as flat indices (see index()), and for each of the 100 spaces the numbers of the
# lines through it: a chip placed or taken can only change the rows on those few lines, so the
# rules look at them instead of scanning the whole board after every action.
LINE_INDICES: tuple[tuple[int, ...], ...] = tuple(tuple(index(s) for s in line) for line in LINES)
_LINE_CELLS = tuple(itemgetter(*cells) for cells in LINE_INDICES)  # the line's chips, in one call
_LINE_CORNER_AT = tuple(tuple(s in CORNERS for s in line) for line in LINES)
LINE_CORNERS: tuple[int, ...] = tuple(sum(at) for at in _LINE_CORNER_AT)
LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n, line in enumerate(LINE_INDICES) if i in line) for i in range(SIZE * SIZE))
# Two neighbouring spaces lie on one line only, so a run's first two spaces name its line.
LINE_OF_PAIR: dict[tuple[Space, Space], int] = {
    (line[k], line[k + 1]): n for n, line in enumerate(LINES) for k in range(len(line) - 1)}


def side_runs(board: tuple[int | None, ...], line: int, side: int) -> Iterator[tuple[int, int]]:
    """The maximal runs (first, past the last position along line number ``line``) of at least
    ROW_LENGTH spaces holding ``side``'s chips or a free corner (it counts for every side).
    A line with too few of them to make a row is passed over without a walk along it."""
    cells = _LINE_CELLS[line](board)
    if cells.count(side) + LINE_CORNERS[line] < ROW_LENGTH:
        return
    corner_at = _LINE_CORNER_AT[line]
    start = -1
    for k, chip in enumerate(cells):
        if chip == side or corner_at[k]:
            if start < 0:
                start = k
        else:
            if start >= 0 and k - start >= ROW_LENGTH:
                yield start, k
            start = -1
    if start >= 0 and len(cells) - start >= ROW_LENGTH:
        yield start, len(cells)


def rows_in_run(length: int) -> int:
    """How many rows an unbroken run of one side's spaces makes: 5 to 9 is 1, a full 10 is 2."""
    if length >= SIZE:
        return 2
    return 1 if length >= ROW_LENGTH else 0


def picture(cell: Callable[[int, int], str] | None = None, width: int = 4) -> str:
    """The board as text, one line a row; ``cell`` chooses what each space shows (default: its card)."""
    def default(r: int, c: int) -> str:
        return LAYOUT[r][c] or "**"

    show = cell or default
    head = " " * 3 + "".join(f"{c:>{width}}" for c in range(SIZE))
    return "\n".join([head] + [f"{r:>2} " + "".join(f"{show(r, c):>{width}}" for c in range(SIZE))
                               for r in range(SIZE)])
