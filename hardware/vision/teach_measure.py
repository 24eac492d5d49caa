"""Teach your deck, measured: a deck drawn in a design no model here was trained on (a script
face, maroon and navy inks, a large index on cream paper) is read before and after the table
teaches it, beside the public drawn decks read on the same kind of photos (docs/vision.md,
"Teach your deck"). Used by the vision bench and by tests/vision/test_taught_deck.py.
"""

from __future__ import annotations

import tempfile

import cv2
import numpy as np

from companion.cards import full_deck
from hardware.vision.render import random_scene

# No reader's training saw this face (render.FONTS are the drawn decks') or these inks.
UNSEEN_DESIGN = {"font": cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, "thickness": 2, "rank_h": 0.11, "suit_h": 0.07,
                 "index_x": 0.13, "index_top": 0.035, "paper": (232, 240, 246),
                 "red": (50, 20, 120), "black": (90, 40, 20)}
DECK = [str(c) for c in full_deck()]


def teach(folder, style: dict, seed: int = 99, tries: int = 4) -> list[str]:
    """Teach ``folder`` every card of ``style`` from camera-like photos of one card each, as the
    teach screen does (hardware/vision/teach.py); a card refused is shown again, as a family
    would, up to ``tries`` times. Returns the cards never kept."""
    from hardware.vision.teach import Lesson, TeachError

    lesson, rng, left = Lesson(folder), np.random.default_rng(seed), []
    while (code := lesson.next_card()) is not None and code not in left:
        for _ in range(tries):
            image, _ = random_scene(rng, [code], style=style)
            try:
                lesson.keep(image, trust=True)
                break
            except TeachError:
                continue
        else:
            left.append(code)
            lesson.skip()
    return left


def read_deck(clf, style: dict | None, seed: int = 5, per_photo: int = 1) -> dict:
    """Each of the 52 cards on top of a photo of ``per_photo`` cards (``style`` None: a random
    public drawn design a photo): how many of the photos' cards are named sure, the top right,
    and sure names of cards not in the photo."""
    from hardware.vision.recognise import read_image

    cards = sure_right = top_right = wrong = 0
    for code, codes, image in photos(style, seed, per_photo):
        seen, top = read_image(image, clf)
        sure = {s.card for s in seen if s.sure}
        cards += len(codes)
        sure_right += len(sure & set(codes))
        top_right += top == code
        wrong += len(sure - set(codes))
    return {"photos": len(DECK), "cards": cards, "named_sure": sure_right, "top_right": top_right,
            "sure_not_in_photo": wrong}


_LAST_PHOTOS: dict = {}


def photos(style: dict | None, seed: int, per_photo: int) -> list:
    """(top card, the photo's cards, image) for each card of the deck: the same photos for the same
    arguments, so the last set drawn is kept for the next reader (untaught, then taught)."""
    key = (repr(style), seed, per_photo)
    if key not in _LAST_PHOTOS:
        rng = np.random.default_rng(seed)
        out = []
        for i, code in enumerate(DECK):
            codes = [DECK[(i + 17 * k) % 52] for k in range(per_photo - 1, -1, -1)]  # ``code`` last: on top
            out.append((code, codes, random_scene(rng, codes, style=style)[0]))
        _LAST_PHOTOS.clear()
        _LAST_PHOTOS[key] = out
    return _LAST_PHOTOS[key]


def measure(per_photo=(1, 3)) -> dict:
    """The public drawn decks, the unseen design untaught, and taught: for photos of one card
    and of piles of three."""
    from hardware.vision.feed import classifier_for
    from hardware.vision.learned import default_classifier

    base = default_classifier()
    with tempfile.TemporaryDirectory() as folder:
        never = teach(folder, UNSEEN_DESIGN)
        taught = classifier_for(folder)
        out: dict = {"never_kept": never}
        for n in per_photo:
            out[f"{n}_per_photo"] = {"public_drawn": read_deck(base, None, per_photo=n),
                                     "unseen_untaught": read_deck(base, UNSEEN_DESIGN, per_photo=n),
                                     "unseen_taught": read_deck(taught, UNSEEN_DESIGN, per_photo=n)}
    return out
