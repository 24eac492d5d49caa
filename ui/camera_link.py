"""The camera over the pile, held by the app from the first screen that asks until the app stops.

The feed (``hardware.vision.feed.CameraFeed``) reads frames and watches the pile on its own
thread; as for the pads (ui/pads_link.py), this module only hands its events to Kivy's main
thread: a game screen that listens gets ``on_card(code, landed_at)`` /
``on_unsure(candidates, landed_at)`` with ``landed_at`` on the host's monotonic clock, the
pads' clock, and ``on_cleared(at)`` if it has one (the pile seen gone). When the camera is lost, :attr:`CameraLink.seeing` goes False and the foot of the
screen says so (the game goes on with the card pad); when it is back, the notice goes.

``[camera]`` in config.toml is checked by ``hardware.camera.settings``; a bad value is told
as a config problem, never a traceback.
"""

from __future__ import annotations

import logging
import threading
from functools import partial

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, StringProperty

log = logging.getLogger(__name__)

LOST_TEXT = "Camera unplugged: tap each card on the card pad"   # until it is back, and it looks again


class CameraLink(EventDispatcher):
    seeing = BooleanProperty(False)     # frames are coming
    status_text = StringProperty("")    # what the camera is doing, in words
    problem = StringProperty("")        # why there is no camera at all ("" when there is one)

    def __init__(self, app, **kwargs):
        super().__init__(**kwargs)
        self.app = app
        self.feed = None
        self.camera_factory = None      # tests: a callable giving a Camera (else [camera] settings)
        self._listener = None
        self._lookers: set[str] = set()   # screens showing the picture with outlines and names
        self._lost_said = False
        self._in_flight: list[float] = []   # landing times of cards told but not yet handed over
        app.bind(on_stop=lambda *_: self.close())

    # -- what the app set ---------------------------------------------------------------------

    @property
    def configured(self) -> bool:
        """A camera is set in ``[camera] source`` (or a test handed one)."""
        return self.camera_factory is not None or bool(self.app.settings.get("camera", {}).get("source"))

    def settings(self):
        """The checked ``[camera]`` settings, or None with :attr:`problem` saying why."""
        try:
            from hardware.camera.settings import CameraSettingsError, camera_settings
        except ImportError as exc:   # OpenCV or numpy missing on this machine
            self.problem = f"The camera cannot be used here: {exc}"
            return None
        try:
            return camera_settings(self.app.settings.get("camera", {}))
        except CameraSettingsError as exc:
            self.problem = f"config.toml: {exc}"
            return None

    @property
    def deck_folder(self):
        return self.app.data_dir / "deck"

    def read_ahead(self) -> threading.Thread | None:
        """On a table with a camera set, its code (OpenCV, the card vision) and what it reads
        with (the models, the drawn glyphs) made ready on a thread of its own, from home on:
        on a Pi core the code is a quarter of a second the first camera game's screen waited
        for, and the glyphs seconds in which the camera named no card. None without a camera."""
        if not self.configured:
            return None
        self._keep_drawn()
        thread = threading.Thread(target=_ready_to_see, name="camera-read-ahead", daemon=True)
        thread.start()
        return thread

    def _keep_drawn(self) -> None:
        # The drawn glyphs are made once and kept with the table's games, read back after.
        from hardware.vision.kept import keep_in

        keep_in(self.app.data_dir / "drawn")

    # -- opening, lazily ----------------------------------------------------------------------

    def open(self):
        """The feed, started the first time a screen asks (None when no camera is set or it
        cannot be used: :attr:`problem` says why)."""
        if self.feed is not None:
            return self.feed
        if not self.configured:
            self.problem = "No camera is set: [camera] source in config.toml"
            return None
        settings = self.settings()
        if settings is None:
            return None
        self._keep_drawn()
        try:
            from hardware.camera.device import Camera
            from hardware.vision.feed import CameraFeed

            camera = self.camera_factory() if self.camera_factory is not None else Camera(settings)
            self.feed = CameraFeed(camera, self, region=settings.region, on_status=self._status_on_device,
                                   deck_folder=self.deck_folder)
        except Exception as exc:   # a camera that cannot be opened must not stop a game being set up
            log.exception("camera")
            self.problem = f"The camera cannot be used: {exc}"
            return None
        self.problem = ""
        self.feed.looking = bool(self._lookers)
        self.status_text = "Camera starting"
        self.feed.start()
        return self.feed

    def reload_deck(self) -> None:
        """A deck was taught: read with its corners from now on."""
        if self.feed is None:
            return
        from hardware.vision.feed import classifier_for

        self.feed.use_classifier(classifier_for(self.deck_folder))

    def set_region(self, region) -> None:
        """Watch ``region`` (x, y, w, h fractions) from now on, and keep it in config.toml."""
        region = [round(float(v), 4) for v in region]
        self.app.settings.setdefault("camera", {})["region"] = region
        if self.feed is not None:
            self.feed.set_region(region)
        self.app.save_settings()

    def want_picture(self, who: str, wanted: bool) -> None:
        """A screen showing the picture wants each card outlined and named (a frame's reading
        a few times a second); the feed does that only while some screen wants it. Screens
        come and go in either order, so each says for itself."""
        (self._lookers.add if wanted else self._lookers.discard)(who)
        if self.feed is not None:
            self.feed.looking = bool(self._lookers)

    # -- who hears the cards ------------------------------------------------------------------

    def listen(self, listener) -> None:
        self._listener = listener

    def stop_listening(self, listener) -> None:
        if self._listener is listener:
            self._listener = None

    # -- the feed's thread: nothing but handing over --------------------------------------------

    def on_card(self, card, landed_at) -> None:
        self._in_flight.append(landed_at)
        Clock.schedule_once_free(partial(self._main, "on_card", str(card), landed_at))

    def on_unsure(self, candidates, landed_at) -> None:
        self._in_flight.append(landed_at)
        Clock.schedule_once_free(partial(self._main, "on_unsure", [str(c) for c in candidates], landed_at))

    def on_cleared(self, at) -> None:
        """The pile seen gone (a game that keeps the middle's cards hears it; others do not)."""
        Clock.schedule_once_free(partial(self._main, "on_cleared", at))

    def changing_since(self) -> float | None:
        """When the pile began a change the game has not yet heard the end of: still being
        decided by the feed, or a card told and on its way to the main thread (a press in that
        moment waits for it too). None when the game knows the pile as it is."""
        feed = self.feed
        times = [t for t in list(self._in_flight) if t is not None]
        since = feed.changing_since() if feed is not None else None
        if since is not None:
            times.append(since)
        return min(times) if times else None

    def _status_on_device(self, seeing: bool, text: str) -> None:
        Clock.schedule_once(lambda dt: self._status(seeing, text), -1)

    # -- the main thread ----------------------------------------------------------------------

    def _main(self, method: str, *args) -> None:
        landed_at = args[-2]   # the last argument is Clock's dt
        if method != "on_cleared" and landed_at in self._in_flight:
            self._in_flight.remove(landed_at)
        if self.feed is None:
            return
        listener = self._listener
        handler = getattr(listener, method, None) if listener is not None else None
        if handler is not None:
            handler(*args[:-1])   # the last argument is Clock's dt

    def _status(self, seeing: bool, text: str) -> None:
        if self.feed is None:
            return   # closed meanwhile: the news is about a camera nobody holds
        self.seeing = seeing
        self.status_text = "Camera watching the pile" if seeing else LOST_TEXT
        if not seeing and self._listener is not None:
            self._lost_said = True
            self.app.notify(LOST_TEXT, "error", seconds=10)
        elif seeing and self._lost_said:
            self._lost_said = False
            root = getattr(self.app, "root", None)
            if getattr(root, "notice", None) == LOST_TEXT:
                self.app.clear_notice()   # back: "unplugged" must not stay up

    def close(self) -> None:
        self._listener = None
        self._in_flight.clear()
        if self.feed is not None:
            try:
                self.feed.close()
            except Exception:
                log.exception("closing the camera")
            self.feed = None
        self.seeing = False
        self.status_text = ""


def _ready_to_see() -> None:
    try:
        import hardware.camera.device  # noqa: F401  (the camera's own code, for its screen)
        from hardware.vision.card_corners import default_card_reader
        from hardware.vision.corners import default_detector
        from hardware.vision.learned import default_classifier

        default_classifier()
        default_detector()
        default_card_reader()
    except Exception:   # the camera's own opening says what is wrong, in words, if it comes to that
        log.exception("reading the camera's code ahead")


_link: CameraLink | None = None


def camera_for(app) -> CameraLink:
    """The app's one link to the camera."""
    global _link
    if app is None and _link is not None:
        return _link
    if _link is None or _link.app is not app:
        _link = CameraLink(app)
    return _link
