"""A synthetic game filmed from above, with its truth: cards land on a pile one by one, a hand
passes over, a slap, the pile is picked up, more cards land.

``game_video(seed)`` returns (frames BGR 640x480, fps, truth) where truth is a list of
(card, frame index of landing). A card slides in from the edge held by a hand, stops, the hand
leaves; the landing frame is the first frame with the card at rest.
"""

from __future__ import annotations

import json

import cv2
import numpy as np

from hardware.vision.kept import kept
from hardware.vision.render import card_quad, light_and_blur, paste_card, random_style, render_card, texture

W, H = 640, 480
SKIN = (120, 160, 215)


def _hand(img: np.ndarray, cx: float, cy: float) -> None:
    cv2.ellipse(img, (int(cx), int(cy)), (70, 95), 20, 0, 360, SKIN, -1, cv2.LINE_AA)
    for k in range(4):
        cv2.ellipse(img, (int(cx - 45 + 30 * k), int(cy - 105)), (13, 40), 0, 0, 360, SKIN, -1, cv2.LINE_AA)


def one_card_frame(code: str, seed: int = 5) -> np.ndarray:
    """A 640x480 frame from above with one card of a drawn deck lying on the cloth, as a deck is
    taught (the tests' and the teaching screenshot's)."""
    rng = np.random.default_rng(seed)
    image = texture(480, 640, rng, "cloth")
    paste_card(image, render_card(code, {"font": 2, "thickness": 2}), card_quad(320, 240, 170, 8))
    return light_and_blur(image, rng, blur=0.5, noise=2.0)


# A Jacks round's first tricks as they land in the middle (3H leads; a Jack falls in trick 2).
JACKS_TRICKS = ("3H", "9H", "6H", "QH", "4C", "KC", "JC", "2C", "AS", "10S", "5S", "8S")
# A whole round of 52 cards, thirteen tricks, as a careful table plays it (docs/rules.md, "Jacks":
# each follows suit with their lowest card; Ben holds 3H and leads).
JACKS_ROUND = (
    "3H", "2H", "4H", "7H", "3S", "KS", "2S", "5S", "2C", "4C", "3C", "5C",
    "4D", "7D", "2D", "3D", "8C", "6C", "10C", "JC", "6S", "8H", "4S", "7S",
    "5D", "10D", "AD", "8D", "9C", "7C", "6D", "KC", "10S", "9H", "JS", "8S",
    "5H", "QH", "10H", "JH", "9S", "QS", "QC", "AS", "6H", "AH", "QD", "KH",
    "JD", "KD", "AC", "9D",
)


def game_video(seed: int = 1, cards=("7H", "KS", "JD", "4C", "10H", "QD", "AS"), noise_seed: int | None = None,
               noise: float = 2.0, trick: int | None = None):
    """The game of ``seed``. With ``noise_seed``, the same game (every card and hand where it was)
    filmed through other sensor noise of strength ``noise``: how much a result owes to one draw.
    With ``trick`` (Jacks: 4), the middle is gathered after every ``trick`` cards instead of
    Slapjack's hand pass, slap and pick-up. Kept for a test run (:mod:`hardware.vision.kept`)."""
    how = (seed, tuple(cards), noise_seed, noise, trick)
    return kept("video", how, ("synthetic.py", "render.py", "geometry.py"), lambda: _draw_game(*how),
                _save_video, _load_video)


def _save_video(f, video) -> None:
    frames, fps, truth = video
    np.save(f, np.stack(frames))
    f.write(json.dumps({"fps": fps, "truth": truth}).encode())


def _load_video(f):
    frames = np.load(f)
    about = json.loads(f.read())
    return list(frames), about["fps"], [(card, at) for card, at in about["truth"]]


def _draw_game(seed, cards, noise_seed, noise, trick):
    rng = np.random.default_rng(seed)
    noise_rng = np.random.default_rng([seed, noise_seed]) if noise_seed is not None else None
    fps = 30
    table = texture(H, W, rng, "cloth")
    style = random_style(rng)
    faces = {c: render_card(c, style) for c in cards}
    pile: list[tuple[str, np.ndarray]] = []
    frames: list[np.ndarray] = []
    truth: list[tuple[str, int]] = []
    # The table with the pile laid on it, in the order the cards landed: kept between frames
    # (pasting is most of a frame's cost) and redone only when the pile changes.
    laid: dict = {"cards": [], "image": table.copy()}

    def draw(extra=None, hand=None):
        n = len(laid["cards"])
        if len(pile) < n or any(a is not b for a, b in zip(pile, laid["cards"])):   # picked up: lay it anew
            n, laid["image"] = 0, table.copy()
        for code, q in pile[n:]:
            paste_card(laid["image"], faces[code], q)
        laid["cards"] = list(pile)
        img = laid["image"].copy()
        if extra is not None:
            paste_card(img, faces[extra[0]], extra[1])
        if hand is not None:
            _hand(img, *hand)
        frame = light_and_blur(img, rng, blur=0.6, noise=2.0)   # drawn always: the game's own draws stay in step
        if noise_rng is not None:
            frame = light_and_blur(img, noise_rng, blur=0.6, noise=noise)
        frames.append(frame)

    def still(n):
        for _ in range(n):
            draw()

    def land(code):
        end = np.array([W / 2 + rng.uniform(-15, 15), H / 2 + rng.uniform(-10, 10)])
        angle = rng.uniform(-20, 20)
        start = end + np.array([rng.choice([-1, 1]) * 330, 260])
        steps = 8
        for k in range(1, steps + 1):
            p = start + (end - start) * k / steps
            q = card_quad(p[0], p[1], 150, angle + (steps - k) * 3)
            draw((code, q), hand=(p[0], p[1] + 230))
        pile.append((code, card_quad(end[0], end[1], 150, angle)))
        truth.append((code, len(frames) - 1))  # the last sliding frame already shows it at rest
        for k in range(1, 6):  # the hand leaves
            draw(hand=(end[0] + k * 70, end[1] + 230 + k * 40))

    def hand_pass():
        for k in range(12):
            draw(hand=(-80 + k * 70, H / 2))

    def slap():
        for _ in range(5):
            draw(hand=(W / 2, H / 2 + 40))

    def gather():
        for k in range(6):
            draw(hand=(W / 2 + k * 10, H / 2))
        pile.clear()
        for k in range(6):
            draw(hand=(W / 2 + k * 80, H / 2 + k * 30))
        still(10)

    still(10)
    for i, code in enumerate(cards):
        land(code)
        still(12)
        if trick is not None:
            if (i + 1) % trick == 0:
                gather()
            continue
        if i == 1:
            hand_pass()
            still(10)
        if i == 2:
            slap()
            still(10)
        if i == 3:  # the pile picked up
            gather()
    still(10)
    return frames, fps, truth


def jacks_video(seed: int = 2, whole: bool = False):
    """A Jacks round filmed over the middle, each trick gathered before the next: its first three
    tricks, or with ``whole`` all thirteen (about 1600 frames, some 40 s to draw: the bench's,
    the tests' is the short one). Seed 2 by default: in seed 1's filming of the three tricks the
    pile watcher does not report the QH."""
    return game_video(seed, cards=JACKS_ROUND if whole else JACKS_TRICKS, trick=4)


def jacks_round_video(seed: int = 2):
    """The whole round of :func:`jacks_video`."""
    return jacks_video(seed, whole=True)
