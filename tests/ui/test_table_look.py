"""Colours a player can tell apart and read on, cards named as a player writes them, the chart's
names at its lines' ends, and One-Eyed Jack's last play said in words."""

from __future__ import annotations

import pytest

from tests.ui.conftest import ensure_players

pytestmark = pytest.mark.ui


def wcag(one, two) -> float:
    """WCAG 2.x contrast ratio, worked out here from the definition, not from ui.theme."""
    def lum(c):
        chans = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in c[:3]]
        return 0.2126 * chans[0] + 0.7152 * chans[1] + 0.0722 * chans[2]
    a, b = sorted((lum(one), lum(two)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def test_text_on_every_player_colour_reads(driver):
    from companion.store import PLAYER_COLOURS
    from ui import theme

    for hex_colour in PLAYER_COLOURS:
        fill = theme.rgba(hex_colour)
        assert wcag(theme.text_on(fill), fill) >= 4.5, hex_colour


def test_suits_named_in_words_read_on_the_felt(driver):
    from ui import theme

    for four in (False, True):
        for suit in "SHDC":
            colour = theme.rgba(theme.text_suit_hex(suit, four))
            for ground in (theme.FELT, theme.PANEL):
                assert wcag(colour, ground) >= 4.5, (suit, four)


def test_a_card_reads_as_rank_and_coloured_symbol(driver):
    from ui import theme
    from ui.widgets.card_words import card_markup, words_markup

    assert card_markup("2H") == f"2[color={theme.text_suit_hex('H', False)}]\u2665[/color]"
    assert words_markup("Mum played QD and 10S") == (
        f"Mum played Q[color={theme.text_suit_hex('D', False)}]\u2666[/color] and "
        f"10[color={theme.text_suit_hex('S', False)}]\u2660[/color]")
    assert words_markup("Ben [the host] lifted") == "Ben &bl;the host&br; lifted"  # a name stays a name



def test_colour_button_never_gives_a_colour_someone_has(driver, app):
    from companion.store import PLAYER_COLOURS

    ensure_players(driver, app, ["Ann", "Ben", "Cat"])
    players = app.show("players")
    driver.pump(2)
    ann = next(p for p in app.store.players() if p.name == "Ann")
    for _ in range(12):
        before = app.store.player(ann.id).colour
        others = {p.colour for p in app.store.players() if p.id != ann.id}
        players.next_colour(ann.id)
        after = app.store.player(ann.id).colour
        if set(PLAYER_COLOURS) - others - {before}:
            assert after != before and after not in others, (before, after, others)
        else:  # a roster bigger than the palette (other tests add many): nothing is taken from anybody
            assert after == before and "Every colour is taken" in app.root.notice


def test_chart_names_each_line_at_its_end_and_keeps_them_apart(driver, app):
    from ui.widgets.chart import TotalsChart

    chart = TotalsChart(size=(600, 300), pos=(0, 0),
                        series=[("Ann", [1, 0, 0, 1], [7, 14]), ("Ben", [0, 0, 1, 1], [7, 14]),
                                ("Cat", [0, 1, 0, 1], [0, 21])], target=40)
    chart.redraw()
    boxes = chart.name_boxes
    assert len(boxes) == 3
    for x, y, w, h in boxes:
        assert x + w <= chart.right + 1 and x > chart.x + chart.width / 2, "at the right, where the lines end"
    ann, ben, _ = boxes
    assert abs(ann[1] - ben[1]) >= ann[3], "two players on the same total do not print over each other"


def test_one_eyed_jack_says_the_last_play(driver, app):
    from companion.session import Session

    ensure_players(driver, app, ["Ann", "Ben"])
    session = Session.start(app.store, {"game": "one-eyed-jack", "players": ["Ann", "Ben"], "options": {}})
    session.play({"type": "play", "card": "7S", "at": [1, 2]})
    screen = app.open_session(session)
    driver.pump(2)
    assert screen.last_text.startswith("Last: Ann played 7[color=")
    assert "Last: Ann played 7" in screen.ids.status_label.text, "said until a card is chosen"
    assert screen.ids.board.last == (1, 2), "the space is marked"
    assert screen.ids.board.side_colours[0] == app.player_colour("Ann"), "chips in the player's colour"


def test_the_font_has_the_suit_symbols(driver):
    """Drawn with the app's font, each suit symbol is a glyph, not the font's empty box."""
    from kivy.core.text import Label as CoreLabel

    from ui import theme

    def drawn(text):
        label = CoreLabel(text=text, font_name=theme.FONT, font_size=40)
        label.refresh()
        return bytes(label.texture.pixels)

    missing = drawn("\uffff")  # a character no font draws: the missing-glyph box
    for symbol in "\u2660\u2665\u2666\u2663":
        assert drawn(symbol) != missing, symbol


def test_names_on_their_colours_read_and_every_colour_is_one_player_s(driver, app):
    """As drawn: each Jacks tile's name on its player's colour, and Jack Change It's turn."""
    from companion.session import Session

    names = ["Ann", "Ben", "Cat", "Dan"]
    ensure_players(driver, app, names)
    screen = app.open_session(Session.start(app.store, {"game": "jacks", "players": names, "options": {}}))
    driver.pump(2)
    fills = []
    for tile in screen.tiles.values():
        name_label = next(w for w in tile.walk(restrict=True) if getattr(w, "text", None) == tile.name)
        assert wcag(name_label.color, tile.fill) >= 4.5, tile.name
        fills.append(tuple(tile.fill))
    assert len(set(fills)) == len(fills), "two players at the table share a colour"

    game = Session.start(app.store, {"game": "jack-change-it", "players": names, "options": {}, "start": "7H"})
    screen = app.open_session(game)
    driver.pump(2)
    assert wcag(screen.ids.turn_label.color, screen.ids.turn_label.fill) >= 4.5


def test_the_game_names_on_home_grow_with_their_tiles_and_fit(driver, app):
    """In portrait the tiles are four times as tall: the names are read from across the table."""
    from ui.screens.home import GameTile
    from tests.ui.conftest import find

    heights = {}
    for size in ((800, 480), (720, 1280)):
        driver.resize(*size)
        app.show("home")
        driver.pump(3)
        tiles = find(app.manager.get_screen("home"), GameTile)
        assert len(tiles) == 4
        for tile in tiles:
            width, height = tile.texture_size
            assert width <= tile.width and height <= tile.height, (size, tile.title)
        heights[size] = min(tile.texture_size[1] for tile in tiles)
    assert heights[(720, 1280)] >= 1.2 * heights[(800, 480)], heights
