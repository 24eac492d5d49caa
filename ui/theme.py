"""The look of the table: colours, type and sizes, one place for all of them.

Sizes follow the table: touch targets at least 48 dp, primary actions 64 dp, 8 dp apart;
whose turn and the suit in play large enough to read from across the table.
"""

from __future__ import annotations

import os

from kivy.core.text import LabelBase
from kivy.metrics import dp, sp
from kivy.utils import get_color_from_hex

FELT = get_color_from_hex("#123A2C")
PANEL = get_color_from_hex("#1C4D3B")
PANEL_LIGHT = get_color_from_hex("#2A6550")
BUTTON = get_color_from_hex("#2F6F57")
BUTTON_DOWN = get_color_from_hex("#3F8A6D")
PRIMARY = get_color_from_hex("#F2C14E")
PRIMARY_TEXT = get_color_from_hex("#1B1B1B")
DANGER = get_color_from_hex("#C8553D")
TEXT = get_color_from_hex("#FFFFFF")
TEXT_DIM = get_color_from_hex("#B9D3C7")
CARD_FACE = get_color_from_hex("#FBFAF5")
DISABLED = get_color_from_hex("#4A5F57")

TOUCH = dp(48)
PRIMARY_TOUCH = dp(64)
GAP = dp(8)

# Two-colour suits as printed; four-colour for players who cannot tell red from black
# (black, vermilion, blue, bluish green: Okabe-Ito).
TWO_COLOUR = {"S": "#1B1B1B", "C": "#1B1B1B", "H": "#C8102E", "D": "#C8102E"}
FOUR_COLOUR = {"S": "#1B1B1B", "H": "#D55E00", "D": "#0072B2", "C": "#009E73"}

FONT = "TableSans"
FONT_BOLD = "TableSansBold"

_FONT_PLACES = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/Library/Fonts",
    "C:/Windows/Fonts",
)


def register_fonts() -> str:
    """A font with the suit symbols (Kivy's own Roboto has none): DejaVu Sans where the
    system has it (Raspberry Pi OS and Debian do), else Roboto and letters for suits."""
    for folder in _FONT_PLACES:
        regular = os.path.join(folder, "DejaVuSans.ttf")
        bold = os.path.join(folder, "DejaVuSans-Bold.ttf")
        if os.path.exists(regular):
            LabelBase.register(FONT, regular)
            LabelBase.register(FONT_BOLD, bold if os.path.exists(bold) else regular)
            return regular
    LabelBase.register(FONT, "data/fonts/Roboto-Regular.ttf")
    LabelBase.register(FONT_BOLD, "data/fonts/Roboto-Bold.ttf")
    return ""


def suit_hex(suit: str, four_colour: bool) -> str:
    return (FOUR_COLOUR if four_colour else TWO_COLOUR)[suit]


def suit_colour(suit: str, four_colour: bool) -> list[float]:
    return get_color_from_hex(suit_hex(suit, four_colour))


def rgba(hex_colour: str) -> list[float]:
    return get_color_from_hex(hex_colour)


# Computer players wear muted colours of their own, one each, unless the roster gives them one
# (CompanionApp.seat_colour).
COMPUTER_COLOURS = ("#8E9AA6", "#B39B74", "#9C8CC0", "#7FA39A", "#B58C9E", "#8FA36E", "#A0A0A0", "#7F95B8")


def font_big() -> float:
    return sp(40)


# Text on the felt names cards with their suit symbol in the suit's colour; the printed colours
# are too dark to read on dark green, so on the felt each is lifted to a lighter shade of itself
# (at least 4.5:1 against PANEL, WCAG; the UI tests of the table's look measure it).
TEXT_TWO_COLOUR = {"S": "#FFFFFF", "C": "#FFFFFF", "H": "#FFA3A3", "D": "#FFA3A3"}
TEXT_FOUR_COLOUR = {"S": "#FFFFFF", "H": "#FFA766", "D": "#8CCBFF", "C": "#6FE3BD"}

INK = get_color_from_hex("#000000")  # dark text on a player's colour: black reads on any light fill


def text_suit_hex(suit: str, four_colour: bool) -> str:
    return (TEXT_FOUR_COLOUR if four_colour else TEXT_TWO_COLOUR)[suit]


def luminance(colour) -> float:
    """Relative luminance, as WCAG 2 defines it, of an (r, g, b[, a]) colour in 0..1."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(float(c)) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one, two) -> float:
    """WCAG 2 contrast ratio between two colours (1 to 21)."""
    a, b = sorted((luminance(one), luminance(two)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def text_on(fill) -> list[float]:
    """White or black text, whichever has the higher contrast on ``fill`` (player colours vary):
    one of the two always reaches 4.5:1."""
    return TEXT if contrast(TEXT, fill) >= contrast(INK, fill) else INK
