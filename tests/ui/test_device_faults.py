"""Device faults at the table, through the real app: a pad stuck down, a pad chattering, the
serial pad hub unplugged and plugged back in, a card reader sending junk. The app keeps the
game going and says on screen what is wrong.

The pads are the app's own mock pads (the same PadBoard code as on GPIO, driven at chosen
edge timestamps); the hub and the card reader are the real serial code reading a real
pseudo-terminal, with the device's end written by the test. Kivy's clock is pumped while
device threads work; every wait is bounded and generous.

The players are Ben and Cat (pads 1 and 2): the other UI tests read Ann's Slapjack stats, so
these games give her no reaction times.

Long on purpose: each fault is a whole story through the real app and the real device code.
"""

from __future__ import annotations

import copy
import os
import time

import pytest

from tests.ui.conftest import find, visible, stacked_deck

pytestmark = pytest.mark.ui

ROSTER = ["Ann", "Ben", "Cat", "Dan"]   # the other UI tests' names, in their order
HELD = "has been held down"


# -- helpers --------------------------------------------------------------------------------------

def pump_until(driver, condition, what: str, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        driver.pump(1)
        time.sleep(0.002)   # leave the device threads room on a busy machine


def pump_for(driver, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        driver.pump(1)
        time.sleep(0.002)


def seen(label) -> str:
    """The text a label draws, after Kivy shortened it to fit (not its whole ``text``)."""
    if not label.text:
        return ""
    label.texture_update()
    lines = getattr(label._label, "_cached_lines", None) or []
    return " ".join(word.text for line in lines for word in line.words) if lines else label.text


def status_line(screen) -> str:
    """The line under the game that says how the pads are read, led by any warning in red."""
    return seen(screen.ids.status_label)


def notice(app) -> str:
    """The notice bar at the foot of the window, as far as it shows."""
    label = app.root.ids.notice
    return label.text if visible(label) and app.root.notice else ""


def ensure_roster(app) -> None:
    have = {p.name for p in app.store.players()}
    for name in ROSTER:
        if name not in have:
            app.store.add_player(name)


def stacks(screen) -> dict:
    return {name: tile.count_text for name, tile in screen.seats.items()}


def start_game(driver, app, monkeypatch, mode: str, players=("Ben", "Cat"), deck=None):
    """Set up Slapjack by touch and start it; ``deck`` stacks a screen deck."""
    ensure_roster(app)
    setup = app.show("slapjack-setup")
    driver.pump(2)
    driver.tap(setup.ids[f"mode_{mode}"])
    assert setup.mode == mode
    for name in players:
        driver.tap(setup.roster_buttons[name])
    assert list(setup.chosen) == list(players)
    if deck is not None:
        made = setup.header
        monkeypatch.setattr(setup, "header", lambda: {**made(), "deck": deck})
    driver.tap(setup.ids.start_button)
    screen = app.manager.current_screen
    assert screen.name == "slapjack" and screen.mode == mode
    return screen


def end_game(driver, screen, winner: str | None = None) -> None:
    """The table ends the game by touch (the judge names the winner)."""
    from kivy.core.window import Window

    from ui.games.slapjack.screen import EndGameView

    driver.tap(screen.ids.end_button)
    views = [w for w in Window.children if isinstance(w, EndGameView)]
    assert views, "ending a game asks first"
    driver.tap(find(views[0], text=winner if screen.mode == "judge" else "End the game")[0])
    assert screen.finished


def wait_clock(driver, clock, at: float) -> None:
    pump_until(driver, lambda: clock() >= at, "the clock to move on")


def last_turn(screen) -> dict:
    return [a for a in screen.session.game.actions if a["type"] == "turn"][-1]


def slaps_by(screen, name: str) -> list[dict]:
    return [a for a in screen.session.game.actions if a["type"] == "slap" and a.get("player") == name]


# -- fixtures -------------------------------------------------------------------------------------

SETUP_PROPERTIES = ("mode", "chosen", "computers", "calm", "pace", "end_after", "tie_window_ms", "queens_too",
                    "doubles_too", "penalty_under_pile", "out_on_wrong_slap")


@pytest.fixture(autouse=True)
def table_left_as_found(driver, app):
    """Slapjack's set-up as the other tests left it; no game left open; no pad left down."""
    ensure_roster(app)
    setup = app.screen("slapjack-setup")
    before = {name: getattr(setup, name) for name in SETUP_PROPERTIES}
    before["chosen"], before["computers"] = list(before["chosen"]), dict(before["computers"])
    setup.chosen, setup.computers = [], {}
    setup.calm, setup.end_after, setup.tie_window_ms = False, 0, 0
    setup.queens_too = setup.doubles_too = setup.penalty_under_pile = False
    setup.out_on_wrong_slap = True
    from ui.games.slapjack.setup import DEFAULT_PACE

    setup.pace = DEFAULT_PACE
    yield
    screen = app.screen("slapjack")
    if screen.session is not None and not screen.state.finished:
        screen.end_game([])
    app.show("home")
    driver.pump(2)
    from ui.pads_link import link_for

    board = link_for(app).board
    if board is not None and board.mock is not None:
        for pad in board.held_pads():
            board.mock.release(pad, board.now())
    driver.pump(2)
    for name in SETUP_PROPERTIES:
        setattr(setup, name, before[name])
    app.clear_notice()


@pytest.fixture
def board(app):
    """The app's own pads: mock pins here, driven at the edge times a test chooses."""
    from ui.pads_link import link_for

    board = link_for(app).open()
    assert board is not None and board.mock is not None, "the UI tests run on mock pads"
    return board


# -- a pad stuck down --------------------------------------------------------------------------------

def test_a_pad_stuck_down_is_named_and_the_game_goes_on(driver, app, board, monkeypatch):
    stuck_after = app.settings["pads"]["stuck_ms"] / 1000.0
    # Ben turns 5H and 9C, Cat 3S then the JS: the fourth card is the first Jack.
    deck = stacked_deck([["5H", "9C"], ["3S", "JS"]])
    ensure_roster(app)
    app.show("slapjack-setup")
    driver.pump(2)
    # Something leans on Ben's pad (pad 1) before the game starts, and stays there.
    board.mock.press(0, board.now())
    driver.pump(3)
    screen = start_game(driver, app, monkeypatch, "screen", deck=deck)
    session = screen.session
    assert board.held_pads() == [0]

    pump_until(driver, lambda: HELD in status_line(screen), "the stuck pad to be reported",
               timeout=stuck_after + 8)
    line = status_line(screen)
    assert line.startswith("Pad 1 (GPIO17) has been held down for "), line   # in red, leading the line
    assert screen.warning_text.startswith("Pad 1 (GPIO17)")
    # ...and once in full, big, at the foot of the window.
    assert notice(app).startswith("Pad 1 (GPIO17) has been held down for ")
    assert notice(app).endswith(": release it, or check its button and wiring")

    # The game goes on: cards keep landing while the warning stands.
    turned = session.state.cards_turned
    pump_until(driver, lambda: session.state.cards_turned > turned, "another card while the pad is stuck")
    assert HELD in status_line(screen)
    pump_until(driver, lambda: session.state.cards_turned >= 4, "the JS")
    assert session.state.cards_turned == 4, "the test fell behind the cards"
    assert screen.ids.top_card.code == "JS"
    assert board.held_pads() == [0], "Ben's pad is down through the whole race"
    assert HELD in status_line(screen)

    # Cat slaps the JS 300 ms after it landed. Ben's pad was down before the JS and all through
    # its race: it is no slap, so Cat, not Ben, wins the pile.
    landed = last_turn(screen)["t"]
    wait_clock(driver, board.now, landed + 0.35)
    board.mock.deliver([(1, True, landed + 0.300), (1, False, landed + 0.340)])
    pump_until(driver, lambda: screen.ids.verdict_label.text.startswith("Cat!"), "Cat's slap on the JS")
    pump_for(driver, 0.2)
    assert screen.ids.verdict_label.text == "Cat!"
    assert slaps_by(screen, "Ben") == []
    assert stacks(screen) == {"Ben": "24", "Cat": "28"}        # 26 - 2 each; Cat takes 5H 3S 9C JS
    assert session.summary()["tallies"]["Cat"]["reactions_ms"] == [pytest.approx(300.0, abs=0.01)]

    # Ben's pad comes free: the warning goes, from the line and from the foot of the window.
    board.mock.release(0, board.now())
    pump_until(driver, lambda: HELD not in status_line(screen), "the warning to clear", timeout=5)
    assert HELD not in notice(app)
    assert not screen.warning_text
    assert status_line(screen) == ""    # the pads working again: nothing to say under the game
    driver.tap(screen.ids.pause_button)
    end_game(driver, screen)


# -- a pad chattering ---------------------------------------------------------------------------------

def chatter(pad: int, start: float, pressed: bool, gaps_ms) -> list[tuple[int, bool, float]]:
    """Contact bounce: the first edge at ``start`` makes the pad ``pressed``; then it flips at
    each gap (ms after the previous edge)."""
    edges, at, state = [(pad, pressed, start)], start, pressed
    for gap in gaps_ms:
        at += gap / 1000.0
        state = not state
        edges.append((pad, state, at))
    return edges


@pytest.fixture
def heard(app):
    """Every (pad, t) press the pads hand to the Slapjack screen."""
    screen = app.screen("slapjack")
    presses: list[tuple[int, float]] = []
    real = screen.on_pad_press
    screen.on_pad_press = lambda pad, t, arrived=None: (presses.append((pad, t)), real(pad, t, arrived))
    yield presses
    del screen.on_pad_press


def test_a_chattering_pad_makes_one_press_and_the_right_player_wins(driver, app, board, heard, monkeypatch):
    debounce = app.settings["pads"]["debounce_ms"]
    # Ben's JH is the first card, Cat's JC the second.
    deck = stacked_deck([["JH", "5S"], ["JC", "7D"]])
    screen = start_game(driver, app, monkeypatch, "screen", deck=deck)
    session = screen.session
    bounced = board.bounces_ignored()

    # The JH: Ben's pad bounces ten times in 5.5 ms as it goes down (and stays down); Cat's
    # clean press comes 5 ms after Ben's first edge.
    pump_until(driver, lambda: session.state.cards_turned >= 1, "the JH")
    landed = last_turn(screen)["t"]
    assert last_turn(screen)["card"] == "JH"
    wait_clock(driver, board.now, landed + 0.30)
    gaps = [0.3, 0.4, 0.6, 0.5, 0.7, 0.4, 0.5, 0.6, 0.8, 0.7]   # far inside the debounce
    assert sum(gaps) < debounce
    ben = chatter(0, landed + 0.200, True, gaps)
    assert ben[-1][1] is True, "the bounce ends with the pad down"
    board.mock.deliver(ben + [(1, True, landed + 0.205), (1, False, landed + 0.260)])
    pump_until(driver, lambda: screen.ids.verdict_label.text.startswith("Ben!"), "the verdict on the JH")
    pump_for(driver, 0.2)
    assert screen.ids.verdict_label.text == "Ben! Cat +5.0 ms"
    assert [pad for pad, _ in heard] == [0, 1], "one press from each pad reached the game"
    assert heard[0][1] == pytest.approx(landed + 0.200, abs=1e-9)   # the first edge's time
    assert board.bounces_ignored()[0] - bounced[0] == len(gaps)
    assert [a["t"] for a in slaps_by(screen, "Ben")] == [pytest.approx(landed + 0.200, abs=1e-9)]
    assert stacks(screen) == {"Ben": "26", "Cat": "26"}
    assert board.held_pads() == [0]

    # The JC lands with Ben's pad still down. It bounces again as Ben lets go: a bounce that
    # counted as a fresh press would beat Cat's slap 4 ms later. It does not: Cat wins.
    pump_until(driver, lambda: session.state.cards_turned >= 2, "the JC")
    landed = last_turn(screen)["t"]
    assert last_turn(screen)["card"] == "JC"
    wait_clock(driver, board.now, landed + 0.20)
    board.mock.deliver(chatter(0, landed + 0.100, False, [0.3, 0.4, 0.5, 0.6])
                       + [(1, True, landed + 0.104), (1, False, landed + 0.160)])
    pump_until(driver, lambda: screen.ids.verdict_label.text.startswith("Cat!"), "the verdict on the JC")
    pump_for(driver, 0.2)
    assert screen.ids.verdict_label.text == "Cat!"
    assert [pad for pad, _ in heard] == [0, 1, 1], "Ben's bounces made no press"
    assert len(slaps_by(screen, "Ben")) == 1
    assert stacks(screen) == {"Ben": "26", "Cat": "26"}         # Cat turned the JC and took it back
    pump_until(driver, lambda: board.held_pads() == [], "Ben's pad to settle up")
    driver.tap(screen.ids.pause_button)
    end_game(driver, screen)


# -- the serial pad hub unplugged and plugged back in --------------------------------------------------

class HubOnACable:
    """A fake pad hub at the far end of a real pseudo-terminal, reached through a stable name
    (as /dev/serial/by-id gives one), so that plugged back in under another device it is the
    same name again."""

    def __init__(self, folder):
        from tests.hardware.pad_fakes import FakeHub

        self.name = str(folder / "usb-Jack_Table_Pad_Hub-if00")
        self.hub = FakeHub(pads=4)
        os.symlink(self.hub.path, self.name)

    def unplug(self) -> None:
        os.remove(self.name)     # first, so the app never finds the name of a device half gone
        self.hub.unplug()

    def plug(self) -> None:
        self.hub.plug()
        os.symlink(self.hub.path, self.name)

    def write(self, data: bytes) -> None:
        self.hub.write(data)

    def press(self, pad: int, at: float) -> None:
        self.hub.press(pad, at)

    def release(self, pad: int, at: float) -> None:
        self.hub.release(pad, at)

    def close(self) -> None:
        self.hub.close()
        if os.path.lexists(self.name):
            os.remove(self.name)


@pytest.fixture
def hub_table(driver, app, tmp_path):
    """The app's pads behind a serial pad hub. A PadsLink of its own, opened with ``[pads] hub``
    naming the cable, stands in for the app's link while the test runs; the app's settings
    and its link are put back afterwards."""
    import ui.pads_link as pads_link
    from hardware.hub import PadHub

    cable = HubOnACable(tmp_path)
    settings = app.settings
    changed = copy.deepcopy(settings)
    changed["pads"]["hub"] = cable.name
    original = pads_link.link_for(app)
    screen = app.screen("slapjack")
    app.settings = changed
    try:
        link = pads_link.PadsLink(app)
        link.open()
    finally:
        app.settings = settings
    pads_link._link = screen._link = link
    try:
        assert isinstance(link.board, PadHub)
        yield link, cable
    finally:
        app.show("home")          # the game screen stops listening to this link
        driver.pump(2)
        pads_link._link = screen._link = original
        link.close()
        cable.close()
        driver.pump(2)


def test_the_pad_hub_unplugged_and_plugged_back_in(driver, app, hub_table, monkeypatch):
    from hardware.device import CONNECTED
    from hardware.hub_protocol import frame

    link, cable = hub_table
    hub = link.board
    screen = start_game(driver, app, monkeypatch, "judge")
    session = screen.session
    pump_until(driver, lambda: hub.status == CONNECTED and hub.clock.synced, "the hub to answer")

    def connected() -> bool:
        return (status_line(screen).startswith("Pad hub connected on ") and not screen.warning_text
                and f"connected on {cable.name} (4 pads)" in screen.ids.status_label.text)

    pump_until(driver, connected, "the screen to say the hub is there")

    # Presses over the wire, ranked by the hub's timestamps: Cat's line comes first, but Ben
    # pressed 12 ms before her.
    t0 = time.monotonic() - 0.5
    cable.press(1, t0 + 0.012)
    cable.press(0, t0)
    cable.release(0, t0 + 0.1)
    cable.release(1, t0 + 0.1)
    pump_until(driver, lambda: session.state.races == 1, "the race over the hub")
    pump_for(driver, 0.1)
    assert screen.ids.verdict_label.text == "Ben first, Cat +12 ms"
    driver.tap(screen.ids.good_button)
    assert screen.ids.verdict_label.text == "Ben! Cat +12 ms"

    # Junk on the line: counted, never a crash, and the next good line still counts.
    junk = [b"garbage\n", b"\xff\xfe\x00\x81\n", b"P 1 123 *00\n", frame("P", 9, 5), frame("P", "x", 5),
            frame("WHAT", 1), b"x" * 500 + b"\n", b"\x1b[2J\r\n"]
    noise = hub.noise
    for line in junk:
        cable.write(line)
    t1 = time.monotonic() - 0.3
    cable.press(1, t1)
    cable.release(1, t1 + 0.08)
    pump_until(driver, lambda: session.state.races == 2, "Cat's press after the junk")
    assert hub.noise - noise == len(junk)
    assert screen.ids.verdict_label.text == "Cat first"
    driver.tap(screen.ids.wrong_button)
    assert screen.ids.verdict_label.text == "Wrong slap: Cat"
    assert connected()

    # The cable comes out half-way through a line.
    cable.write(b"P 0 12")
    pump_for(driver, 0.1)
    cable.unplug()
    lost = "Pad hub unplugged: looking for it\u2026"
    pump_until(driver, lambda: status_line(screen).startswith(lost), "the screen to say the hub is lost")
    assert screen.warning_text == lost                       # the warning leads the line, in red
    assert notice(app) == lost
    assert hub.noise - noise == len(junk) + 1               # the cut-off line, counted, not read
    assert any(note.startswith("cut off") for note in hub.recent_noise)
    pump_for(driver, 0.5)
    assert status_line(screen).startswith(lost), "still looking while it is out"
    assert screen.ids.verdict_label.text == "Wrong slap: Cat"   # the game is as it was

    # Plugged back in (a new device, the same stable name): found again by itself within 2 s,
    # and the words about it go from the line and from the foot of the window.
    cable.plug()
    plugged = time.monotonic()
    pump_until(driver, connected, "the hub to be found again", timeout=10)
    took = time.monotonic() - plugged
    assert took < 2.0 + 1.0, f"found again after {took:.1f} s"   # the 2 s rule, with room for a busy machine
    assert "Pad hub" not in notice(app)
    pump_until(driver, lambda: hub.clock.synced, "the clock mapping to be made again")
    driver.tap(screen.ids.undo_button)                       # the table takes back the last verdict
    assert screen.ids.turn_label.text == "Good slap or wrong?"
    driver.tap(screen.ids.good_button)
    assert screen.ids.verdict_label.text == "Cat!"

    # And the game goes on over it: more junk, then a press.
    cable.write(b"\x00\x00junk after the re-plug\n")
    t2 = time.monotonic() - 0.3
    cable.press(0, t2)
    cable.release(0, t2 + 0.08)
    pump_until(driver, lambda: session.state.races == 3, "Ben's press after the re-plug")
    assert screen.ids.verdict_label.text == "Ben first"
    assert hub.noise - noise == len(junk) + 2
    end_game(driver, screen, winner="Ben")


# -- the card reader sending junk --------------------------------------------------------------------

@pytest.fixture
def reader_port(driver, app, monkeypatch):
    """A card reader on a real pseudo-terminal, named in ``[card_reader] port`` for this test.
    The app's link opens it for a real-deck game; it is closed and forgotten afterwards."""
    from ui.pads_link import link_for

    master, slave = os.openpty()
    link = link_for(app)
    saved = (link._tried_reader, link.reader, link.reader_text)
    monkeypatch.setitem(app.settings["card_reader"], "port", os.ttyname(slave))
    link._tried_reader, link.reader = False, None
    try:
        yield master, os.ttyname(slave), link
    finally:
        app.show("home")
        driver.pump(2)
        if link.reader is not None and link.reader is not saved[1]:
            link.reader.close()
        driver.pump(2)
        link._tried_reader, link.reader, link.reader_text = saved
        os.close(master)
        os.close(slave)


def test_the_card_reader_sending_junk(driver, app, board, reader_port, monkeypatch):
    from hardware.device import CONNECTED

    master, port, link = reader_port
    screen = start_game(driver, app, monkeypatch, "real")
    session = screen.session
    assert screen.live_reader
    reader = link.reader
    pump_until(driver, lambda: reader.status == CONNECTED, "the card reader to open")
    pump_until(driver, lambda: f"Card reader connected on {port}" in status_line(screen),
               "the screen to say the reader is there")
    assert screen.ids.turn_label.text == "Ben turns a card"       # no "tap it in": the reader times it

    # Text that is no card: shown, and nothing else happens.
    os.write(master, b"XYZ\r\n")
    pump_until(driver, lambda: "XYZ" in notice(app), "the unknown code to be shown")
    assert notice(app) == "The card reader sent 'XYZ': not a card, ignored."
    assert session.state.cards_turned == 0 and screen.ids.top_card.code == ""

    # Bytes that are no text at all, and runaway lines: counted, never shown, never a card.
    noise = reader.noise
    os.write(master, b"\xff\xfe\x01\n\x1b[2J\n" + b"7" * 5000 + b"\n")
    pump_until(driver, lambda: reader.noise - noise >= 3, "the junk to be counted")
    os.write(master, b"8" * 300)                             # a stream with no line end yet...
    pump_until(driver, lambda: reader.noise - noise >= 4, "the runaway line to be dropped")
    os.write(master, b"QS\n")                               # ...whose tail looks like a card
    os.write(master, b"K" * 150 + b"\n")                   # long, but a line: shown
    pump_until(driver, lambda: "KKKK" in notice(app), "the long unknown code")
    assert session.state.cards_turned == 0 and screen.ids.top_card.code == "", "no card from junk"
    assert reader.noise - noise == 4
    label = app.root.ids.notice
    assert label.height < app.root.height / 3, "a junk line must not cover the table"
    os.write(master, b"11S\n")
    pump_until(driver, lambda: "11S" in notice(app), "the next unknown code")
    assert notice(app) == "The card reader sent '11S': not a card, ignored."

    # A good code turns a card, timed from its arrival: Cat slaps it 250 ms later and wins.
    os.write(master, b"js\r\n")
    pump_until(driver, lambda: session.state.cards_turned == 1, "the JS from the reader")
    assert screen.ids.top_card.code == "JS"
    assert stacks(screen) == {"Ben": "25", "Cat": "26"}
    arrived = last_turn(screen)["t"]
    wait_clock(driver, board.now, arrived + 0.3)
    board.mock.deliver([(1, True, arrived + 0.250), (1, False, arrived + 0.290)])
    pump_until(driver, lambda: screen.ids.verdict_label.text.startswith("Cat!"), "Cat's slap")
    assert session.summary()["tallies"]["Cat"]["reactions_ms"] == [pytest.approx(250.0, abs=0.01)]
    assert stacks(screen) == {"Ben": "25", "Cat": "27"}

    # More junk after it changes nothing: the JS stays the last card.
    os.write(master, b"10X\n")
    pump_until(driver, lambda: "10X" in notice(app), "the last unknown code")
    assert session.state.cards_turned == 1 and screen.ids.top_card.code == "JS"
    assert reader.unknown == 4 and reader.cards == 1
    end_game(driver, screen)
