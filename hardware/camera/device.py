"""The camera as a device: frames stamped on ``time.monotonic()``, the pads' clock.

:class:`Camera` wraps a *source* (OpenCV's VideoCapture, picamera2, or :class:`MockCamera`'s
images). ``read()`` gives the next :class:`Frame` or None; when the source is lost (a webcam
unplugged) its status is SEARCHING, ``status_text`` says why, and the camera looks for it again
every ``retry`` seconds, as the pad hub does for its serial port. It fills the contract every
device fills (hardware/device.py: ``status``, ``status_text``, ``on_status``, ``close()``, a
context manager).
"""

from __future__ import annotations

import glob
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hardware.camera.settings import CameraSettings
from hardware.device import CONNECTED, SEARCHING, Device, StatusCallback

IMAGE_EXTS = (".png", ".jpg", ".jpeg", ".bmp")


@dataclass
class Frame:
    image: np.ndarray   # BGR
    t: float            # capture time, time.monotonic() seconds (or the mock's clock)
    index: int


class CameraError(RuntimeError):
    pass


class OpenCVSource:
    """A USB webcam over V4L2 (``/dev/videoN``) or a video file, through cv2.VideoCapture."""

    def __init__(self, where: str | int, size=(640, 480), fps: float = 30.0) -> None:
        import cv2

        self._cap = cv2.VideoCapture(where)
        if not self._cap.isOpened():
            raise CameraError(f"no camera at {where}")
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._cap.set(cv2.CAP_PROP_FPS, fps)

    def grab(self):
        ok, image = self._cap.read()
        t = time.monotonic()  # taken as the frame arrives: V4L2 buffers add a frame or so
        if not ok:
            raise CameraError("the camera stopped sending frames (unplugged?)")
        return image, t

    def close(self) -> None:
        self._cap.release()


class PiCameraSource:
    """The Raspberry Pi camera through picamera2 (Debian's python3-picamera2), imported only here."""

    def __init__(self, size=(640, 480), fps: float = 30.0) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError("picamera2 is not installed (sudo apt install python3-picamera2)") from exc
        self._cam = Picamera2()
        cfg = self._cam.create_video_configuration(main={"size": tuple(size), "format": "BGR888"},
                                                   controls={"FrameRate": fps})
        self._cam.configure(cfg)
        self._cam.start()

    def grab(self):
        request = self._cam.capture_request()
        try:
            image = request.make_array("main")
            # SensorTimestamp is CLOCK_MONOTONIC in nanoseconds: the same clock as time.monotonic().
            t = request.get_metadata().get("SensorTimestamp")
        finally:
            request.release()
        return image, (t / 1e9 if t else time.monotonic())

    def close(self) -> None:
        self._cam.stop()
        self._cam.close()


class MockCamera:
    """Plays a folder of images, a video file, or a list of images at ``fps``.

    ``realtime=True`` paces frames on the wall clock and stamps them with ``clock()``; with
    ``realtime=False`` frames come at once, stamped ``start + i / fps`` (tests' own clock).
    ``loop`` starts again at the end; otherwise the source ends (``grab`` raises EOFError).
    """

    def __init__(self, frames, fps: float = 30.0, realtime: bool = True, loop: bool = False,
                 clock=time.monotonic, start: float | None = None) -> None:
        self.fps = float(fps)
        self.realtime, self.loop, self.clock = realtime, loop, clock
        self._frames = self._load(frames)
        self._i = 0
        self._start = start
        self.unplugged = False  # tests pull the plug

    @staticmethod
    def _load(frames):
        import cv2

        if isinstance(frames, (str, Path)):
            path = Path(frames)
            if path.is_dir():
                files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_EXTS)
                if not files:
                    raise CameraError(f"{path}: no images in the folder")
                return [cv2.imread(str(p)) for p in files]
            cap = cv2.VideoCapture(str(path))
            out = []
            while True:
                ok, img = cap.read()
                if not ok:
                    break
                out.append(img)
            cap.release()
            if not out:
                raise CameraError(f"{path}: not a video or image folder OpenCV can read")
            return out
        return list(frames)

    def grab(self):
        if self.unplugged:
            raise CameraError("mock camera unplugged")
        if self._i >= len(self._frames):
            if not self.loop:
                raise EOFError
        if self._start is None:
            self._start = self.clock()
        t = self._start + self._i / self.fps
        if self.realtime:
            delay = t - self.clock()
            if delay > 0:
                time.sleep(delay)
        image = self._frames[self._i % len(self._frames)]
        self._i += 1
        return image, t

    def close(self) -> None:
        pass


def open_source(settings: CameraSettings, loop: bool = True):
    """The source named by the settings; raises CameraError if there is none to open.

    A file or folder stands in for a camera: it plays round again (``loop``) for the app, and
    once for the camera check, which stops at its end."""
    s = settings.source
    if s == "":
        raise CameraError("no camera set ([camera] source is empty)")
    if s == "picamera":
        return PiCameraSource(settings.size, settings.fps)
    if s == "auto":
        try:
            return PiCameraSource(settings.size, settings.fps)
        except Exception:
            pass
        for dev in sorted(glob.glob("/dev/video*")):
            try:
                return OpenCVSource(dev, settings.size, settings.fps)
            except CameraError:
                continue
        raise CameraError("no camera found (no Pi camera, no /dev/video*)")
    if s.startswith("/dev/video"):
        return OpenCVSource(s, settings.size, settings.fps)
    if os.path.exists(s):
        return MockCamera(s, fps=settings.fps, realtime=True, loop=loop)
    raise CameraError(f"{s}: no such camera, file or folder")


class Camera(Device):
    """A source that may come and go; ``read()`` returns a Frame, or None while it is missing."""

    closed_text = "closed"

    def __init__(self, settings: CameraSettings | None = None, source=None, retry: float = 2.0,
                 clock=time.monotonic, loop: bool = True, on_status: StatusCallback | None = None) -> None:
        super().__init__(on_status=on_status, status=SEARCHING, status_text="starting")
        self.settings = settings or CameraSettings()
        self.loop = loop
        self.retry, self.clock = retry, clock
        self._source = source
        self._given = source is not None
        self._next_try = 0.0
        self._count = 0
        self.ended = False   # a recording played to its end, or one that cannot be played

    def _open(self) -> bool:
        if self._source is not None:
            return True
        if self._given or self.clock() < self._next_try:
            return False
        try:
            self._source = open_source(self.settings, self.loop)
        except CameraError as exc:
            if not self.loop and os.path.exists(self.settings.source):
                # A recording checked once that cannot be read will not become readable.
                self.ended = True
                self._set_status(SEARCHING, f"cannot play the recording: {exc}")
                return False
            self._set_status(SEARCHING, f"camera missing: {exc}; looking again every {self.retry:g} s")
            self._next_try = self.clock() + self.retry
            return False
        return True

    def read(self) -> Frame | None:
        if self.ended or self.closed or not self._open():
            return None
        try:
            image, t = self._source.grab()
        except EOFError:
            self.ended = True
            self._set_status(SEARCHING, "the recording ended")
            return None
        except Exception as exc:  # a webcam pulled out mid-game: say so, look again
            self._set_status(SEARCHING, f"camera lost: {exc}; looking again every {self.retry:g} s")
            if not self._given:
                try:
                    self._source.close()
                except Exception:
                    pass
                self._source = None
            self._next_try = self.clock() + self.retry
            return None
        self._count += 1
        self._set_status(CONNECTED, "camera working")
        return Frame(image, t, self._count - 1)

    def _release(self) -> None:
        if self._source is not None:
            self._source.close()
            self._source = None
        self.ended = True
