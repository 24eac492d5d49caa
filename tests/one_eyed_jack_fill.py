"""A long, legal One-Eyed Jack game for two: chips laid so that neither side ever makes a row.

Each space goes to side ((row + 2 * column) // 2) % 2: runs of two in every line, so even a
full board holds no row. Every chip is the card its space shows, so each card's two copies go
to its two spaces once each (two decks hold every card twice, docs/rules.md).
"""

from __future__ import annotations

from companion.games.one_eyed_jack.board import PLAYABLE_SPACES, Space, card_at


def side_of_space(space: Space) -> int:
    row, col = space
    return ((row + 2 * col) // 2) % 2


def rowless_plays(count: int, last: tuple[Space, ...] = ()) -> list[dict]:
    """``count`` plays, Ann (side 0) and Ben (side 1) in turn, each on a space of its own side;
    the spaces in ``last`` are laid last of their side (so a caller can keep them open)."""
    def order(side: int) -> list[Space]:
        spaces = [s for s in PLAYABLE_SPACES if side_of_space(s) == side]
        return [s for s in spaces if s not in last] + [s for s in spaces if s in last]

    sides = (order(0), order(1))
    if count > 2 * min(len(s) for s in sides):
        raise ValueError(f"a board holds {2 * min(len(s) for s in sides)} such plays, not {count}")
    return [{"type": "play", "card": card_at(*sides[i % 2][i // 2]), "at": list(sides[i % 2][i // 2])}
            for i in range(count)]
