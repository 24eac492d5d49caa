"""Ordinary-looking playing cards drawn with OpenCV, for tests and for the corner classifier.

No photographs: every card is drawn here from shapes and OpenCV's own Hershey fonts, so a
fresh clone can make as many as it needs. A card is ``CARD_W`` x ``CARD_H`` pixels (the
2.5 x 3.5 inch shape), white with a thin border, its index (rank over suit) in the top-left
corner and, turned half a turn, in the bottom-right, pips or a face panel in the middle.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from hardware.vision.geometry import CARD_H, CARD_W, card_quad  # noqa: F401  (card_quad: the drawn scenes' callers)

RED = (40, 30, 200)      # BGR
BLACK = (25, 25, 25)
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN)
# Index box on the drawn card, as fractions of its width and height (where decks put it).
INDEX_BOX = (0.02, 0.02, 0.20, 0.30)


def suit_colour(suit: str, style: dict | None = None):
    """The suit's ink; a style may have its own ("red", "black": a maroon or a navy deck)."""
    style = style or {}
    return style.get("red", RED) if suit in ("H", "D") else style.get("black", BLACK)


def draw_suit(img: np.ndarray, suit: str, cx: float, cy: float, size: float, colour, flip: bool = False) -> None:
    """A suit symbol of height ``size`` centred at (cx, cy); ``flip`` turns it upside down."""
    s = size / 2.0
    sgn = -1 if flip else 1

    def pt(dx: float, dy: float):
        return (int(round(cx + dx * s * sgn)), int(round(cy + dy * s * sgn)))

    if suit == "D":
        pts = np.array([pt(0, -1), pt(0.72, 0), pt(0, 1), pt(-0.72, 0)], np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    elif suit == "H":
        r = int(round(0.48 * s))
        cv2.circle(img, pt(-0.45, -0.42), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, pt(0.45, -0.42), r, colour, -1, cv2.LINE_AA)
        pts = np.array([pt(-0.92, -0.25), pt(0.92, -0.25), pt(0, 0.95)], np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    elif suit == "S":
        r = int(round(0.44 * s))
        cv2.circle(img, pt(-0.42, 0.18), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, pt(0.42, 0.18), r, colour, -1, cv2.LINE_AA)
        pts = np.array([pt(-0.86, 0.05), pt(0.86, 0.05), pt(0, -1.0)], np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
        stem = np.array([pt(0, 0.3), pt(0.35, 1.0), pt(-0.35, 1.0)], np.int32)
        cv2.fillPoly(img, [stem], colour, cv2.LINE_AA)
    elif suit == "C":
        r = int(round(0.36 * s))
        cv2.circle(img, pt(0, -0.5), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, pt(-0.5, 0.12), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, pt(0.5, 0.12), r, colour, -1, cv2.LINE_AA)
        stem = np.array([pt(0, -0.1), pt(0.32, 1.0), pt(-0.32, 1.0)], np.int32)
        cv2.fillPoly(img, [stem], colour, cv2.LINE_AA)
    else:
        raise ValueError(f"{suit!r} is not a suit")


def draw_rank(img: np.ndarray, rank: str, cx: float, top: float, height: float, colour,
              font: int = cv2.FONT_HERSHEY_SIMPLEX, thickness: int = 2, narrow: float = 1.0) -> tuple[int, int]:
    """The rank text centred on ``cx`` with its top at ``top``; returns (bottom y, width)."""
    (w, h), _ = cv2.getTextSize(rank, font, 1.0, thickness)
    scale = height / max(h, 1)
    th = max(1, int(round(thickness * scale)))
    (w, h), _ = cv2.getTextSize(rank, font, scale, th)
    # Draw on a scratch canvas so a narrow (condensed) face can be squeezed sideways.
    canvas = np.zeros((h + 2 * th + 4, w + 2 * th + 4), np.uint8)
    cv2.putText(canvas, rank, (th + 2, h + th + 2), font, scale, 255, th, cv2.LINE_AA)
    if narrow != 1.0:
        canvas = cv2.resize(canvas, (max(1, int(canvas.shape[1] * narrow)), canvas.shape[0]))
    ch, cw = canvas.shape
    x0, y0 = int(round(cx - cw / 2)), int(round(top - th - 2))
    x1, y1 = min(img.shape[1], x0 + cw), min(img.shape[0], y0 + ch)
    x0c, y0c = max(0, x0), max(0, y0)
    if x1 <= x0c or y1 <= y0c:
        return int(top + h), cw
    alpha = canvas[y0c - y0:y1 - y0, x0c - x0:x1 - x0].astype(np.float32)[..., None] / 255.0
    region = img[y0c:y1, x0c:x1].astype(np.float32)
    img[y0c:y1, x0c:x1] = (region * (1 - alpha) + np.array(colour, np.float32) * alpha).astype(np.uint8)
    return int(top + h), cw


def draw_index(img: np.ndarray, rank: str, suit: str, style: dict) -> None:
    """Rank over suit in the top-left corner of a card image."""
    colour = suit_colour(suit, style)
    h, w = img.shape[:2]
    cx = w * style.get("index_x", 0.105)
    rank_h = h * style.get("rank_h", 0.085)
    bottom, _ = draw_rank(img, rank, cx, h * style.get("index_top", 0.04), rank_h, colour,
                          style.get("font", cv2.FONT_HERSHEY_SIMPLEX), style.get("thickness", 2),
                          style.get("narrow", 0.75 if rank == "10" else 1.0))
    size = h * style.get("suit_h", 0.065)
    draw_suit(img, suit, cx, bottom + h * 0.02 + size / 2, size, colour)


_PIPS = {  # pip centres for the number cards, as fractions of the middle panel
    1: [(0.5, 0.5)], 2: [(0.5, 0.1), (0.5, 0.9)], 3: [(0.5, 0.1), (0.5, 0.5), (0.5, 0.9)],
    4: [(0.25, 0.1), (0.75, 0.1), (0.25, 0.9), (0.75, 0.9)],
}
_PIPS[5] = _PIPS[4] + [(0.5, 0.5)]
_PIPS[6] = _PIPS[4] + [(0.25, 0.5), (0.75, 0.5)]
_PIPS[7] = _PIPS[6] + [(0.5, 0.3)]
_PIPS[8] = _PIPS[6] + [(0.5, 0.3), (0.5, 0.7)]
_PIPS[9] = _PIPS[4] + [(0.25, 0.37), (0.75, 0.37), (0.25, 0.63), (0.75, 0.63), (0.5, 0.5)]
_PIPS[10] = _PIPS[4] + [(0.25, 0.37), (0.75, 0.37), (0.25, 0.63), (0.75, 0.63), (0.5, 0.23), (0.5, 0.77)]


def render_card(code: str, style: dict | None = None) -> np.ndarray:
    """A card face, BGR ``CARD_H`` x ``CARD_W``; ``code`` like "JH" or "10S", or "joker"."""
    style = style or {}
    img = np.full((CARD_H, CARD_W, 3), style.get("paper", (245, 247, 248)), np.uint8)
    cv2.rectangle(img, (3, 3), (CARD_W - 4, CARD_H - 4), (200, 200, 200), 1, cv2.LINE_AA)
    if code == "joker":
        colour = (30, 30, 160)
        for i, ch in enumerate("JOKER"):
            draw_rank(img, ch, CARD_W * 0.1, CARD_H * (0.05 + 0.07 * i), CARD_H * 0.055, colour)
        cv2.ellipse(img, (CARD_W // 2, CARD_H // 2), (70, 110), 0, 0, 360, (60, 140, 200), -1, cv2.LINE_AA)
        cv2.circle(img, (CARD_W // 2, CARD_H // 2 - 60), 30, (40, 40, 40), -1, cv2.LINE_AA)
        return img
    rank, suit = code[:-1], code[-1]
    colour = suit_colour(suit, style)
    draw_index(img, rank, suit, style)
    # The bottom-right index: the same corner turned half a turn.
    corner = np.full_like(img, style.get("paper", (245, 247, 248)))
    draw_index(corner, rank, suit, style)
    ch, cw = int(CARD_H * 0.33), int(CARD_W * 0.24)
    img[CARD_H - ch:, CARD_W - cw:] = cv2.rotate(corner[:ch, :cw], cv2.ROTATE_180)
    cv2.rectangle(img, (3, 3), (CARD_W - 4, CARD_H - 4), (200, 200, 200), 1, cv2.LINE_AA)
    x0, y0, x1, y1 = CARD_W * 0.26, CARD_H * 0.12, CARD_W * 0.74, CARD_H * 0.88
    if rank in ("J", "Q", "K"):
        face = {"J": (190, 120, 40), "Q": (60, 160, 200), "K": (40, 90, 170)}[rank]
        cv2.rectangle(img, (int(x0), int(y0)), (int(x1), int(y1)), face, -1)
        cv2.rectangle(img, (int(x0), int(y0)), (int(x1), int(y1)), colour, 2)
        cv2.circle(img, (CARD_W // 2, int(CARD_H * 0.35)), 28, (170, 200, 235), -1, cv2.LINE_AA)
        cv2.circle(img, (CARD_W // 2, int(CARD_H * 0.65)), 28, (170, 200, 235), -1, cv2.LINE_AA)
        draw_suit(img, suit, CARD_W * 0.36, CARD_H * 0.5, 26, colour)
    else:
        n = 1 if rank == "A" else int(rank)
        size = 70 if rank == "A" else 34
        for fx, fy in _PIPS[n]:
            draw_suit(img, suit, x0 + fx * (x1 - x0), y0 + fy * (y1 - y0), size, colour, flip=fy > 0.55)
    return img


def random_style(rng: np.random.Generator) -> dict:
    """A deck design: font, weight, index size and place (ordinary decks vary in all of these)."""
    return {
        "font": int(rng.choice(FONTS)),
        "thickness": int(rng.integers(1, 4)),
        "rank_h": float(rng.uniform(0.07, 0.1)),
        "suit_h": float(rng.uniform(0.05, 0.075)),
        "index_x": float(rng.uniform(0.09, 0.12)),
        "index_top": float(rng.uniform(0.03, 0.05)),
        "paper": tuple(int(v) for v in rng.integers(225, 255, 3)),
    }


def texture(h: int, w: int, rng: np.random.Generator, kind: str | None = None) -> np.ndarray:
    """A table surface: cloth, wood grain or speckled paint, in a random colour."""
    kind = kind or str(rng.choice(["cloth", "wood", "speckle"]))
    base = rng.integers(20, 200, 3).astype(np.float32)
    if kind == "wood":
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        f = rng.uniform(0.02, 0.08)
        grain = np.sin(y * f + 3 * np.sin(x * 0.01 + rng.uniform(0, 6))) * 0.5 + 0.5
        shade = (0.6 + 0.4 * grain)[..., None]
    else:
        noise = rng.random((h // 4 + 1, w // 4 + 1)).astype(np.float32)
        noise = cv2.resize(noise, (w, h), interpolation=cv2.INTER_CUBIC)
        k = 1 if kind == "cloth" else 7
        noise = cv2.GaussianBlur(noise, (0, 0), k)
        noise = (noise - noise.min()) / max(1e-6, float(noise.max() - noise.min()))
        amount = 0.25 if kind == "cloth" else 0.6
        shade = (1 - amount + amount * noise)[..., None]
    return np.clip(base[None, None, :] * shade, 0, 255).astype(np.uint8)


def paste_card(scene: np.ndarray, card: np.ndarray, quad: np.ndarray) -> None:
    """Lay a card image onto the scene with its corners at ``quad`` (in place)."""
    h, w = card.shape[:2]
    src = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    size = (scene.shape[1], scene.shape[0])
    warped = cv2.warpPerspective(card, m, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, size, flags=cv2.INTER_LINEAR)
    # A soft shadow just beside the card, as real cards cast on the table or the card below.
    shadow = cv2.GaussianBlur(np.roll(np.roll(mask, 3, axis=0), 2, axis=1), (0, 0), 2.5)
    # Blended only in the box where the card or its shadow falls: elsewhere both blends multiply
    # by 1 and add 0, which leaves the scene as it is to the bit.
    x, y, bw, bh = cv2.boundingRect(cv2.bitwise_or(mask, shadow))
    if not bw or not bh:
        return
    box = np.s_[y:y + bh, x:x + bw]
    region = scene[box]
    region[:] = (region.astype(np.float32) * (1 - 0.35 * shadow[box].astype(np.float32)[..., None] / 255.0)
                 ).astype(np.uint8)
    a = mask[box].astype(np.float32)[..., None] / 255.0
    region[:] = (region.astype(np.float32) * (1 - a) + warped[box].astype(np.float32) * a).astype(np.uint8)


def light_and_blur(scene: np.ndarray, rng: np.random.Generator, blur: float = 0.0, unevenness: float = 0.0,
                   noise: float = 0.0) -> np.ndarray:
    """Uneven light (a bright side and a dim side), lens blur and sensor noise."""
    out = scene.astype(np.float32)
    if unevenness:
        h, w = scene.shape[:2]
        a = rng.uniform(0, 2 * math.pi)
        # A row and a column, broadcast: the same sums as on two whole grids, a fraction of the work.
        yy = np.arange(h, dtype=np.float32)[:, None]
        xx = np.arange(w, dtype=np.float32)[None, :]
        ramp = ((xx / w - 0.5) * math.cos(a) + (yy / h - 0.5) * math.sin(a))
        out *= (1.0 + unevenness * ramp)[..., None]
    if blur:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    if noise:
        out += rng.normal(0, noise, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def random_scene(rng: np.random.Generator, codes: list[str], size: tuple[int, int] = (720, 720),
                 style: dict | None = None, blur: float | None = None) -> tuple[np.ndarray, list[np.ndarray]]:
    """Cards laid one on another (last on top), turned, on a texture; returns (image, quads)."""
    w, h = size
    scene = texture(h, w, rng)
    style = style if style is not None else random_style(rng)
    quads = []
    cx, cy = w * rng.uniform(0.4, 0.6), h * rng.uniform(0.4, 0.6)
    width = min(w, h) * rng.uniform(0.3, 0.42)
    for i, code in enumerate(codes):
        q = card_quad(cx + rng.uniform(-0.12, 0.12) * w * (i > 0), cy + rng.uniform(-0.12, 0.12) * h * (i > 0),
                      width, rng.uniform(-180, 180))
        paste_card(scene, render_card(code, style), q)
        quads.append(q)
    scene = light_and_blur(scene, rng, blur=rng.uniform(0, 1.2) if blur is None else blur,
                           unevenness=rng.uniform(0, 0.5), noise=rng.uniform(0, 4))
    return scene, quads
