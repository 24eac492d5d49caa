"""The pile watcher on a synthetic game video, timed: one measurement for both benches
(``python -m hardware.vision.bench`` and ``jack-companion bench``'s camera part).

``watch_video(video, clf)`` plays the video's frames to a :class:`PileWatcher` and says what it
reported against the video's truth, and how fast:

* ``realtime=False``: every frame fed at once, one after another (the vision bench's figures:
  the watcher's CPU per second of video, and its work after the pile lies still);
* ``realtime=True``: the frames played on a camera's schedule (``hardware.camera.paced``, 30 a
  second) to a reader thread, as the app's camera feed reads them; a reader slower than the
  frames skips to the newest one, and what it skipped is counted. ``size`` plays them at
  another sensor size (:func:`widen`); ``hold_s`` keeps the reader that much longer on every
  frame (a reader slower than the camera, on purpose).

The times: *lies still* is the capture time of the first frame from which the whole picture
stays as it finally is (the card down and the hand that laid it gone; "still" as the watcher
itself tells movement, ``watcher.MOVE``), since the watcher cannot tell a card from a hand
before; *landed* is the frame the video says the card came to rest in (the hand still leaving).
Each card's report is timed on ``time.monotonic()`` from both.
"""

from __future__ import annotations

import statistics
import threading
import time

import cv2
import numpy as np

from hardware.camera.device import Frame
from hardware.vision import watcher as watching
from hardware.vision.recognise import DEFAULT

NATIVE = (640, 480)   # the synthetic video's size (hardware/vision/synthetic.py)


def widen(size: tuple[int, int]):
    """A function making a 640x480 frame one of ``size``: scaled to the height and widened with
    its edge columns repeated, so the pile keeps its share of the picture's height, as a wider
    sensor over the same table would see it (``size`` itself when it is 4:3)."""
    width, height = size
    if (width, height) == NATIVE:
        return None
    scaled_w = round(NATIVE[0] * height / NATIVE[1])

    def make(image: np.ndarray) -> np.ndarray:
        out = cv2.resize(image, (scaled_w, height), interpolation=cv2.INTER_LINEAR)
        if scaled_w < width:
            left = (width - scaled_w) // 2
            out = cv2.copyMakeBorder(out, 0, 0, left, width - scaled_w - left, cv2.BORDER_REPLICATE)
        return out

    return make


def still_from(frames, truth, settle: int) -> list[int]:
    """For each card of ``truth``, the first frame from which the picture moves no more until
    the watcher can decide (``settle`` frames later), by the watcher's own measure of movement."""
    small = [cv2.GaussianBlur(cv2.cvtColor(cv2.resize(f, watching.SMALL, interpolation=cv2.INTER_AREA),
                                           cv2.COLOR_BGR2GRAY), (5, 5), 0).astype(np.int16) for f in frames]
    moving = [False] + [float((np.abs(b - a) > watching.LEVEL).mean()) > watching.MOVE
                        for a, b in zip(small, small[1:])]
    out = []
    for _, landed in truth:
        g = landed
        while g + 1 < len(frames) and any(moving[g + 1:g + 1 + settle]):
            g += 1
        out.append(g)
    return out


def spread(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    ordered = sorted(values)

    def rank(q):   # nearest rank
        return ordered[min(len(ordered) - 1, max(0, -(-q * len(ordered) // 100) - 1))]

    return {"n": len(ordered), "min": ordered[0], "median": statistics.median(ordered), "p95": rank(95),
            "p99": rank(99), "max": ordered[-1]}


class _Sink:
    def __init__(self):
        self.events: list[dict] = []
        self.frame: int | None = None   # the frame being fed (fed at once: the frame a report came on)

    def on_card(self, card, landed_at):
        self.events.append({"card": card, "landed_at": landed_at, "at": time.monotonic(), "sure": True,
                            "frame": self.frame})

    def on_unsure(self, candidates, landed_at):
        self.events.append({"card": candidates[0], "candidates": list(candidates), "landed_at": landed_at,
                            "at": time.monotonic(), "sure": False, "frame": self.frame})


def matched_reports(cards: list[str], events: list[dict]) -> list[dict | None]:
    """Each card of the truth with its report, in order: None where the card was not reported
    after the last card matched (missed); every report not matched is a phantom."""
    out, k = [], 0
    for card in cards:
        j = next((j for j in range(k, len(events)) if events[j]["card"] == card), None)
        out.append(None if j is None else events[j])
        k = k if j is None else j + 1
    return out


def watch_video(video, clf, detector=DEFAULT, realtime: bool = True, size: tuple[int, int] = NATIVE,
                hold_s: float = 0.0) -> dict:
    """The pile watcher on ``video`` (frames, fps, truth as ``synthetic.game_video`` gives):
    what it reported, against the truth, and its CPU and report times (see the module)."""
    from hardware.vision.watcher import PileWatcher

    frames, fps, truth = video
    sink = _Sink()
    w = PileWatcher(None, sink, classifier=clf, detector=detector)
    fed_at: dict[int, float] = {}
    skipped: list[int] = []
    if realtime:
        from hardware.camera.paced import PacedFrames

        # Made ready in the delivery thread (a copy: in memory, as a camera's frame comes by DMA).
        source = PacedFrames(frames, fps, prepare=widen(size) or np.array)
        cpu = {}

        def reader():
            c0 = time.thread_time()
            while True:
                frame = source.read()
                if frame is None:
                    break
                fed_at[frame.index] = time.monotonic()
                w.feed(frame)
                if hold_s:
                    time.sleep(hold_s)
            cpu["s"] = time.thread_time() - c0

        thread = threading.Thread(target=reader, name="pile-watcher")
        start = source.start(time.monotonic() + 0.05)
        thread.start()
        thread.join()
        cpu_s, skipped = cpu["s"], source.skipped

        def captured(i):
            return start + i / fps
    else:
        start = 0.0
        c0 = time.process_time()
        for i, f in enumerate(frames):
            sink.frame = i
            fed_at[i] = time.monotonic()
            w.feed(Frame(f, i / fps, i))
        cpu_s = time.process_time() - c0

        def captured(i):   # as on a camera: each report timed from the frame it came on
            return None

    still = still_from(frames, truth, w.settle)
    events = sink.events
    reported = [e["card"] for e in events]
    cards = [c for c, _ in truth]
    matched = [(card, landed, g, event) for (card, landed), g, event
               in zip(truth, still, matched_reports(cards, events))]
    after_still, after_landing, off = [], [], []   # off: each landing time's error, in frames
    for card, landed, g, event in matched:
        if event is None:
            continue
        off.append(abs(event["landed_at"] - (captured(landed) if realtime else landed / fps)) * fps)
        if realtime:
            after_still.append((event["at"] - captured(g)) * 1000)
            after_landing.append((event["at"] - captured(landed)) * 1000)
        elif event["frame"] in fed_at:
            # Fed at once: the frame the report came on arrives that many frames after the still
            # one (or before it: a card told while the hand still leaves) on a camera, plus the
            # work done from then to the report, timed here.
            told = event["frame"]
            work = (event["at"] - fed_at[told]) * 1000
            after_still.append((told - g) * 1000 / fps + work)
            after_landing.append((told - landed) * 1000 / fps + work)
    seconds = len(frames) / fps
    moving = set()
    for (_, landed), g in zip(truth, still):
        moving.update(range(landed - 8, g + 1))   # from the card's slide in to the pile lying still
    out = {
        "frames": len(frames), "fps": fps, "size": list(size), "realtime": realtime,
        "cpu_s": cpu_s, "video_s": seconds, "cpu_share_of_core_at_30fps": cpu_s / seconds,
        "reported": reported, "truth": cards, "exactly_once": reported == cards,
        "missed": [c for c, _, _, e in matched if e is None],
        "phantoms": len(events) - sum(e is not None for *_, e in matched),
        "unsure": sum(not e["sure"] for e in events),
        "landing_within_one_frame": f"{sum(o <= 1 + 1e-6 for o in off)}/{len(truth)}",
        # A reader that skips frames knows a landing only to within the frames it read.
        "landing_off_frames_max": round(max(off), 2) if off else None,
        "after_still_ms": spread(after_still), "after_landing_ms": spread(after_landing),
        "report_after_lying_still_ms": max(after_still) if after_still else None,
        "after_still_each_ms": [round(v, 1) for v in after_still],
        "after_landing_each_ms": [round(v, 1) for v in after_landing],
    }
    if realtime:
        out["read"] = len(fed_at)
        out["skipped"] = len(skipped)
        out["skipped_while_changing"] = sum(i in moving for i in skipped)
        runs, run, last = [], 0, None
        for i in skipped:
            run = run + 1 if last is not None and i == last + 1 else 1
            runs.append(run)
            last = i
        out["longest_skip_run"] = max(runs, default=0)
        out["hold_ms"] = hold_s * 1000
    return out


def merge(results: list[dict]) -> dict:
    """Several videos' figures as one: counts added, times pooled."""
    out = {"videos": len(results), "frames": sum(r["frames"] for r in results),
           "size": results[0]["size"], "realtime": results[0]["realtime"],
           "cpu_s": sum(r["cpu_s"] for r in results), "video_s": sum(r["video_s"] for r in results),
           "cards": sum(len(r["truth"]) for r in results),
           "every_card_once": sum(r["exactly_once"] for r in results),
           "missed": [c for r in results for c in r["missed"]],
           "phantoms": sum(r["phantoms"] for r in results), "unsure": sum(r["unsure"] for r in results),
           "landing_within_one_frame": sum(int(r["landing_within_one_frame"].split("/")[0]) for r in results),
           "landing_off_frames_max": max((r["landing_off_frames_max"] for r in results
                                          if r["landing_off_frames_max"] is not None), default=None)}
    out["cpu_share_of_core_at_30fps"] = out["cpu_s"] / out["video_s"]
    for key in ("after_still_ms", "after_landing_ms"):
        out[key] = spread([v for r in results for v in r[key.replace("_ms", "_each_ms")]])
    for key in ("read", "skipped", "skipped_while_changing"):
        if key in results[0]:
            out[key] = sum(r[key] for r in results)
    if "longest_skip_run" in results[0]:
        out["longest_skip_run"] = max(r["longest_skip_run"] for r in results)
        out["hold_ms"] = results[0]["hold_ms"]
    return out


def watch_slow_reader(video, clf, slower: float, seed: int, size: tuple[int, int] = (1280, 720),
                      detector=DEFAULT) -> dict:
    """The pile watcher fed the frames a reader ``slower`` times slower than this one would
    get, at ``size``: each frame costs its own read's CPU time here times ``slower`` (drawn
    between 0.7 and 1.5 times that, by ``seed``), and the next frame read is the camera's
    newest then. Which frames a capped reader skips decides what the watcher sees (a hand
    resting on the pile one frame shorter looks still long enough to be read), so this replays
    many such schedules without a capped process: every card once, what was missed, phantoms."""
    import random

    from hardware.vision.watcher import PileWatcher

    frames, fps, truth = video
    make = widen(size) or np.array
    rng = random.Random(seed)
    sink = _Sink()
    w = PileWatcher(None, sink, classifier=clf, detector=detector)
    t, i, read = 0.0, 0, 0
    while i < len(frames):
        c0 = time.thread_time()
        sink.frame = i
        w.feed(Frame(make(np.asarray(frames[i])), i / fps, i))
        t = max(t, i / fps) + (time.thread_time() - c0) * slower * rng.uniform(0.7, 1.5)
        read += 1
        i = max(i + 1, int(t * fps))
    reported, cards = [e["card"] for e in sink.events], [c for c, _ in truth]
    matched = matched_reports(cards, sink.events)
    return {"exactly_once": reported == cards, "reported": reported,
            "missed": [c for c, e in zip(cards, matched) if e is None],
            "phantoms": len(reported) - sum(e is not None for e in matched),
            "read": read, "skipped": len(frames) - read}
