"""The camera as a card feed: the pile watcher on the camera's frames, on one thread, with the
camera's comings and goings told as they happen.

A game hears ``sink.on_card(card, landed_at)`` / ``sink.on_unsure(candidates, landed_at)`` as
from any card feed (docs/vision.md), on the feed's thread; ``on_status(seeing, text)`` says when
the camera is lost ("the game goes on with the card pad") and when it is back. The camera
screen asks :meth:`CameraFeed.picture` for the last frame and what was seen in it.

    feed = CameraFeed(Camera(settings), sink, region=settings.region, on_status=print)
    feed.start()      # or feed.step() frame by frame (tests)
    ...
    feed.stop()
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from hardware.vision.watcher import PileWatcher

LOOK_EVERY_S = 0.3   # the camera screen's outlines and names: a few times a second is plenty


@dataclass
class Picture:
    """The last frame, and every card named in it (``SeenCard``: card, sure, outline in pixels)."""

    image: np.ndarray | None = None
    t: float = 0.0
    seen: list = field(default_factory=list)
    seen_at: float = 0.0


def classifier_for(deck_folder=None):
    """The classifier a game reads with: the shipped one, and a taught deck when there is one
    (hardware/vision/templates.py)."""
    from hardware.vision.learned import CombinedClassifier, default_classifier

    clf = default_classifier()
    if deck_folder is None or not Path(deck_folder).is_dir():
        return clf
    from hardware.vision.templates import DeckTemplates

    deck = DeckTemplates(deck_folder)
    if not deck.taught():
        return clf
    from hardware.vision.taught import TaughtDeck

    own = CombinedClassifier(clf.learned, deck.classifier(clf.glyphs)) if isinstance(
        clf, CombinedClassifier) else deck.classifier(clf)
    own.taught = TaughtDeck.load(deck_folder)  # the deck's own glyphs have the last word (recognise.taught_look)
    return own


class CameraFeed:
    """``camera`` answers ``read()`` (a Frame or None) and ``status`` (hardware.camera.device)."""

    def __init__(self, camera, sink, *, region=(0.0, 0.0, 1.0, 1.0), classifier=None, on_status=None,
                 clock=time.monotonic, deck_folder=None) -> None:
        self.camera, self.sink = camera, sink
        self.deck_folder = deck_folder      # a taught deck (hardware/vision/templates.py), if any
        self.clock = clock
        self.on_status = on_status or (lambda seeing, text: None)
        self._classifier = classifier
        self.region = tuple(region)
        self._lock = threading.Lock()
        self._watcher: PileWatcher | None = None
        self.seeing: bool | None = None     # None until the first read says
        self.status = "starting"
        self.looking = False                # the camera screen wants outlines and names
        self._picture = Picture()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    @property
    def classifier(self):
        if self._classifier is None:
            self._classifier = classifier_for(self.deck_folder)
        return self._classifier

    def use_classifier(self, classifier) -> None:
        """A deck was taught: read with it from the next frame (the pile as seen is kept)."""
        with self._lock:
            self._classifier = classifier
            if self._watcher is not None:
                self._watcher.clf = classifier

    def set_region(self, region) -> None:
        """Watch another part of the frame: the watcher starts afresh on it (the pile there now
        is the pile, not a new card)."""
        with self._lock:
            self.region = tuple(region)
            self._watcher = None

    def _watching(self) -> PileWatcher:
        if self._watcher is None:
            self._watcher = PileWatcher(self.camera, self.sink, clock=self.clock, region=self.region,
                                        classifier=self.classifier)
        return self._watcher

    def _tell(self, seeing: bool) -> None:
        status = getattr(self.camera, "status_text", "") or ""
        if seeing != self.seeing:
            self.seeing = seeing
            self.status = status
            self.on_status(seeing, status)
        else:
            self.status = status

    def step(self) -> bool:
        """Read one frame and watch the pile in it; False when there was none (camera missing,
        or a recording that ended)."""
        frame = self.camera.read()
        if frame is None:
            self._tell(False)
            return False
        self._tell(True)
        with self._lock:
            watcher = self._watching()
            watcher.feed(frame)
        self._picture = Picture(frame.image, frame.t, self._picture.seen, self._picture.seen_at)
        if self.looking and frame.t - self._picture.seen_at >= LOOK_EVERY_S:
            self._picture = Picture(frame.image, frame.t, self.look(frame.image), frame.t)
        return True

    def look(self, image: np.ndarray) -> list:
        """Every card named in a whole frame (what the camera screen draws)."""
        from hardware.vision.recognise import read_image

        seen, _ = read_image(image, self.classifier)
        return seen

    def picture(self) -> Picture:
        return self._picture

    def changing_since(self) -> float | None:
        """When the pile began to change, while the watcher has not decided what changed
        (:meth:`hardware.vision.watcher.PileWatcher.changing_since`); None when still, and
        while the camera is lost (no decision is coming: the card pad takes the cards)."""
        watcher = self._watcher
        if watcher is None or self.seeing is False:
            return None
        return watcher.changing_since()

    @property
    def pile(self) -> list[str]:
        """The pile as the watcher sees it, bottom to top."""
        watcher = self._watcher
        return list(watcher.top) if watcher is not None else []

    # -- a thread for the app ----------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="camera-feed", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                got = self.step()
            except Exception as exc:   # a broken frame must not end the feed for the rest of the game
                self.status = f"camera trouble: {exc}"
                got = False
            if not got:
                if getattr(self.camera, "ended", False):
                    return   # a recording played to its end, or the camera closed
                self._stop.wait(0.2)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            # Long enough for the first frame's reading (the classifier is built on first use):
            # a thread left inside OpenCV when Python exits takes the process down with it.
            self._thread.join(timeout=15)
            self._thread = None

    def close(self) -> None:
        self.stop()
        try:
            self.camera.close()
        except Exception:
            pass
