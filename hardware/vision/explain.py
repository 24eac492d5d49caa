"""Why a card was named, or missed: a photo drawn over with what each reader saw
(``jack-companion vision --explain IMAGE OUT.png``).

Drawn on the photo: every card outline the edge search found (blue), every corner index the
detector found with its likeliest card and probability (yellow; red when the readers said it is
no index, or a joker), and each card named at the end, sure (green) or unsure (orange, with a
question mark). A strip under the photo says what each colour is and lists the names. A dim
photo is drawn brightened, as it was read.
"""

from __future__ import annotations

import cv2
import numpy as np

from hardware.vision.detect import find_cards
from hardware.vision.indexes import JOKER_P

BLUE, YELLOW, RED, GREEN, ORANGE, WHITE = (230, 140, 40), (0, 220, 255), (40, 40, 230), (60, 200, 60), (0, 140, 255), (255, 255, 255)
MIN_SIDE = 720  # a small photo is enlarged for drawing, so the labels stay readable


def _label(img: np.ndarray, text: str, at, colour, scale: float) -> None:
    x, y = int(at[0]), int(at[1])
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    x = min(max(0, x), img.shape[1] - tw - 2)
    y = min(max(th + 2, y), img.shape[0] - base - 2)
    cv2.rectangle(img, (x - 1, y - th - 2), (x + tw + 1, y + base), (0, 0, 0), -1)
    cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 2, cv2.LINE_AA)


def _poly(img, pts, colour, k, width) -> None:
    cv2.polylines(img, [np.round(np.asarray(pts, np.float32) * k).astype(np.int32).reshape(-1, 1, 2)],
                  True, colour, width, cv2.LINE_AA)


def explain(image: np.ndarray, seen, top, corners=None, named_corners=None) -> np.ndarray:
    """The picture: ``image`` with the outlines the edge search finds, the ``corners`` the
    detector found (``named_corners``: those the readers kept, named), and the cards ``seen``."""
    k = max(1.0, MIN_SIDE / min(image.shape[:2]))
    out = cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_LINEAR) if k > 1 else image.copy()
    scale = 0.45 * max(1.0, out.shape[1] / 900)
    for quad in find_cards(image):
        _poly(out, quad, BLUE, k, 1)
    kept = {id(c) for c in named_corners or []}
    for c in corners or []:
        box = [[c.x - c.w / 2, c.y - c.h / 2], [c.x + c.w / 2, c.y - c.h / 2],
               [c.x + c.w / 2, c.y + c.h / 2], [c.x - c.w / 2, c.y + c.h / 2]]
        if id(c) in kept and c.joker < JOKER_P:
            card, p = c.best(1)[0]
            _poly(out, box, YELLOW, k, 2)
            _label(out, f"{card} {p:.2f}", ((c.x + c.w / 2) * k + 2, (c.y - c.h / 2) * k + 10), YELLOW, scale * 0.8)
        else:
            _poly(out, box, RED, k, 1)
    for s in seen:
        colour = GREEN if s.sure else ORANGE
        _poly(out, s.outline, colour, k, 3)
        (x0, y0) = np.asarray(s.outline, np.float32).min(0) * k
        text = f"{s.card}{'' if s.sure else '?'} {s.score:.2f}" + (" top" if s.card == top else "")
        _label(out, text, (x0 + 4, y0 + 22 * scale / 0.45), colour, scale)
    return np.vstack([out, _legend(out.shape[1], seen, top, scale)])


def said(seen) -> str:
    """The cards named, as people read them: "7H, QS?" (a question mark for unsure), or "no card"."""
    return ", ".join(f"{s.card}{'' if s.sure else '?'}" for s in seen) or "no card"


def _legend(width: int, seen, top, scale: float) -> np.ndarray:
    lines = [("sure", GREEN), ("unsure ?", ORANGE), ("index found, named", YELLOW),
             ("no index / joker", RED), ("card edge found", BLUE)]
    row = int(30 * scale / 0.45)
    strip = np.zeros((row * 2 + 8, width, 3), np.uint8)
    x = 6
    for text, colour in lines:
        cv2.putText(strip, text, (x, row - 8), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)
        x += cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)[0][0] + 18
    cv2.putText(strip, f"top {top or '-'}; seen {said(seen)}"[:200], (6, 2 * row - 4), cv2.FONT_HERSHEY_SIMPLEX,
                scale, WHITE, 1, cv2.LINE_AA)
    return strip
