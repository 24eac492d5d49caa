"""The pile watcher: from camera frames, each new card that lands on the pile, once.

A card has landed when the pile changed and then held still for ``settle`` frames. Its landing
time is the capture time of the first frame from which the card's own area looked as it does
now (a hand lifting away later does not move it); when the reader skipped frames just before
that one, the first frame it could have been (the one after the last frame read), so a slap made
as the card landed is never taken for one before it. Nothing is reported when the still pile looks
as it did before (a hand passed, a slap), shows no card (picked up), shows the card already on
top (squared) or the card that was under it (taken back).

A card is told sooner when its own area is still before the whole picture is (the hand that laid
it still leaving): while the pile changes, a card-sized part that changed since the last still
pile and did not move since the last frame is read (that part of the frame only, by outlines);
a new card named sure there whose own area has held still ``card_settle`` frames is reported at
once. When the whole pile then holds still, a pile that still looks as it did then is that card,
not read again; anything else is decided as above.

    watcher = PileWatcher(camera, sink, clock=time.monotonic)
    watcher.start()          # a thread reading camera.read(); or call watcher.feed(frame)
    ... sink.on_card("JH", landed_at) / sink.on_unsure(["8H", "6H"], landed_at)
    ... sink.on_cleared(at)  # a sink that has it: the pile is seen gone (gathered, or under a hand)
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import cv2
import numpy as np

from hardware.vision.corners import default_detector
from hardware.vision.learned import default_classifier
from hardware.vision.detect import find_cards, order_quad, warp_card
from hardware.vision.indexes import cards_from_corners
from hardware.vision.recognise import DEFAULT, SeenCard, read_by_outlines, read_card, read_image, taught_look

SMALL = (160, 120)
MOVE = 0.003    # share of pixels changed by more than LEVEL between frames: movement
CHANGED = 0.005  # share changed since the last still pile: a different pile (a card laid square
                 # over the last one changes about 1%; the reading then tells a nudge from a new card)
LEVEL = 18
EARLY_PART = 0.03   # share of the picture: a still part this big that changed may be a new card (a
                    # card is about 10%; a card sliding in keeps under 4% still from frame to frame)
EDGE_MOVING = 0.3   # share of that part's edge moving: a card sliding in moves 80 to 95% of its edge;
                    # one lying still while the hand that laid it leaves, under 20%
CARD_CHANGED = 0.2  # share of a card read early that changed since the last still pile: it is new (a
                    # spade laid over the spades of a trick changes 27 to 29% of its area; a card of the
                    # pile read again is as it was)
SKIPPED_AT_MOST_S = 0.5  # a longer gap between frames read is the camera away (lost, plugged back),
                         # not frames skipped: a picture after it is dated when it was read
FIND_HEIGHT = 480   # card outlines are found on frames at most this tall, the cards then read at the
                    # frame's own size: at 1280x720 finding them took 13 ms of a 22 ms decision (one core)


def shrunk_size(image: np.ndarray, frame_height: int | None = None) -> tuple[int, int] | None:
    """(width, height) to find shapes in ``image`` (a frame, or a part of one ``frame_height``
    tall) at: shrunk as its frame would be to ``FIND_HEIGHT`` rows, when that frame is half as
    tall again or more; None to find them at its own size. The outline search's fixed kernels
    were tuned on 640x480 frames, where a card 150 px wide is placed to a pixel or two."""
    h, w = image.shape[:2]
    f = (frame_height or h) / FIND_HEIGHT
    if f < 1.5 or min(h, w) / f < 32:
        return None
    return round(w / f), round(h / f)


def _to_full(quad: np.ndarray, image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    return quad * np.array([image.shape[1] / size[0], image.shape[0] / size[1]], np.float32)


def find_outlines(image: np.ndarray) -> list[np.ndarray]:
    """The card outlines in a frame, found on it at :func:`shrunk_size`, in its own pixels."""
    size = shrunk_size(image)
    if size is None:
        return find_cards(image)
    return [_to_full(q, image, size) for q in find_cards(cv2.resize(image, size, interpolation=cv2.INTER_LINEAR))]


class PileWatcher:
    def __init__(self, camera, sink, clock=time.monotonic, region=(0.0, 0.0, 1.0, 1.0), settle: int = 3,
                 classifier=None, detector=DEFAULT, card_settle: int | None = 1) -> None:
        self.camera, self.sink, self.clock = camera, sink, clock
        self.region, self.settle = region, settle
        # Frames a new card's own area must hold still before it is told early (None: only when
        # the whole pile is still).
        self.card_settle = card_settle
        self.clf = classifier or default_classifier()
        # The corner detector (DEFAULT: the shipped one; None: never) is asked only about a
        # card the outlines leave unsure: the pile's own history already tells the new card.
        self.detector = detector
        self.top: list[str] = []          # the pile as seen, bottom to top
        self._still_ref: np.ndarray | None = None
        self._still_image: np.ndarray | None = None   # the last still pile, at full size
        self._hidden: list[str] = []      # the pile as it was before a hand covered it, or it was gathered
        self._prev: np.ndarray | None = None
        # Frames since the pile began to change: (capture time, small frame, the earliest capture
        # time of the same picture, earlier than its own when frames were skipped before it).
        self._history: list[tuple[float, np.ndarray, float]] = []
        self._last_t: float | None = None      # the last frame read's capture time
        self._interval: float | None = None    # the camera's time between frames: the least gap read
        self._quiet = 0
        self._deciding: float | None = None   # a still pile being read: when its change began
        self._early: tuple | None = None      # a card told before the pile was still: (card, its mask, the frame)
        self._tried: np.ndarray | None = None  # the still part last read early, and found no new card in
        # A new card read sure early while its own area still moved: (top, outline, mask, the
        # frame), told on the first frame that area holds still, without reading it again.
        self._moving_card: tuple | None = None
        self.early_reads = 0                  # parts read early (the bench counts them)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.status = "watching"

    def changing_since(self) -> float | None:
        """The capture time of the first frame of a change not yet decided on (a card landing, a
        hand passing), or None while the pile is still and every card on it has been told."""
        if self._early is not None:
            return None   # the change's card is told (a hand still leaving is no news)
        history = self._history
        return history[0][0] if history else self._deciding

    def _crop(self, image: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        x, y, rw, rh = self.region
        return image[int(y * h):int((y + rh) * h), int(x * w):int((x + rw) * w)]

    def feed(self, frame) -> None:
        """One frame (anything with ``image`` and ``t``)."""
        image = self._crop(frame.image)
        earliest = self._earliest(frame.t)
        small = cv2.GaussianBlur(cv2.cvtColor(cv2.resize(image, SMALL, interpolation=cv2.INTER_AREA),
                                              cv2.COLOR_BGR2GRAY), (5, 5), 0).astype(np.int16)
        if self._prev is None:
            self._prev, self._still_ref = small, small
            self._settled(image, frame.t, first=True)
            return
        moved = np.abs(small - self._prev) > LEVEL
        moving = float(moved.mean()) > MOVE
        self._prev = small
        if moving:
            self._quiet = 0
            self._history.append((frame.t, small, earliest))
            self._look_early(image, small, moved)
            return
        if not self._history:
            return
        self._history.append((frame.t, small, earliest))
        self._quiet += 1
        if self._quiet >= self.settle:
            self._settled(image, None)
        else:
            self._look_early(image, small, moved)

    def _earliest(self, t: float) -> float:
        """The earliest capture time of a picture read at ``t``: after frames skipped (a reader
        behind its camera), the frame after the last one read may already have shown it."""
        last, self._last_t = self._last_t, t
        if last is None or t <= last:
            return t
        gap = t - last
        self._interval = gap if self._interval is None else min(self._interval, gap)
        return last + self._interval if 1.5 * self._interval < gap <= SKIPPED_AT_MOST_S else t

    def _settled(self, image: np.ndarray, t, first: bool = False) -> None:
        history = self._history
        self._deciding = history[0][0] if history else None
        self._history, self._quiet = [], 0
        try:
            self._decide(image, t, history, first)
        finally:
            self._deciding = None

    def _look_early(self, image: np.ndarray, small: np.ndarray, moved: np.ndarray) -> None:
        """While the pile changes: a new card whose own area is already still, told at once."""
        if self.card_settle is None or self._early is not None or len(self._history) <= self.card_settle:
            return
        if self._moving_card is not None:
            top, outline, mask, then = self._moving_card
            self._moving_card = None
            if (float((np.abs(small[mask] - then[mask]) < 12).mean()) >= 0.9 and top not in self.top
                    and top not in self._hidden):
                # Held still since it was read sure: the same card in the same place (a read of
                # this frame would name it again, at a core's 20 to 35 ms).
                self._tell_early(top, outline, mask, small, image.shape)
                return
        still_part = ((np.abs(small - self._still_ref) > LEVEL) & ~moved).astype(np.uint8)
        still_part = cv2.morphologyEx(still_part, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        # One piece: a card laid over another differs from it only where their prints differ.
        still_part = cv2.morphologyEx(still_part, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(still_part)
        if n < 2:
            return
        k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        # A wider sensor over the same table sees more table at its sides, not a bigger card: the
        # share is of a 4:3 picture of the frame's height (at 1280x720 a card is 3/4 the share).
        wide = min(1.0, (4 / 3) * image.shape[0] / image.shape[1])
        if stats[k, cv2.CC_STAT_AREA] < EARLY_PART * wide * still_part.size:
            return
        part = labels == k
        ring = cv2.dilate(part.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool) & ~part
        # (A part filling the whole watched region has no edge in sight to move.)
        if ring.any() and float(moved[ring].mean()) > EDGE_MOVING:
            return   # its edge moves: a card sliding in, or a hand gathering the pile
        tried = self._tried
        if tried is not None and (part & tried).sum() >= 0.9 * max(part.sum(), tried.sum()):
            return   # the same still part (a hand resting on the pile) was read already
        self._tried = part
        # That part of the frame, with room round it for the rest of a card partly over another.
        x, y, w, h = stats[k, :4]
        grow = max(w, h) // 2
        sx, sy = image.shape[1] / SMALL[0], image.shape[0] / SMALL[1]
        x0, y0 = int(max(0, x - grow) * sx), int(max(0, y - grow) * sy)
        x1, y1 = int(min(SMALL[0], x + w + grow) * sx), int(min(SMALL[1], y + h + grow) * sy)
        self.early_reads += 1
        crop = image[y0:y1, x0:x1]
        # At full size, unlike the decision's whole frame: found on the part shrunk, more cards
        # waited for the whole pile to lie still (4 of 26 against 3 at 1280x720, when tried).
        quads = find_cards(crop)
        seen, top = read_by_outlines(crop, self.clf, None, quads)
        seen, top = taught_look(crop, seen, top, self.clf, quads)
        card = next((s for s in seen if s.card == top), None)
        hidden = self._hidden
        before = self._still_image
        if (card is None or top in self.top or top in hidden) and before is not None:
            # Laid over the last card, it merges with it into one bright shape: found by what
            # changed since the pile was last still, in the part that holds still (not the hand).
            within = cv2.resize(cv2.dilate(part.astype(np.uint8), np.ones((3, 3), np.uint8)),
                                (image.shape[1], image.shape[0]), interpolation=cv2.INTER_NEAREST)[y0:y1, x0:x1]
            changed = self._changed_card(before[y0:y1, x0:x1], crop, within, image.shape[0])
            if changed is not None:
                card, top = changed, changed.card
        named_by_index = False
        if (card is None or not card.sure) and self.detector is not None:
            by_index = self._new_card_by_indexes(image, (x0, y0, x1, y1), part, hidden)
            if by_index is not None:
                card, top, named_by_index = by_index, by_index.card, True
        if card is None or not card.sure or top in self.top or top in hidden:
            return   # nothing new named sure: the whole pile's stillness decides, as ever
        outline = card.outline + np.array([x0, y0], np.float32)
        mask = self._mask(outline, image.shape)
        if not named_by_index and float((np.abs(small[mask] - self._still_ref[mask]) > LEVEL).mean()) < CARD_CHANGED:
            # Mostly as it was: a card of the pile seen again, not one laid on it. (Indexes sure of
            # a card not on the pile name a new one, however square it lies over the last.)
            return
        for _, earlier, _ in self._history[-1 - self.card_settle:-1]:
            if float((np.abs(small[mask] - earlier[mask]) < 12).mean()) < 0.9:
                # The card itself still moving (sliding in, or a hand leaving over its index):
                # told once its area holds still from this frame, or read again if it does not.
                self._tried = None
                self._moving_card = (top, outline, mask, small)
                return
        self._tell_early(top, outline, mask, small, image.shape)

    def _tell_early(self, top: str, outline: np.ndarray, mask: np.ndarray, small: np.ndarray, shape) -> None:
        self._tried = None
        self._hidden = []
        self.top.append(top)
        self.sink.on_card(top, self._landing_time(self._history, outline, shape))
        # Told only now: until the sink has it in hand, a press must still wait for the card
        # (changing_since), as while a still pile is decided.
        self._early = (top, mask, small)

    def _new_card_by_indexes(self, image, box, part, hidden) -> SeenCard | None:
        """A part the outlines left unsure, asked of the corner indexes there and then, rather
        than of the whole frame 3 still frames after the hand has gone (a slap on the card waits
        for its name): a card they are sure of, not on the pile, lying in the still part. One
        look at the frame's usual scale: a closer one cost three times as long (52 ms a part
        against 16, one core), frames the reader then skipped on a Pi's budget."""
        det = default_detector() if self.detector is DEFAULT else self.detector
        x0, y0, x1, y1 = box
        crop = image[y0:y1, x0:x1]
        by_index, _ = cards_from_corners(crop, det.detect(crop, scale=det.scale_for(image)))
        for s in by_index:
            if not s.sure or s.card in self.top or s.card in hidden:
                continue
            # Most of the still part within its outline (laid square over the last card, the
            # part is where their prints differ, not always round the card's middle), or, seen
            # at one index only (its outline that index's box), most of that box in the part.
            inside = self._mask(s.outline + np.array([x0, y0], np.float32), image.shape)
            if (part & inside).sum() >= 0.5 * min(part.sum(), inside.sum()):
                return s
        return None

    def _decide(self, image: np.ndarray, t, history, first: bool) -> None:
        now = self._prev
        early, self._early, self._tried, self._moving_card = self._early, None, None, None
        if early is not None:
            card, mask, then = early
            if float((np.abs(now[mask] - then[mask]) < 12).mean()) >= 0.9:
                # The card told early lies as it was: the pile is that card, not read again (a
                # hand gone from elsewhere in the picture is no news).
                self._still_ref, self._still_image = now, image
                return
            if float((np.abs(now - self._still_ref) > LEVEL).mean()) < CHANGED and card in self.top:
                self.top.remove(card)   # taken back before the pile was still: the pile as it was
                return
        if not first and float((np.abs(now - self._still_ref) > LEVEL).mean()) < CHANGED:
            return  # the pile looks as it did: a hand passed over it, or a slap
        before_image, self._still_image = self._still_image, image
        self._still_ref = now
        seen, top = read_image(image, self.clf, None, quads=find_outlines(image))
        if before_image is not None and (top is None or top in (self._hidden or self.top)):
            # A card laid over the last one merges with it into one bright shape (read as a card
            # already on the pile): find it by what changed since the pile was last still.
            changed = self._changed_card(before_image, image)
            # Unsure, what changed is as likely a hand resting on the pile (a slap) as a card.
            if changed is not None and changed.sure:
                seen, top = [changed], changed.card
        if top is None:
            if not seen and self.top:
                # Picked up, or covered by a hand resting there: remember what was on top.
                self._hidden, self.top = self.top, []
                cleared = getattr(self.sink, "on_cleared", None)
                if cleared is not None:   # Jacks: the trick's cards gathered from the middle
                    cleared(history[-1][0] if history else t)
            return
        hidden, self._hidden = self._hidden, []
        card = next(s for s in seen if s.card == top)
        if not card.sure and self.detector is not None:
            # Asked before the reading is compared with the pile: an unsure misreading of the
            # card a hand lifted off would otherwise be taken for a new card.
            by_index, top_i = read_image(image, self.clf, self.detector)
            pile = hidden or self.top
            better = next((s for s in by_index if s.card == top_i and s.sure), None)
            if better is not None and pile and better.card == pile[-1] and not hidden:
                # The indexes put the old top card on top, its corner still showing beside the new
                # card's: a card they are sure of, not on the pile, lying where the outlines found
                # the new one, is that card.
                newer = next((s for s in by_index if s.sure and s.card not in pile and cv2.pointPolygonTest(
                    card.outline.astype(np.float32), tuple(map(float, s.outline.mean(axis=0))), False) >= 0), None)
                better = newer or better
            if better is None and top == (pile[-1] if pile else None):
                # The outlines see the old top card (the new one lies square over it), the indexes
                # a card not on the pile: that card is asked of the table rather than missed.
                better = next((s for s in by_index if s.card == top_i and s.card not in pile), None)
            if better is None:
                # Both unsure: ask with the reading that is surer of a card not on the pile (the
                # outlines can score a card a tenth where the indexes score another nine tenths).
                better = next((s for s in by_index if s.card == top_i and s.card not in pile
                               and s.score > card.score), None)
            if better is not None and (better.card not in pile or better.card == pile[-1]):
                card, top = replace(better, outline=card.outline), better.card
        if hidden and (top in hidden or not card.sure):
            # The hand lifted off the pile: the same pile, not a new card (a card lands after the
            # hand has gone, so an unsure reading here, or one of a card under the top, is of the
            # pile that was there; a deck holds each card once).
            self.top = hidden
            return
        if self.top and top == self.top[-1]:
            return  # squared, nudged
        if top in self.top[:-2]:
            # A card from deep in the pile on top: what lies over it is covered (a hand resting
            # on the pile after a slap, the lowest card's index showing past it). A deck holds
            # each card once, so it is not a new card.
            return
        if len(self.top) >= 2 and top == self.top[-2]:
            self.top.pop()  # the top card taken back
            return
        landed = t if t is not None else self._landing_time(history, card.outline, image.shape)
        self.top.append(top)
        if first:
            return  # a pile already there when watching began is not a new card
        if card.sure:
            self.sink.on_card(top, landed)
        else:
            self.sink.on_unsure(card.candidates or [top], landed)

    def _changed_card(self, before: np.ndarray, after: np.ndarray, within: np.ndarray | None = None,
                      frame_height: int | None = None):
        """The card where ``after`` differs from ``before`` (parts of a frame ``frame_height``
        tall, or whole frames), found at :func:`shrunk_size` and read at full size."""
        size = shrunk_size(after, frame_height)
        if size is None:
            quad = self._changed_quad(before, after, within)
        else:
            found = self._changed_quad(cv2.resize(before, size, interpolation=cv2.INTER_LINEAR),
                                       cv2.resize(after, size, interpolation=cv2.INTER_LINEAR),
                                       None if within is None else cv2.resize(within, size, interpolation=cv2.INTER_NEAREST))
            quad = None if found is None else _to_full(found, after, size)
        if quad is None:
            return None
        reading, agree = read_card(warp_card(after, quad), self.clf)
        if reading is None:
            return None
        return SeenCard(reading.card, reading.sure, reading.score, quad, reading.candidates, agree)

    @staticmethod
    def _changed_quad(before: np.ndarray, after: np.ndarray, within: np.ndarray | None) -> np.ndarray | None:
        diff = cv2.absdiff(cv2.GaussianBlur(before, (5, 5), 0), cv2.GaussianBlur(after, (5, 5), 0))
        # The most any channel changed: numpy's max over the last axis of a 1280x720 frame takes
        # 25 times as long as these two element-wise maxima (the same bytes).
        diff = np.maximum(np.maximum(diff[..., 0], diff[..., 1]), diff[..., 2])
        _, mask = cv2.threshold(diff, 30, 255, cv2.THRESH_BINARY)
        if within is not None:
            mask *= within
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((25, 25), np.uint8))
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            return None
        c = max(contours, key=cv2.contourArea)
        if cv2.contourArea(c) < 0.02 * mask.size:
            return None
        return order_quad(cv2.boxPoints(cv2.minAreaRect(cv2.convexHull(c))))

    @staticmethod
    def _mask(outline, shape) -> np.ndarray:
        """A card's area in the small frames (its edge left out)."""
        h, w = shape[:2]
        mask = np.zeros((SMALL[1], SMALL[0]), np.uint8)
        pts = (outline * np.array([SMALL[0] / w, SMALL[1] / h])).astype(np.int32)
        cv2.fillConvexPoly(mask, pts, 1)
        cv2.erode(mask, np.ones((3, 3), np.uint8), dst=mask)
        return mask.astype(bool)

    def _landing_time(self, history, outline, shape) -> float:
        """The first frame from which the card's area stayed as it is now (the earliest it could
        have been, where frames were skipped)."""
        sel = self._mask(outline, shape)
        final = history[-1][1]
        landed = history[-1][2]
        for _, small, earliest in reversed(history):
            # A finger still on the card's edge is allowed; the card itself elsewhere is not.
            if float((np.abs(small[sel] - final[sel]) < 12).mean()) < 0.9:
                break
            landed = earliest
        return landed

    # A thread for the app: frames from the camera until stop().
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="pile-watcher", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        # The corner models are loaded before the first frame, not when the first card left
        # unsure asks them (half a second on a desktop, more on a Pi, with a slap waiting).
        if self.detector is DEFAULT:
            default_detector()
        while not self._stop.is_set():
            frame = self.camera.read()
            if frame is None:
                self.status = getattr(self.camera, "status_text", None) or "no frame"
                if getattr(self.camera, "ended", False):
                    return
                self._stop.wait(0.2)
                continue
            self.status = "watching"
            self.feed(frame)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
