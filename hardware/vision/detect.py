"""Finding cards in a photo: bright, low-colour four-sided shapes of a card's proportions.

Two passes: the outlines of bright regions (a card alone on the table), then edges inside
those regions (a card lying on other cards, whose own border and shadow draw a line). Every
outline is returned as four corners in clockwise order starting at a corner of a short side,
so warping it gives an upright (or upside-down, which reads the same) card.
"""

from __future__ import annotations

import cv2
import numpy as np

from hardware.vision.geometry import CARD_H, CARD_W

ASPECT = CARD_W / CARD_H  # 0.714 for poker cards; bridge cards are 0.63
MIN_AREA = 0.01           # of the image


def order_quad(pts: np.ndarray) -> np.ndarray:
    """Clockwise from a corner of a short side (so the first side is a short one)."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]  # clockwise in image coordinates (y down)
    side01 = np.linalg.norm(pts[1] - pts[0])
    side12 = np.linalg.norm(pts[2] - pts[1])
    if side01 > side12:
        pts = np.roll(pts, -1, axis=0)
    return pts


def _quad_ok(quad: np.ndarray, image_area: float) -> bool:
    a = abs(cv2.contourArea(quad))
    if a < MIN_AREA * image_area:
        return False
    sides = [np.linalg.norm(quad[i] - quad[(i + 1) % 4]) for i in range(4)]
    short = (sides[0] + sides[2]) / 2
    long_ = (sides[1] + sides[3]) / 2
    if long_ <= 0 or not (0.55 <= short / long_ <= 0.82):
        return False
    # Opposite sides about equal: a card seen from above, not a random four-sided blob.
    return min(sides[0], sides[2]) / max(sides[0], sides[2]) > 0.8 and min(sides[1], sides[3]) / max(sides[1], sides[3]) > 0.8


def _as_quad(contour: np.ndarray, image_area: float, loose: bool) -> np.ndarray | None:
    peri = cv2.arcLength(contour, True)
    for eps in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(contour, eps * peri, True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            q = order_quad(approx)
            if _quad_ok(q, image_area):
                return q
    if loose:
        # A card with a rounded or clipped corner: the rotated box, if it fills it well.
        area = cv2.contourArea(contour)
        rect = cv2.minAreaRect(contour)
        if rect[1][0] * rect[1][1] > 0 and area / (rect[1][0] * rect[1][1]) > 0.93:
            q = order_quad(cv2.boxPoints(rect))
            if _quad_ok(q, image_area):
                return q
    return None


def _corner_hypotheses(contour: np.ndarray, mask: np.ndarray, image_area: float,
                       known: list[np.ndarray]) -> list[np.ndarray]:
    """Cards lying over each other merge into one bright shape: guess a card at each of its
    square corners (the card size from a card found whole, else from the longest straight side),
    and keep the guesses that lie on bright paper throughout."""
    peri = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, 0.012 * peri, True).reshape(-1, 2).astype(np.float32)
    n = len(poly)
    if n < 4:
        return []
    lengths = [float(np.linalg.norm(poly[(i + 1) % n] - poly[i])) for i in range(n)]
    if known:
        q = known[0]
        short = float(np.linalg.norm(q[1] - q[0]))
    else:
        # The widest circle inside the shape spans about a card's width.
        short = 2.0 * float(cv2.distanceTransform(mask, cv2.DIST_L2, 5).max()) * 1.02
    long_ = short / ASPECT
    orient = np.sign(cv2.contourArea(poly.reshape(-1, 1, 2), oriented=True)) or 1.0
    out = []
    for i in range(n):
        p, a, b = poly[i], poly[i - 1], poly[(i + 1) % n]
        la, lb = float(np.linalg.norm(a - p)), float(np.linalg.norm(b - p))
        if la < 0.2 * short or lb < 0.2 * short:
            continue
        ua, ub = (a - p) / la, (b - p) / lb
        cos = float(np.dot(ua, ub))
        cross = float(ua[0] * ub[1] - ua[1] * ub[0])
        if abs(cos) > 0.26 or np.sign(cross) != orient:  # not square, or a notch rather than a corner
            continue
        for sa, sb in ((short, long_), (long_, short)):
            quad = np.array([p, p + ua * sa, p + ua * sa + ub * sb, p + ub * sb], np.float32)
            m = np.zeros_like(mask)
            cv2.fillConvexPoly(m, quad.astype(np.int32), 255)
            inside = cv2.countNonZero(m)
            if inside and cv2.countNonZero(m & mask) / inside > 0.93:
                q = order_quad(quad)
                if _quad_ok(q, image_area):
                    out.append(q)
    return out


def whiteness(image: np.ndarray) -> np.ndarray:
    """Bright and colourless: card paper, not a red cloth or a dark wood."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    v = hsv[..., 2].astype(np.int16)
    s = hsv[..., 1].astype(np.int16)
    return np.clip(v - s, 0, 255).astype(np.uint8)


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    ua = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return inter / ua if ua > 0 else 0.0


def find_cards(image: np.ndarray) -> list[np.ndarray]:
    """Every card outline found, as float32 (4, 2) arrays; biggest first, no duplicates."""
    h, w = image.shape[:2]
    area = float(h * w)
    white = cv2.GaussianBlur(whiteness(image), (5, 5), 0)
    thr, mask = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if thr < 90:  # nothing bright enough to be card paper
        _, mask = cv2.threshold(white, 140, 255, cv2.THRESH_BINARY)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    quads: list[np.ndarray] = []
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    # A shape much smaller than a card cannot become one (a textured table makes thousands).
    contours = [c for c in contours if cv2.contourArea(c) >= 0.8 * MIN_AREA * area]
    for c in contours:
        q = _as_quad(c, area, loose=True)
        if q is not None:
            quads.append(q)
    for c in contours:
        if cv2.contourArea(c) > MIN_AREA * area * 2 and _as_quad(c, area, loose=True) is None:
            quads.extend(_corner_hypotheses(c, mask, area, quads))
    # Second pass: edges inside the bright regions find a card lying over others.
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(cv2.GaussianBlur(gray, (3, 3), 0), 20, 50)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    region = cv2.dilate(mask, np.ones((9, 9), np.uint8))
    edges &= region
    contours, _ = cv2.findContours(255 - edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    for c in contours:
        if cv2.contourArea(c) < MIN_AREA * area or cv2.contourArea(c) > 0.9 * area:
            continue
        q = _as_quad(c, area, loose=False)
        if q is not None:
            quads.append(q)
    quads.sort(key=lambda q: -abs(cv2.contourArea(q)))
    kept: list[np.ndarray] = []
    for q in quads:
        if all(_iou(q, k) < 0.6 for k in kept):
            kept.append(q)
    return kept


def warp_card(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card inside ``quad``, straightened to ``CARD_W`` x ``CARD_H``."""
    dst = np.array([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    return cv2.warpPerspective(image, m, (CARD_W, CARD_H), flags=cv2.INTER_LINEAR)
