"""The slap pads and the serial card reader, held by the app from the first Slapjack screen
until the app stops.

Devices call back on their own threads with their own timestamps (``hardware.pads``), and
every one of them answers the same contract (``hardware.device``, ``hardware.pad_device``); this
module hands every event to Kivy's main thread unchanged, so a screen only ever sees
``on_pad_press(pad, t, arrived)`` / ``on_pad_release(pad, t)`` / ``on_card(code, t)`` on the
main thread, with ``t`` on the pads' clock (``board.now()``), and for a press the time it reached
the device thread (``arrived``, same clock): a race's window is counted from then, not from
whenever the main thread got to it. One screen listens at a time.

On a desktop the pads are mock pins: the keys in ``[pads] keys`` press them, and the pads'
lights are mirrored in :attr:`PadsLink.light_modes` for the screen to draw.
"""

from __future__ import annotations

import logging
from functools import partial

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty

# Read with the Slapjack screens' code, not when a game first opens the pads: the pads' code
# imports gpiozero, about a third of what resuming a Slapjack game added, and a resumed game's
# screen code is read while the app starts (CompanionApp._ready_to_resume), before the tap.
from hardware import pads as pad_boards

log = logging.getLogger(__name__)

STUCK_CHECK_SECONDS = 0.5   # often enough to warn within a second, rare enough to stay cool


class PadsLink(EventDispatcher):
    status_text = StringProperty("")   # how the pads were opened and where their times come from
    summary_text = StringProperty("")  # the line under a game: what can change ("" when all is well)
    warning = StringProperty("")       # what the table must know: no edge timestamps, hub lost
    stuck_text = StringProperty("")    # pads held down too long, in words
    reader_text = StringProperty("")   # the card reader's state ("" when there is none)
    light_modes = ListProperty([])     # per pad: "off" | "turner" | "winner" | "wrong" | "on" | None
    is_mock = BooleanProperty(False)
    count = NumericProperty(0)         # pads on the table (0 until opened, or if they cannot be)
    keys = ListProperty([])            # the key that presses each mock pad

    def __init__(self, app, **kwargs):
        super().__init__(**kwargs)
        self.app = app
        self.board = None
        self.reader = None
        self._tried_board = False
        self._tried_reader = False
        self._listener = None
        self._stuck_event = None
        self._stuck_seen: set[int] = set()
        self._notices: dict[str, str] = {}   # what this link last said at the foot, by topic
        self._keys_bound = False
        app.bind(on_stop=lambda *_: self.close())

    # -- opening, lazily ------------------------------------------------------------------------

    def open(self):
        """The pad board, opened the first time a Slapjack screen asks (None if it cannot be)."""
        if self._tried_board:
            return self.board
        self._tried_board = True
        pads = self.app.settings.get("pads", {})
        try:
            board = pad_boards.open_pads(self.app.settings, mock=True if self.app.mock else None,
                                         on_press=self._press_on_device, on_release=self._release_on_device,
                                         on_status=self._status_on_device, work_dir=self.app.data_dir)
        except pad_boards.PadError as exc:
            self.status_text = self.summary_text = "No slap pads"
            self.warning = f"The pads cannot be used: {exc}"
            self.app.notify(self.warning, "error", seconds=10)
            return None
        self.board = board
        self.count = board.count
        self.is_mock = bool(board.is_mock)
        if board.is_mock:
            self.keys = [str(k) for k in list(pads.get("keys", []))[:board.count]]
            self._bind_keys()
        board.lights.on_change = self._lights_on_device
        self.light_modes = board.lights.modes()
        self._describe()
        return board

    def open_reader(self):
        """The serial card reader named in ``[card_reader] port``, or None when there is none."""
        if self._tried_reader:
            return self.reader
        self._tried_reader = True
        from hardware.card_reader import open_card_reader

        try:
            self.reader = open_card_reader(self.app.settings, on_card=self._card_on_device,
                                           on_unknown=self._unknown_on_device,
                                           on_status=self._reader_status_on_device)
        except Exception as exc:   # a bad port name must not stop a game being set up
            log.exception("card reader")
            self.reader_text = f"Card reader not usable: {exc}"
            return None
        if self.reader is not None:
            self.reader_text = self.reader.status_text
        return self.reader

    @property
    def reader_configured(self) -> bool:
        return bool(self.app.settings.get("card_reader", {}).get("port"))

    def now(self) -> float:
        """The pads' clock; every press, card and planned computer press is on it."""
        if self.board is not None:
            return self.board.now()
        import time

        return time.monotonic()

    def _describe(self) -> None:
        board = self.board
        status = board.status_text or ""
        trouble = board.trouble
        how = f"{board.reason} \u00b7 {board.timing}"
        # A line too long for the screen is shortened in its middle: "Pad hub connected on ..."
        # leads, or the table never sees it. Trouble leads anyway, as the warning.
        if status and not trouble:
            self.status_text = f"{status} \u00b7 {how}"
        else:
            self.status_text = how + (f" \u00b7 {status}" if status else "")
        # Under a game each seat's tile names its pad, so the game's line says only what can
        # change (the hub coming and going) and any warning; how the times are taken is the
        # set-up's line and `jack-companion pads`'.
        self.summary_text = status
        warnings = []
        if not board.timestamps_are_edge:
            warnings.append("No edge timestamps on this pin factory: slaps a few ms apart cannot be told apart")
        if trouble:
            warnings.append(status)
        self.warning = " \u00b7 ".join(w for w in warnings if w)

    # -- who hears the events ---------------------------------------------------------------------

    def listen(self, listener) -> None:
        """``listener`` (a screen) gets the events from now on; stuck pads are watched meanwhile."""
        self._listener = listener
        if self._stuck_event is None and self.board is not None:
            self._stuck_event = Clock.schedule_interval(self._check_stuck, STUCK_CHECK_SECONDS)

    def stop_listening(self, listener) -> None:
        if self._listener is listener:
            self._listener = None
            if self._stuck_event is not None:
                self._stuck_event.cancel()
                self._stuck_event = None

    def _call(self, method: str, *args) -> None:
        listener = self._listener
        handler = getattr(listener, method, None) if listener is not None else None
        if handler is not None:
            handler(*args)

    # -- device threads: nothing but handing over --------------------------------------------------
    # Presses and cards go over as "free" events: the clock (free_all, ui/kivy_setup.py) wakes
    # for them at once instead of at the next frame, up to 33 ms later.

    def _press_on_device(self, pad: int, t: float) -> None:
        Clock.schedule_once_free(partial(self._main, "on_pad_press", pad, t, self.now()))

    def _release_on_device(self, pad: int, t: float) -> None:
        Clock.schedule_once_free(partial(self._main, "on_pad_release", pad, t))

    def _card_on_device(self, card, arrived: float) -> None:
        Clock.schedule_once_free(partial(self._main, "on_card", str(card), arrived))

    def _unknown_on_device(self, text: str, arrived: float) -> None:
        Clock.schedule_once(lambda dt: self.app.notify(f"The card reader sent {text!r}: not a card, ignored.",
                                                       "error"), -1)

    def _status_on_device(self, status: str, text: str) -> None:
        Clock.schedule_once(lambda dt: self._hub_status(status, text), -1)

    def _reader_status_on_device(self, status: str, text: str) -> None:
        Clock.schedule_once(lambda dt: setattr(self, "reader_text", text), -1)

    def _lights_on_device(self) -> None:
        Clock.schedule_once(self._sync_lights, -1)

    # -- the main thread --------------------------------------------------------------------------

    def _main(self, method: str, *args) -> None:
        self._call(method, *args[:-1])   # the last argument is Clock's dt

    def _hub_status(self, status: str, text: str) -> None:
        if self.board is None:
            return
        self._describe()
        if status != "connected" and status != "closed":
            self._say("hub", text)
        else:
            self._unsay("hub")   # found again: "unplugged" must not stay up

    def _sync_lights(self, *_) -> None:
        if self.board is not None:
            self.light_modes = self.board.lights.modes()

    def _check_stuck(self, *_) -> None:
        if self.board is None:
            return
        stuck = set(self.board.stuck_pads())
        report = self.board.stuck_report()
        self.stuck_text = " \u00b7 ".join(report)
        if stuck - self._stuck_seen:
            self._say("stuck", " ".join(report), seconds=8)
        elif not stuck:
            self._unsay("stuck")   # every pad is free again
        self._stuck_seen = stuck

    def _say(self, topic: str, text: str, seconds: float = 5) -> None:
        self._notices[topic] = text
        self.app.notify(text, "error", seconds=seconds)

    def _unsay(self, topic: str) -> None:
        """A problem announced at the foot of the screen is over: take the notice down if it
        is still the one showing."""
        text = self._notices.pop(topic, None)
        root = getattr(self.app, "root", None)
        if text is not None and getattr(root, "notice", None) == text:
            self.app.clear_notice()

    # -- the keyboard as pads ---------------------------------------------------------------------

    def _bind_keys(self) -> None:
        if not self._keys_bound:
            Window.bind(on_key_down=self._key_down, on_key_up=self._key_up)
            self._keys_bound = True

    @staticmethod
    def _char(key: int) -> str:
        return chr(key) if 32 <= key < 0x110000 else ""

    def _key_down(self, window, key, scancode=None, codepoint=None, modifiers=None, *_):
        mock = self.board.mock if self.board is not None else None
        if mock is not None and self._listener is not None:
            mock.key_down(codepoint or self._char(key))
        return False   # never swallow a key: text boxes elsewhere still want it

    def _key_up(self, window, key, *_):
        mock = self.board.mock if self.board is not None else None
        if mock is not None:
            mock.key_up(self._char(key))   # a release always goes through, so no pad sticks down
        return False

    # -- the end ----------------------------------------------------------------------------------

    def close(self) -> None:
        self._listener = None
        if self._stuck_event is not None:
            self._stuck_event.cancel()
            self._stuck_event = None
        if self._keys_bound:
            Window.unbind(on_key_down=self._key_down, on_key_up=self._key_up)
            self._keys_bound = False
        for device in (self.board, self.reader):
            if device is not None:
                try:
                    if device is self.board:
                        device.lights.all_off()
                    device.close()
                except Exception:
                    log.exception("closing %r", device)
        self.board = self.reader = None


_link: PadsLink | None = None


def link_for(app) -> PadsLink:
    """The app's one link to the pads, made the first time a Slapjack screen asks for it."""
    global _link
    if app is None and _link is not None:   # the app is stopping: the link it had
        return _link
    if _link is None or _link.app is not app:
        _link = PadsLink(app)
    return _link
