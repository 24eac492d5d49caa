"""Every card in a photo, and the one on top: :func:`read_image`.

With the trained corner detector (:mod:`hardware.vision.corners`) every visible corner index
is found and named, overlapping cards or not; a card is fully visible when both its indexes
show, and the card on top is a fully visible one (:func:`cards_from_corners`). Without the
model, or when it finds no index at all (an unusual deck the table taught), each outline from
:mod:`hardware.vision.detect` is straightened and both corner indexes are read by the glyph
classifier (:func:`read_by_outlines`): two readings that agree make a card fully visible.
"""

from __future__ import annotations

import time
from dataclasses import replace
import cv2
import numpy as np

from hardware.vision.card_corners import SURE_EDGE, default_card_reader
from hardware.vision.classify import GlyphClassifier, Reading
from hardware.vision.detect import find_cards, warp_card
from hardware.vision.glyphs import cut_index
from hardware.vision.corners import default_detector
from hardware.vision.indexes import JOKER_P, Outlines, SeenCard, cards_from_corners
from hardware.vision.learned import default_classifier

DEFAULT = object()  # read_image's detector: the shipped one
CLOSER = 2.0  # how much closer the second look is (docs/vision.md: the crops' indexes)
CLOSER_UP_TO = 400  # ... for pictures no longer than this: it then costs at most one usual look
CLOSER_CARDS = 2.5  # the closer look at cards no sure index was found on (docs/vision.md, "Small cards")
SMALL_INDEX = 40  # ... where the indexes found are smaller than this as the detector sees them
CLOSER_MAX = 1280  # ... at most this many pixels a side as the detector sees it
WITNESSED = 0.8  # the card-corner model's name is sure from this when another reader names it too
# A photo left with a card unsure is looked at again turned by this many degrees: the detector
# and the readers miss or doubt indexes lying diagonally, and the turned photo, larger, is also
# seen at other scales, which gives most of what it finds (docs/vision.md, "A turned look").
TURNED = 45.0
# A dim photo (a room lit low, a phone exposing for a pale table) is brightened before it is
# read: the detector learned cards lit well and finds no index in it. Its brightest part
# (``BRIGHT_AT`` percentile of grey) is lifted to a card's white, ``WHITE``, when that gains at
# least ``DIM`` times, and at most ``MOST`` (docs/vision.md, "Other decks on other tables";
# chosen on the tables/ training split). A photo with nothing brighter than the rest (its
# darkest 5% within ``CONTRAST`` grey levels of its brightest 1%: an empty dark table) is left
# as it is: lifted, the whole frame would look like one white card.
WHITE, BRIGHT_AT, DIM, MOST = 235, 99, 1.15, 3.0
DARK_AT, CONTRAST = 5, 32


def read_card(card: np.ndarray, clf: GlyphClassifier) -> tuple[Reading | None, bool]:
    """A straightened card's reading from its two corners; (reading, both corners agree)."""
    readings = []
    for img in (card, cv2.rotate(card, cv2.ROTATE_180)):
        idx = cut_index(img)
        if idx is not None:
            r = clf.read(idx)
            if r.card is not None:
                readings.append(r)
    if not readings:
        return None, False
    readings.sort(key=lambda r: -r.score)
    best = readings[0]
    agree = len(readings) == 2 and readings[0].card == readings[1].card
    if len(readings) == 2 and not agree and (readings[1].sure or readings[1].card in readings[0].candidates[1:]):
        best = Reading(best.card, False, best.score * 0.5, best.candidates)
    # A classifier may ask more of a name its card's other corner cannot confirm.
    lone = getattr(clf, "lone_sure", None)
    if lone is not None and len(readings) == 1 and best.sure and best.score < lone:
        best = Reading(best.card, False, best.score, best.candidates)
    return best, agree


def read_outlined(card: np.ndarray, clf: GlyphClassifier, indexes: Reading | None = None,
                  reader=DEFAULT, edge: bool = False) -> Reading | None:
    """A straightened card left unsure (``indexes``: the corner indexes' reading, or its
    outline's glyphs') or not named, named by the card-corner model
    (:mod:`hardware.vision.card_corners`) with the indexes and the glyph classifier as witnesses
    (docs/vision.md, "Reading an outlined card")."""
    glyphs, _ = read_card(card, clf)
    return weigh(card, glyphs, indexes, reader, edge)


def _card_reader(reader):
    """The card-corner model asked for: DEFAULT the shipped one (None without it), None none."""
    return default_card_reader() if reader is DEFAULT else reader


def weigh(card: np.ndarray, glyphs: Reading | None, indexes: Reading | None, reader=DEFAULT,
          edge: bool = False) -> Reading | None:
    """The card-corner model's reading of ``card`` weighed with the glyphs' and the indexes'.

    A joker the model sees names nothing. The model's name is taken when it gives one: sure on
    its own at its ``SURE``, or from ``WITNESSED`` when the indexes or a sure glyph reading name
    the same card; a sure glyph reading of another card (a deck the table taught is read by its
    glyphs) leaves it unsure, the glyphs' card its second guess. When it names nothing, the
    glyphs' reading is taken when it is sure or the indexes named nothing, else the indexes'.
    ``edge``: the card was straightened by its own edge found in the photo, sure on its own
    from ``card_corners.SURE_EDGE``."""
    model = _card_reader(reader)
    named, joker = model.read(card) if model is not None else (None, False)
    if joker:
        return None
    if named is not None and edge and named.score >= SURE_EDGE:
        named = replace(named, sure=True)
    if named is None:
        return glyphs if indexes is None or (glyphs is not None and glyphs.sure) else indexes
    if glyphs is not None and glyphs.sure and glyphs.card != named.card:
        # Two readers sure of different cards (a deck the table taught reads by its glyphs): ask.
        return replace(named, sure=False, candidates=[named.card, glyphs.card] + [
            c for c in named.candidates[1:] if c != glyphs.card][:2])
    witnessed = (indexes is not None and indexes.card == named.card) or (
        glyphs is not None and glyphs.sure and glyphs.card == named.card)
    return replace(named, sure=named.sure or (witnessed and named.score >= WITNESSED))


def joker_seen(corners) -> bool:
    return any(c.joker >= JOKER_P for c in corners)


def index_cards(image: np.ndarray, det, outlines: Outlines | None = None) -> tuple[list[SeenCard], str | None, list]:
    """(the cards the corner indexes name, the card on top, the corners found). A small picture
    (a photo of one card) is shrunk with the rest at the usual scale, and its indexes are often
    missed: when they name nothing and show no joker, it is looked at again, closer. A joker seen
    closer names nothing here (its picture, enlarged, is easily taken for indexes); read_image
    then leaves the picture to the card-corner model (:func:`_as_one_card`)."""
    corners = det.detect(image)
    seen, top = cards_from_corners(image, corners, outlines)
    if not seen and max(image.shape[:2]) <= CLOSER_UP_TO and not joker_seen(corners):
        corners = det.detect(image, scale=CLOSER * det.scale_for(image))
        if joker_seen(corners):
            return [], None, corners
        seen, top = cards_from_corners(image, corners, outlines)
    if outlines is not None and max(image.shape[:2]) > CLOSER_UP_TO:  # a small picture was looked at closer
        closer = closer_look(image, det, corners, seen, outlines)
        if closer is not corners:
            corners = closer
            seen, top = cards_from_corners(image, corners, outlines)
    return seen, top, corners


def _holds(quad: np.ndarray, card: SeenCard) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2), _centre(card.outline), False) >= 0


def closer_look(image: np.ndarray, det, corners: list, seen: list[SeenCard], outlines: Outlines) -> list:
    """The corners with those of a closer look at the whole photo (``CLOSER_CARDS`` times the
    usual scale) when the indexes found are small and a card is left unsure or an outline holds
    no sure card, or nothing was named: indexes about 15 pixels tall (a webcam at 640x480, a
    phone photo from standing height) are missed at the usual scale. An index found at both
    looks is kept as the surer reading; ``corners`` itself when the indexes found are large
    (``SMALL_INDEX``: the scenes' cards are never looked at again). A photo in which nothing at
    all was found is looked at again too: a lone card 100 pixels wide on a busy table shows
    neither an index nor an outline at the usual scale (the pile watcher asks the indexes only
    about a card its outlines found). A card left unsure asks for it even when no outline was
    found: on a pale table there is none (chosen on the tables/ training photos:
    docs/vision.md). Small indexes of cards all sure, each in its outline, are not looked at
    again: looking at every photo with small indexes found a few more cards on real tables but
    cost half as much again on a drawn 720-pixel photo. (Looking only at the outlines left unread
    found fewer.)"""
    if seen and (np.median([max(c.w, c.h) for c in corners]) * det.scale_for(image) >= SMALL_INDEX
                 or all_read(seen, outlines)):
        return corners  # indexes as large as the detector learned them, or every card read
    h, w = image.shape[:2]
    scale = min(CLOSER_CARDS * det.scale_for(image), CLOSER_MAX / max(h, w))
    if scale <= 1.2 * det.scale_for(image):
        return corners  # no closer than the first look
    found = det.detect(image, scale=scale)
    kept = list(corners)
    for c in found:
        twin = next((k for k, o in enumerate(kept)
                     if np.hypot(c.x - o.x, c.y - o.y) <= 0.5 * max(c.w, c.h, o.w, o.h)), None)
        if twin is None:
            kept.append(c)
        elif c.best(1)[0][1] > kept[twin].best(1)[0][1]:
            kept[twin] = c
    kept.sort(key=lambda c: -c.heat)
    return kept


def all_read(seen: list[SeenCard], outlines: Outlines) -> bool:
    """Every card named is sure and every outline found holds one: nothing left to look for."""
    return all(s.sure for s in seen) and settled(seen, outlines)


def settled(seen: list[SeenCard], outlines: Outlines) -> bool:
    """Something is named, every outline found holds a sure card, and every card left unsure
    lies in such an outline: a card half under one the indexes are sure of (a pile), not a
    card lying on its own that they doubt."""
    held = [q for q in outlines.all() if any(s.sure and _holds(q, s) for s in seen)]
    return bool(seen) and len(held) == len(outlines.all()) and all(
        s.sure or any(_holds(q, s) for q in held) for s in seen)


def turned(image: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """(``image`` turned by ``degrees`` on a canvas large enough to lose none of it, the 2x3
    matrix taking the turned picture's points back to ``image``'s)."""
    h, w = image.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    cos, sin = abs(m[0, 0]), abs(m[0, 1])
    tw, th = int(round(h * sin + w * cos)), int(round(h * cos + w * sin))
    m[:, 2] += (tw - w) / 2, (th - h) / 2
    return cv2.warpAffine(image, m, (tw, th), borderMode=cv2.BORDER_REPLICATE), cv2.invertAffineTransform(m)


def turned_look(image: np.ndarray, det, seen: list[SeenCard], top: str | None, outlines: Outlines,
                jokers=()) -> tuple[list[SeenCard], str | None]:
    """The cards named, with those whose indexes are sure in the photo turned by ``TURNED``
    degrees, unless the photo is :func:`settled` (docs/vision.md, "A turned look"). The detector
    and the readers learned indexes lying about square to the photo and miss or doubt one lying
    diagonally, which the turn sets upright. Only a name the turned indexes are sure of on their
    own is taken (the card-corner model reads the same corner: no second witness of it). It
    makes an unsure name of the same card sure, or names a card where nothing was named; a name
    already given in its place is never changed, and nothing is named where a joker's corner
    shows (``jokers``: their middles). A small picture is one card filling it (turned, it would
    lie diagonally), read by :func:`_as_one_card` instead."""
    if settled(seen, outlines) or max(image.shape[:2]) <= CLOSER_UP_TO:
        return seen, top  # all read, or a picture of one card: read as one card filling it
    view, back = turned(image, TURNED)
    found, _, _ = index_cards(view, det, Outlines(view))
    seen = list(seen)
    for t in found:
        if not t.sure:
            continue
        quad = cv2.transform(t.outline.reshape(-1, 1, 2), back).reshape(-1, 2).astype(np.float32)
        poly = quad.reshape(-1, 1, 2)
        if any(cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0 for x, y in jokers):
            continue
        t = replace(t, outline=quad)
        known = next((s for s in seen if s.card == t.card), None)
        if known is not None:
            if not known.sure:
                # The turned indexes place the card better when they saw both its corners.
                seen[seen.index(known)] = t if t.both_corners and not known.outlined else replace(
                    known, sure=True, score=max(known.score, t.score))
            continue
        if any(cv2.pointPolygonTest(poly, _centre(s.outline), False) >= 0 for s in seen):
            continue  # another card named here: the straight look's name stands
        seen.append(t)
        top = top or t.card
    return seen, top


def brightened(image: np.ndarray) -> np.ndarray:
    """``image`` lifted so its brightest part is a card's white when it is dim; else itself."""
    grey = image[::4, ::4]  # a sixteenth of the pixels is enough for a percentile
    grey = cv2.cvtColor(grey, cv2.COLOR_BGR2GRAY) if grey.ndim == 3 else grey
    hist = np.cumsum(cv2.calcHist([np.ascontiguousarray(grey)], [0], None, [256], [0, 256]).ravel())
    bright = int(np.searchsorted(hist, BRIGHT_AT / 100 * hist[-1]))
    dark = int(np.searchsorted(hist, DARK_AT / 100 * hist[-1]))
    gain = WHITE / max(1, bright)
    if gain < DIM or bright - dark < CONTRAST:
        return image
    return cv2.convertScaleAbs(image, alpha=min(gain, MOST))


def read_image(image: np.ndarray, clf: GlyphClassifier | None = None, detector=DEFAULT,
               card_reader=DEFAULT, quads=None) -> tuple[list[SeenCard], str | None]:
    """(every card named, the card on top or None). ``detector=None`` reads by outlines only:
    ``quads`` if given (the pile watcher finds them on a smaller frame), else found here;
    ``card_reader`` is the card-corner model (DEFAULT: the shipped one; None: none)."""
    det = default_detector() if detector is DEFAULT else detector
    if det is not None:
        image = brightened(image)
        outlines = Outlines(image)
        outlines.all()  # every outline is read below: found once, not again round each card
        seen, top, corners = index_cards(image, det, outlines)
        # Nothing named and no joker seen: a design the indexes do not know, read by outline.
        if seen or joker_seen(corners):
            looked: list[SeenCard] = []
            for s in seen:  # in order: the card on top first
                s = _second_look(image, s, clf, card_reader)
                if all(o.card != s.card for o in looked):
                    looked.append(s)
            top = looked[0].card if top is not None and looked else None
            jokers = [(c.x, c.y) for c in corners if c.joker >= JOKER_P]
            looked, top = merge_outlines(image, looked, top, outlines, clf, card_reader, jokers)
            looked, top = turned_look(image, det, looked, top, outlines, jokers)
            placed = [s.outline for s in looked if s.both_corners and not s.outlined]
            looked, top = taught_look(image, looked, top, clf, outlines.all(), placed)
            return _as_one_card(image, looked, top, clf, card_reader, joker=not looked)
    # With the detector, nothing named means a design the indexes do not know: the card-corner
    # model reads each outline too. Without it (the pile watcher's first look), glyphs alone.
    if quads is None or det is not None:
        quads = find_cards(image)
    seen, top = read_by_outlines(image, clf or default_classifier(), card_reader if det is not None else None, quads)
    seen, top = taught_look(image, seen, top, clf, quads)
    return _as_one_card(image, seen, top, clf, card_reader)


def taught_look(image: np.ndarray, seen: list[SeenCard], top: str | None, clf,
                quads: list[np.ndarray], placed=()) -> tuple[list[SeenCard], str | None]:
    """With a deck the table taught (``clf.taught``, :mod:`hardware.vision.taught`), each card
    outline is read by that deck's own glyphs too, and their sure name is the last word on the
    card in that place: the family's deck matched against itself outweighs readers trained on
    others (docs/vision.md, "Teach your deck"). ``placed``: the outlines of cards placed from
    their two indexes, read after the found ones. The biggest found outline they are sure of
    lies on top (a placed one only when none was found). Without a taught deck, ``seen``."""
    taught = getattr(clf, "taught", None)
    if taught is None:
        return seen, top
    seen, own, whole = list(seen), [], []
    for found, quad in [(True, q) for q in quads] + [(False, q) for q in placed]:
        reading = taught.read(warp_card(image, quad))
        if reading is None or not reading.sure or reading.card in own:
            continue
        here = [s for s in seen if s.card not in own and _same_place(quad, s.outline)]
        # The card in this place is the taught reading's; an unsure sighting of it elsewhere
        # was this card, placed from a stray index.
        seen = [s for s in seen if s not in here and (s.sure or s.card != reading.card)]
        seen.append(SeenCard(reading.card, True, reading.score, np.asarray(quad, np.float32),
                             reading.candidates, True, outlined=True))
        own.append(reading.card)
        whole.append((found, abs(cv2.contourArea(np.asarray(quad, np.float32))), reading.card))
    if whole:
        top = max(whole)[2]
    seen.sort(key=lambda s: s.card != top)
    return seen, top if seen else None


def _same_place(quad: np.ndarray, outline: np.ndarray) -> bool:
    """Two outlines of one card: their middles within a quarter of the card's size."""
    size = np.sqrt(abs(cv2.contourArea(np.asarray(quad, np.float32))))
    (ax, ay), (bx, by) = _centre(quad), _centre(outline)
    return bool(np.hypot(ax - bx, ay - by) <= 0.25 * size)


def _centre(outline: np.ndarray) -> tuple[float, float]:
    x, y = np.asarray(outline, dtype=np.float32).mean(axis=0)
    return float(x), float(y)


def merge_outlines(image: np.ndarray, seen: list[SeenCard], top: str | None, outlines: Outlines,
                   clf: GlyphClassifier | None, card_reader=DEFAULT, jokers=()) -> tuple[list[SeenCard], str | None]:
    """The cards the indexes named, with every card outline in the photo read too
    (docs/vision.md, "Every card in the photo"): an outline no sure card lies in is
    straightened and read (:func:`weigh`). A card the indexes missed is listed; one they named
    unsure is made sure by a sure reading of the same card, or taken over by a sure reading of
    another in its place. A sure name of the indexes is never changed or dropped, and an outline
    holding a joker's corner (``jokers``: their middles) is that joker, never named."""
    model = _card_reader(card_reader)
    seen = list(seen)
    for quad in outlines.all():
        poly = quad.reshape(-1, 1, 2)
        inside = [s for s in seen if cv2.pointPolygonTest(poly, _centre(s.outline), False) >= 0]
        if any(s.sure for s in inside):
            continue  # a card the indexes are sure of: this is its edge
        if any(cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0 for x, y in jokers):
            continue
        card = warp_card(image, quad)
        glyphs, agree = read_card(card, clf or default_classifier())
        reading = weigh(card, glyphs, None, model, edge=True)
        if reading is None:
            continue
        known = next((s for s in seen if s.card == reading.card), None)
        if known is not None:
            if reading.sure and not known.sure:
                seen[seen.index(known)] = replace(known, sure=True, score=max(known.score, reading.score),
                                                  outline=quad, outlined=True, both_corners=True)
            continue
        if inside and not reading.sure:
            continue  # the indexes' unsure name of this card stands
        new = SeenCard(reading.card, reading.sure, reading.score, quad, reading.candidates, True, outlined=True)
        seen = [s for s in seen if s not in inside] + [new]
        if top in (s.card for s in inside):
            top = new.card
    named = next((s for s in seen if s.card == top), None)
    if named is None or not (named.sure and named.both_corners):
        # The card on top lies whole: a card read sure by its whole outline, the biggest.
        whole = [s for s in seen if s.sure and s.both_corners]
        if whole:
            top = max(whole, key=lambda s: abs(cv2.contourArea(np.asarray(s.outline, np.float32)))).card
    seen.sort(key=lambda s: s.card != top)
    return seen, top if seen else None


def whole_picture(image: np.ndarray) -> np.ndarray:
    """The outline of a picture that is one card filling it."""
    h, w = image.shape[:2]
    return np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)


def _as_one_card(image: np.ndarray, seen: list[SeenCard], top: str | None, clf: GlyphClassifier | None,
                 card_reader, joker: bool = False) -> tuple[list[SeenCard], str | None]:
    """A small picture (no longer than ``CLOSER_UP_TO``: a photo of one card, not a camera's
    frame) whose top card is left unsure, or not named: taken as one card filling the picture,
    its edge the picture's (an edge found inside it is as likely a frame printed on the card), and
    read straightened (:func:`read_outlined`). Where the indexes saw only a joker (``joker``),
    the card-corner model, which knows jokers, has the last word; without it nothing is named."""
    named = next((s for s in seen if s.card == top), None)
    if max(image.shape[:2]) > CLOSER_UP_TO or (named is not None and named.sure):
        return seen, top
    model = _card_reader(card_reader)
    if joker and model is None:
        return [], None
    quad = whole_picture(image)
    indexes = Reading(named.card, False, named.score, named.candidates) if named is not None else None
    reading = read_outlined(warp_card(image, quad), clf or default_classifier(), indexes, model)
    if reading is None:  # a joker, or nothing any reader names
        return [], None
    whole = SeenCard(reading.card, reading.sure, reading.score, quad, reading.candidates, outlined=True)
    return [whole] + [s for s in seen if s.card not in (top, reading.card)], whole.card


def _second_look(image: np.ndarray, card: SeenCard, clf: GlyphClassifier | None, card_reader=DEFAULT) -> SeenCard:
    """A card the indexes name unsure, whose own edge was found: read again straightened
    (:func:`read_outlined`: the card-corner model, the glyph classifier, which knows the drawn
    designs and any deck the table taught). Its name is taken, sure or not."""
    if card.sure or not card.outlined:
        return card
    reading = read_outlined(warp_card(image, card.outline), clf or default_classifier(),
                            Reading(card.card, False, card.score, card.candidates), card_reader, edge=True)
    if reading is None:
        return card
    if reading.card == card.card:
        return replace(card, sure=reading.sure, score=max(card.score, reading.score))
    return replace(card, card=reading.card, score=reading.score, sure=reading.sure,
                   candidates=[reading.card] + [c for c in card.candidates if c != reading.card][:3])


def read_by_outlines(image: np.ndarray, clf: GlyphClassifier, card_reader=None,
                     quads=None) -> tuple[list[SeenCard], str | None]:
    """Each card outline (``quads``, else found here) straightened and its corners read by
    ``clf``, and by the card-corner model when given (:func:`weigh`)."""
    seen: list[SeenCard] = []
    for quad in find_cards(image) if quads is None else quads:
        card = warp_card(image, quad)
        reading, agree = read_card(card, clf)
        if card_reader is not None:
            reading = weigh(card, reading, None, card_reader, edge=True)
        if reading is None or any(s.card == reading.card for s in seen):
            continue
        seen.append(SeenCard(reading.card, reading.sure, reading.score, quad, reading.candidates, agree))
    top = None
    whole = [s for s in seen if s.both_corners] or seen
    if whole:
        top = max(whole, key=lambda s: abs(cv2.contourArea(s.outline.astype(np.float32)))).card
    return seen, top


def load_image(path: str) -> np.ndarray:
    """The picture at ``path`` (BGR); raises ValueError with the reason it cannot be read."""
    import os

    if not os.path.isfile(path):
        raise ValueError("no such file")
    # Our message, not OpenCV's: its decoders log their own errors (a truncated file) to stderr.
    log = cv2.utils.logging
    level = log.getLogLevel()
    log.setLogLevel(log.LOG_LEVEL_SILENT)
    try:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    finally:
        log.setLogLevel(level)
    if image is None:
        raise ValueError("not an image OpenCV can read (missing, empty or not a picture)")
    return image


def read_file(path: str, clf: GlyphClassifier | None = None) -> dict:
    """The JSON line of ``jack-companion vision`` for one image; raises ValueError if unreadable."""
    image = load_image(path)
    clf = clf or default_classifier()
    t0 = time.perf_counter()
    seen, top = read_image(image, clf)
    ms = (time.perf_counter() - t0) * 1000
    return {"image": str(path), "cards": [s.as_json() for s in seen], "top": top, "ms": round(ms, 1)}
