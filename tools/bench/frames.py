"""What the bench's children share: reports on stdout, commands on stdin, frames timed as they
reach the screen (``FrameWatch``), and a tap timed from the lift to the frame showing its effect.
Imported only inside a child, once Kivy's config is set."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import zlib

SETTLE_FRAMES = 8       # frames with nothing drawn after which a change is over
HOLD_FRAMES = 2         # a finger stays down this many frames (about 67 ms at 30 fps)
_OUT = sys.stdout


def emit(event: str, **data) -> None:
    _OUT.write("@bench " + json.dumps({"event": event, **data}) + "\n")
    _OUT.flush()


def memory() -> dict:
    """Peak resident memory (the kernel's high-water mark) and the current one, in MiB."""
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    peak_mib = peak / 1024 / 1024 if sys.platform == "darwin" else peak / 1024  # bytes on macOS, KiB elsewhere
    found = {}
    try:
        with open("/proc/self/status") as status:
            for line in status:
                key = line.split(":")[0]
                if key in ("VmHWM", "VmRSS", "RssAnon", "RssFile"):
                    found[key] = round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return {"peak_mib": found.get("VmHWM", round(peak_mib, 1)), "current_mib": found.get("VmRSS"),
            "anon_mib": found.get("RssAnon"), "file_mib": found.get("RssFile")}


# -- frames -----------------------------------------------------------------------------------------

class FrameWatch:
    """Every buffer swap, timed right after it; optionally the pixels of some rectangles of the
    frame just drawn (read before the swap), to tell which frame first shows a change. The read
    holds the swap back (``read_s``: about 3 ms for a whole 800x480 window in software GL), a
    cost of the bench's, not of the app's."""

    def __init__(self):
        from kivy.clock import Clock
        from kivy.core.window import Window

        self.Clock, self.Window = Clock, Window
        self.flips = 0
        self.last_flip_frame = 0
        self.last_flip_time = None
        self.listeners: list = []       # f(t, frame, hashes) after each swap
        self.rects: list[tuple[int, int, int, int]] = []
        self.read_s = 0.0               # how long the last read of pixels held its frame back
        swap = Window.flip

        def flip():
            hashes = None
            if self.rects:
                from kivy.graphics.opengl import glFinish

                glFinish()   # the frame's drawing, which the swap waits for anyway, is not the read's
                reading = time.monotonic()
                hashes = self._read()
                self.read_s = time.monotonic() - reading
            swap()
            t = time.monotonic()
            self.flips += 1
            self.last_flip_frame = Clock.frames
            self.last_flip_time = t
            for listener in list(self.listeners):
                listener(t, Clock.frames, hashes)

        Window.flip = flip

    def _read(self) -> tuple:
        from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

        return tuple(zlib.crc32(glReadPixels(x, y, w, h, GL_RGBA, GL_UNSIGNED_BYTE)) for x, y, w, h in self.rects)

    def watch(self, widgets) -> None:
        """Watch where ``widgets`` are on the window (in window pixels, clipped to it)."""
        width, height = self.Window.size
        rects = []
        for widget in widgets:
            x0, y0 = widget.to_window(widget.x, widget.y)
            x1, y1 = widget.to_window(widget.right, widget.top)
            x0, y0 = max(0, int(x0)), max(0, int(y0))
            x1, y1 = min(width, int(x1 + 0.999)), min(height, int(y1 + 0.999))
            if x1 > x0 and y1 > y0:
                rects.append((x0, y0, x1 - x0, y1 - y0))
        self.rects = rects

    def after_settled(self, callback, frames: int = SETTLE_FRAMES) -> None:
        """``callback()`` once ``frames`` frames have passed with nothing drawn."""
        Clock = self.Clock

        def check(dt):
            if Clock.frames - self.last_flip_frame >= frames:
                event.cancel()
                callback()

        event = Clock.schedule_interval(check, 0)


def read_commands(handle) -> None:
    """Commands from stdin, one JSON a line, each handed to Kivy's main thread."""
    from kivy.clock import Clock

    def reader():
        for line in sys.stdin:
            line = line.strip()
            if line:
                command = json.loads(line)
                Clock.schedule_once(lambda dt, c=command: handle(c))

    threading.Thread(target=reader, name="bench-commands", daemon=True).start()


class TapTimer:
    """One tap on a game action, timed from the lift to the first frame that shows its final effect."""

    def __init__(self, watch: FrameWatch, finger):
        self.watch, self.finger = watch, finger

    def measure(self, target, effect_widgets, done, hold_frames: int = HOLD_FRAMES) -> None:
        """Tap ``target`` (a widget or an (x, y)); ``done(result)`` with a dict once it has settled."""
        watch = self.watch
        record: list[tuple[float, int, tuple]] = []
        lift: dict = {}

        def on_frame(t, frame, hashes):
            record.append((t, frame, hashes))

        def on_release(t, frame):
            lift.update(t=t, frame=frame, index=len(record))

        def finish():
            watch.listeners.remove(on_frame)
            watch.rects = []
            if not lift:
                done({"error": "the tap never reached the app"})
                return
            before = record[lift["index"] - 1][2] if lift["index"] > 0 else None
            after = record[lift["index"]:]
            if not after:
                done({"error": "nothing was drawn after the tap"})
                return
            final = after[-1][2]
            if before is not None and final == before:
                done({"error": "the watched area did not change"})
                return
            t, frame, _ = next(r for r in after if r[2] == final)
            done({"ms": (t - lift["t"]) * 1000.0, "frames": frame - lift["frame"] + 1,
                  "last_change_frames": after[-1][1] - lift["frame"] + 1})

        def start():
            watch.watch(effect_widgets)
            watch.listeners.append(on_frame)
            watch.Window.canvas.ask_update()     # one frame of the picture before the tap
            if hasattr(target, "to_window"):
                self.finger.tap_widget(target, hold_frames=hold_frames, on_release=on_release)
            else:
                self.finger.tap(*target, hold_frames=hold_frames, on_release=on_release)
            watch.Clock.schedule_once(lambda dt: watch.after_settled(finish), 0.05 + hold_frames / 30)

        start()


def clock_kind() -> str:
    """Which Kivy clock runs the loop (``KIVY_CLOCK`` wins over the config, as in Kivy)."""
    from kivy.config import Config

    return os.environ.get("KIVY_CLOCK") or Config.get("kivy", "kivy_clock")


def gl_renderer() -> str:
    try:
        from kivy.graphics.opengl import GL_RENDERER, glGetString

        value = glGetString(GL_RENDERER)
        return value.decode() if isinstance(value, bytes) else str(value)
    except Exception:
        return "unknown"
