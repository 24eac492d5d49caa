"""Each game's rules for the screen, from docs/rules.md: the one page the companion applies.

The package carries that page as ``ui/rules.md`` (a link to docs/rules.md in the repository,
a copy of it in an installed package), so the rules a player reads are the rules the code
cites. A game's part is its ``## `` section; it is shown as paragraphs and bullets, with
cards written as players read them (``10H`` as 10♥).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

from companion.cards import SUIT_SYMBOLS

CARD = re.compile(r"\b(10|[2-9AJQK])([SHDC])\b")


@dataclass(frozen=True)
class Line:
    """One line of a game's rules on screen: its text and how deep its bullet sits (0: none)."""

    text: str
    depth: int = 0


def rules_page() -> str:
    return resources.files("ui").joinpath("rules.md").read_text(encoding="utf-8")


def sections(page: str) -> dict[str, tuple[str, list[str]]]:
    """Each ``## `` section of the page by its game's title: (the heading's note, its lines).

    >>> sections("# T\\nintro\\n## Jacks (exactly 4 players)\\n- one\\n  two\\n")
    {'Jacks': ('exactly 4 players', ['- one', '  two'])}
    """
    found: dict[str, tuple[str, list[str]]] = {}
    current = None
    for line in page.splitlines():
        if line.startswith("## "):
            heading = line[3:].strip()
            title, _, note = heading.partition(" (")
            current = title.strip()
            found[current] = (note.rstrip(")").strip(), [])
        elif line.startswith("# "):
            current = None
        elif current is not None:
            found[current][1].append(line)
    return found


def cards_as_read(text: str) -> str:
    """Card codes as a player reads them.

    >>> cards_as_read("The holder of 3H leads; JS 7, `10D` too")
    'The holder of 3♥ leads; J♠ 7, 10♦ too'
    """
    return CARD.sub(lambda m: m.group(1) + SUIT_SYMBOLS[m.group(2)], text.replace("`", ""))


def lines(raw: list[str]) -> list[Line]:
    """Bullets and paragraphs, each whole (a bullet's wrapped lines joined back into one).

    >>> lines(["- Play one card", "  that matches.", "  - 2: pick up 2", "", "A note"])
    [Line(text='Play one card that matches.', depth=1), Line(text='2: pick up 2', depth=2), Line(text='A note', depth=0)]
    """
    out: list[Line] = []
    joining = False
    for line in raw:
        stripped = line.strip()
        if not stripped:
            joining = False
            continue
        bullet = re.match(r"^(\s*)- (.*)$", line)
        if bullet:
            out.append(Line(bullet.group(2).strip(), len(bullet.group(1)) // 2 + 1))
            joining = True
        elif joining and out:
            out[-1] = Line(f"{out[-1].text} {stripped}", out[-1].depth)
        else:
            out.append(Line(stripped))
            joining = True
    return [Line(cards_as_read(line.text), line.depth) for line in out]


def game_rules(title: str, page: str | None = None) -> tuple[str, list[Line]]:
    """The heading note and the lines of the game called ``title`` (as its rules class names it).

    Raises KeyError when the page has no section for that game."""
    note, raw = sections(rules_page() if page is None else page)[title]
    return cards_as_read(note), lines(raw)
