"""Frames on a camera's own schedule, for the benches: frame ``i`` is captured at
``start + i / fps`` on ``time.monotonic()`` whether or not anyone is reading, as a sensor
exposes; the reader gets the newest frame not yet read. A reader slower than the frames does
not fall behind: the frames it had no time for are skipped (counted in :attr:`skipped`), and
the next read is the newest one.

    source = PacedFrames(frames, fps=30)
    camera = Camera(source=source)        # hardware.camera.device: read() gives Frames
    ... source.skipped                    # the indexes of the frames never read
"""

from __future__ import annotations

import threading
import time

from hardware.camera.device import Frame


class PacedFrames:
    """A list of images played at ``fps`` from a thread of its own. ``prepare(image)`` makes each
    frame ready just before its capture time (a resize: the sensor's size), off the reader's
    thread."""

    def __init__(self, images, fps: float = 30.0, prepare=None, clock=time.monotonic) -> None:
        self.images = images
        self.fps = float(fps)
        self.prepare = prepare or (lambda image: image)
        self.clock = clock
        self.start_at: float | None = None
        self.delivered = 0
        self.skipped: list[int] = []
        self.ended = False
        self._newest: Frame | None = None
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def start(self, at: float | None = None) -> float:
        """Begin the schedule (at ``at``, or now); returns the capture time of frame 0."""
        if self._thread is None:
            self.start_at = self.clock() if at is None else at
            self._thread = threading.Thread(target=self._run, name="paced-frames", daemon=True)
            self._thread.start()
        return self.start_at

    def capture_time(self, index: int) -> float:
        return self.start_at + index / self.fps

    def _run(self) -> None:
        for i, image in enumerate(self.images):
            frame = self.prepare(image)
            wait = self.capture_time(i) - self.clock()
            if wait > 0 and self._stop.wait(wait):
                break
            with self._ready:
                if self._newest is not None:
                    self.skipped.append(self._newest.index)   # replaced before it was read
                self._newest = Frame(frame, self.capture_time(i), i)
                self.delivered += 1
                self._ready.notify_all()
        with self._ready:
            self.ended = True
            self._ready.notify_all()

    def read(self) -> Frame | None:
        """The newest frame not yet read, waiting for it; None once the frames have all gone."""
        self.start()
        with self._ready:
            while self._newest is None:
                if self.ended:
                    return None
                self._ready.wait()
            frame, self._newest = self._newest, None
        return frame

    # As a source of hardware.camera.device.Camera.
    def grab(self):
        frame = self.read()
        if frame is None:
            raise EOFError
        return frame.image, frame.t

    def close(self) -> None:
        self._stop.set()
        with self._ready:
            self.ended = True
            self._ready.notify_all()
