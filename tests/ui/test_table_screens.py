"""Home, History, the set-ups, the message strip, the rules and the sounds, as a family meets
them (issue: "At the table: every word fits, nothing hides a control ... and it can be heard")."""

from __future__ import annotations

import pytest

from .conftest import ensure_players, find, visible

pytestmark = pytest.mark.ui

SIZES = ((800, 480), (720, 1280))
FOUR = ["Ann", "Ben", "Cat", "Dan"]


def start(app, header, *actions):
    from companion.session import Session

    session = Session.start(app.store, header)
    for action in actions:
        session.play(action)
    return session


def jacks_header(players=FOUR):
    return {"game": "jacks", "players": list(players), "options": {"target": 75}}


ONE_ROUND = {"type": "round", "jacks": {"JS": "Ann", "JH": "Ben", "JC": "Cat", "JD": "Dan"}}


def put_everything_away(app):
    for record in app.store.games(status="open"):
        app.store.abandon(record.id)


def box(widget):
    x, y = widget.to_window(*widget.pos)
    return x, y, x + widget.width, y + widget.height


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def tappable(screen):
    """Every control and board a player might touch on the screen showing."""
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.textinput import TextInput

    from ui.widgets.board import OneEyedBoard

    return [w for w in find(screen) if isinstance(w, (ButtonBehavior, TextInput, OneEyedBoard))
            and visible(w) and w.width > 0 and w.height > 0]


def assert_message_covers_nothing(app, what: str):
    notice = app.root.ids.notice
    assert app.root.notice, f"{what}: a message shows"
    for widget in tappable(app.manager.current_screen):
        assert not overlaps(box(widget), box(notice)), f"{what}: the message covers {widget} {getattr(widget, 'text', '')!r}"


# -- item 2: a message never covers a control ------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_after_record_round_and_undo_the_message_covers_no_control(driver, app, size):
    driver.resize(*size)
    ensure_players(driver, app, FOUR)
    screen = app.open_session(start(app, jacks_header()))
    driver.pump(3)
    for jack, name in ONE_ROUND["jacks"].items():
        screen.assign(jack, name)
    driver.tap(screen.ids.record_button)
    assert app.root.notice == "Round recorded."
    assert_message_covers_nothing(app, "after Record round")
    driver.tap(screen.ids.undo_button)
    assert_message_covers_nothing(app, "after Undo")
    # A tap on Undo's face, while a message shows, reaches Undo (nothing lies over it).
    driver.tap(screen.ids.record_button)   # the round taken back is still in the taps
    actions = len(app.store.log(screen.session.game_id)[1])
    driver.tap(screen.ids.undo_button)
    assert len(app.store.log(screen.session.game_id)[1]) == actions - 1
    # And a tap on the message puts it away.
    assert app.root.notice
    driver.tap(app.root.ids.notice)
    assert app.root.notice == ""


@pytest.mark.parametrize("size", SIZES)
def test_the_one_eyed_jack_board_bottom_row_is_never_under_a_message(driver, app, size):
    driver.resize(*size)
    ensure_players(driver, app, ["Ann", "Ben"])
    session = start(app, {"game": "one-eyed-jack", "players": ["Ann", "Ben"], "options": {}})
    screen = app.open_session(session)
    driver.pump(3)
    screen.play({"type": "play", "card": "JD", "at": [9, 4]})
    app.notify("A long message about the last play, long enough to take two lines of the strip at the foot "
               "of the screen, where nothing else is.")
    driver.pump(3)
    assert_message_covers_nothing(app, "after a play")
    board = screen.ids.board
    bottom = [board.cell_window_centre(9, col) for col in range(10)]
    notice = box(app.root.ids.notice)
    assert all(not (notice[0] <= x <= notice[2] and notice[1] <= y <= notice[3]) for x, y in bottom)


# -- item 4: every unfinished game on Home; History deletes ----------------------------------------

def test_home_offers_each_unfinished_game_newest_first_and_resumes_the_one_tapped(driver, app):
    ensure_players(driver, app, FOUR + ["Eve"])
    put_everything_away(app)
    older = start(app, jacks_header(), ONE_ROUND)
    newer = start(app, {"game": "jack-change-it", "players": ["Eve", "Ann"], "options": {}, "start": "7H"},
                  {"type": "lift"})
    home = app.show("home")
    driver.pump(3)
    rows = list(reversed(home.ids.unfinished.children))   # top to bottom
    assert [row.game_id for row in rows] == [newer.game_id, older.game_id]
    assert rows[0].text.startswith("Jack Change It with Eve, Ann, left today at ")
    assert rows[1].text.startswith("Jacks with Ann, Ben, Cat, Dan, left today at ")
    assert all(visible(row.ids.resume_button) for row in rows)
    driver.tap(rows[1].ids.resume_button)
    screen = app.manager.current_screen
    assert screen.name == "jacks" and screen.session.game_id == older.game_id

    # Played on and left again, the older game is now the newest: Home lists it first.
    screen.session.play(ONE_ROUND)
    home = app.show("home")
    driver.pump(3)
    rows = list(reversed(home.ids.unfinished.children))
    assert [row.game_id for row in rows] == [older.game_id, newer.game_id]
    assert rows[0].text.startswith("Jacks with Ann, Ben, Cat, Dan, left today at ")
    assert home.ids.resume_button is rows[0].ids.resume_button


def test_a_game_left_before_anything_was_played_is_not_kept(driver, app):
    ensure_players(driver, app, FOUR)
    put_everything_away(app)
    empty = start(app, jacks_header())
    app.open_session(empty)
    driver.pump(2)
    home = app.show("home")
    driver.pump(2)
    assert home.resume_text == "" and not home.ids.unfinished.children
    assert empty.game_id not in [r.id for r in app.store.games()]


def test_history_deletes_a_game_only_after_the_table_confirms(driver, app):
    ensure_players(driver, app, FOUR)
    session = start(app, jacks_header(), ONE_ROUND)
    history = app.show("history")
    driver.pump(3)
    row = next(r for r in history.ids.rows.children if r.game_id == session.game_id)
    driver.tap(row.ids.delete_button)
    from kivy.core.window import Window

    from ui.screens.history import ConfirmDelete

    (confirm,) = [w for w in Window.children if isinstance(w, ConfirmDelete)]
    assert "Ann, Ben, Cat, Dan" in confirm.text
    driver.tap(confirm.ids.keep_button)
    assert session.game_id in [r.id for r in app.store.games()], "Keep it keeps it"
    row = next(r for r in history.ids.rows.children if r.game_id == session.game_id)
    driver.tap(row.ids.delete_button)
    (confirm,) = [w for w in Window.children if isinstance(w, ConfirmDelete)]
    driver.tap(confirm.ids.confirm_button)
    assert session.game_id not in [r.id for r in app.store.games()]
    assert session.game_id not in [r.game_id for r in history.ids.rows.children]


# -- item 6: every set-up starts from the last table -----------------------------------------------

def test_jack_change_it_new_game_keeps_the_table_and_moves_the_deal_on(driver, app):
    """docs/rules.md, Jack Change It: the player left of the dealer goes first, clockwise. The
    last game's dealer sat last in its seating; the next deal is the next seat on."""
    ensure_players(driver, app, FOUR)
    # Dealt by Dan: Ann, left of him, went first.
    start(app, {"game": "jack-change-it", "players": FOUR, "options": {}, "start": "7H"}, {"type": "lift"})
    setup = app.new_game("jack-change-it")
    driver.pump(2)
    assert list(setup.chosen) == FOUR
    assert setup.dealer == "Ann"
    assert setup.next_step() == "Ann deals 7 each, so Ben starts. Turn up the first card and tap it in."
    assert setup.start_card == ""


def test_jacks_and_one_eyed_jack_set_ups_start_from_the_last_table(driver, app):
    ensure_players(driver, app, FOUR)
    start(app, jacks_header(["Dan", "Cat", "Ben", "Ann"]), ONE_ROUND)
    setup = app.new_game("jacks")
    driver.pump(2)
    assert list(setup.chosen) == ["Dan", "Cat", "Ben", "Ann"]
    assert setup.ids.start_button.text == "Start"

    # docs/rules.md, One-Eyed Jack: first player at random, clockwise; the next game, the next seat.
    start(app, {"game": "one-eyed-jack", "players": ["Cat", "Ann", "Dan"], "options": {}},
          {"type": "play", "card": "JD", "at": [3, 3]})
    setup = app.new_game("one-eyed-jack")
    driver.pump(2)
    assert setup.count == 3 and list(setup.chosen) == ["Cat", "Ann", "Dan"]
    assert setup.first == "Ann" and setup.first_text == "Ann goes first."
    assert setup.order() == ["Ann", "Dan", "Cat"]


# -- item 13: portrait set-ups use the height -------------------------------------------------------

@pytest.mark.parametrize("name", ["jacks-setup", "slapjack-setup", "jack-change-it-setup", "one-eyed-jack-setup"])
def test_portrait_set_ups_have_no_large_empty_middle(driver, app, name):
    """At 720x1280 no band across the screen more than a fifth of its height is left empty
    between the controls (the table seen from above fills the middle)."""
    from kivy.uix.label import Label
    from kivy.uix.layout import Layout
    from kivy.uix.scrollview import ScrollView

    ensure_players(driver, app, FOUR)
    driver.resize(720, 1280)
    screen = app.show(name)
    driver.pump(4)
    shown = [w for w in find(screen) if visible(w) and w.height > 0 and w.width > 0 and w is not screen
             and not isinstance(w, (Layout, ScrollView)) and (not isinstance(w, Label) or w.text)]
    spans = sorted((box(w)[1], box(w)[3]) for w in shown)
    top_of_screen = screen.to_window(screen.x, screen.top)[1]
    gaps, reach = [], screen.to_window(screen.x, screen.y)[1]
    for low, high in spans:
        gaps.append(low - reach)
        reach = max(reach, high)
    gaps.append(top_of_screen - reach)
    assert max(gaps) < 1280 / 5, f"{name}: an empty band {max(gaps):.0f} px high"


# -- how to play -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, title, a_rule", [
    ("jacks-setup", "Jacks", "The holder of 3\u2665 leads the first trick."),
    ("jack-change-it-setup", "Jack Change It", "Cannot or will not play: lift one card from the stock"),
    ("one-eyed-jack-setup", "One-Eyed Jack", "You must play if you can; otherwise pass."),
])
def test_each_set_up_shows_its_game_rules_from_docs_rules_md_readably(driver, app, name, title, a_rule):
    from kivy.core.window import Window

    from ui.widgets.rules import RuleLine, RulesView

    screen = app.show(name)
    driver.pump(3)
    driver.tap(screen.ids.rules_button)
    (view,) = [w for w in Window.children if isinstance(w, RulesView)]
    driver.pump(3)
    assert view.heading == f"How to play {title}"
    lines = [w for w in find(view, RuleLine)]
    import re

    words = [re.sub(r"\[/?color[^\]]*\]", "", w.text) for w in lines]   # as read: without the colour markup
    assert any(a_rule in text for text in words), "the rules are the companion's own, docs/rules.md"
    assert min(w.font_size for w in lines) >= 20, "type of at least 20 px at 800x480"
    scroller = view.ids.scroller
    assert view.ids.lines.height > scroller.height, "longer than the screen: it scrolls"
    for w in lines:   # every line wraps inside the page
        assert w.texture_size[0] <= w.width + 1
    driver.tap(view.ids.close_button)
    assert not [w for w in Window.children if isinstance(w, RulesView)]


def test_the_rules_a_player_reads_are_the_rules_file_of_the_repository():
    from pathlib import Path

    from ui.rules_text import rules_page

    assert rules_page() == (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")


# -- sound --------------------------------------------------------------------------------------------

def test_sounds_play_after_the_frame_at_the_settings_volume_and_not_when_off(driver, app):
    from ui import sound

    app.settings.setdefault("sound", {})["volume"] = 70
    sound.play("row")
    sounds = app.sounds
    before = list(sounds.played)
    assert sounds.played == before, "play() only schedules: nothing is waited for"
    driver.pump(2)
    assert sounds.played == before + ["row"]
    assert sounds.loaded["row"] is not None and abs(sounds.loaded["row"].volume - 0.7) < 1e-6
    app.settings["sound"]["volume"] = 0
    sound.play("row")
    driver.pump(2)
    assert sounds.played == before + ["row"], "volume off: silence"
    app.settings["sound"]["volume"] = 70


def test_each_sound_is_a_small_wav_made_by_the_project(tmp_path):
    import wave

    from ui import sound

    assert set(sound.NAMES) == {"slap-good", "slap-wrong", "jack", "pick-up", "row", "game-over"}
    for name in sound.NAMES:
        path = sound.write_wav(name, tmp_path)
        assert path.stat().st_size < 12_000, f"{name} is a few kB"
        with wave.open(str(path)) as made:
            assert 0.1 < made.getnframes() / made.getframerate() < 1.0
    assert sound.samples("slap-good") != sound.samples("slap-wrong")


def test_settings_turn_the_volume_down_to_off_and_save_it(driver, app):
    from companion import config, paths

    screen = app.show("settings")
    driver.pump(2)
    for _ in range(6):
        if screen.ids.volume_down.disabled:
            break
        driver.tap(screen.ids.volume_down)
    assert screen.ids.volume_label.text == "Off"
    saved, _ = config.load(paths.config_path(app.data_dir))
    assert saved["sound"]["volume"] == 0
    driver.tap(screen.ids.volume_up)
    assert screen.ids.volume_label.text == "25%"
    assert config.load(paths.config_path(app.data_dir))[0]["sound"]["volume"] == 25
    app.settings["sound"]["volume"] = 70


def test_a_game_that_ends_plays_the_game_over_sound(driver, app):
    ensure_players(driver, app, FOUR)
    all_to_ann = {"type": "round", "jacks": {"JS": "Ann", "JH": "Ann", "JC": "Ann", "JD": "Ann"}}
    session = start(app, jacks_header(), *[all_to_ann] * 3)   # Ben, Cat and Dan reach 63
    screen = app.open_session(session)
    driver.pump(2)
    app.sounds = None
    from ui import sound

    sound.play("jack")   # makes the table's sounds afresh
    driver.pump(2)
    for jack in ONE_ROUND["jacks"]:
        screen.assign(jack, "Ann")
    driver.tap(screen.ids.record_button)   # 84: over the target of 75 (docs/rules.md, Jacks)
    driver.pump(2)
    assert screen.finished and app.sounds.played[-1] == "game-over"
