"""Training the corner classifier: ``python -m tools.vision.train --data DIR [--seed N]``.

Training glyphs are cut exactly as recognition cuts them at run time: every card outline
:func:`hardware.vision.detect.find_cards` finds in a ``scenes/`` photo is straightened, each
of its two corners goes through :func:`hardware.vision.glyphs.cut_index`, and the corner is
labelled with the card whose labelled index box (``labels.json``, see the data's SOURCES.md)
holds the index's place in the photo. A corner that falls in no box (a texture, a covered
corner, a wrong outline) is a "not a card" example. Cards the project draws
(:mod:`hardware.vision.render`, varied designs, blurred and turned a little) are added, and
jokers and noise as "not a card". A fifth of the photos (by file, seeded) is held out and
never trained on; the held-out accuracy is printed. The model (two small softmax networks, one
for the rank, one for the suit, in numpy) is saved as ``hardware/vision/models/corner.npz``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from companion.cards import RANKS, SUITS
from tools.vision import vision_data
from hardware.vision.classify import NOT_A_CARD, _augment
from hardware.vision.detect import find_cards, warp_card
from hardware.vision.glyphs import cut_index, features
from hardware.vision.learned import MODEL_PATH, RANK_CLASSES, SUIT_CLASSES, index_vectors
from hardware.vision.render import CARD_H, CARD_W, random_style, render_card

# Where the index sits on a straightened card (its middle), as fractions of the card.
INDEX_AT = (0.11, 0.16)


def _box_holding(pt, corners: dict, size) -> str | None:
    h, w = size
    x, y = pt[0] / w, pt[1] / h
    for card, boxes in corners.items():
        for cx, cy, bw, bh in boxes:
            if abs(x - cx) <= bw / 2 and abs(y - cy) <= bh / 2:
                return card
    return None


def scene_examples(folder: Path, names: list[str]):
    """(rank vectors, suit vectors, card labels) from the photos ``names``."""
    labels = json.loads((folder / "labels.json").read_text())
    out = []
    for name in names:
        image = cv2.imread(str(folder / name))
        if image is None:
            continue
        truth = labels[name]
        for quad in find_cards(image):
            card = warp_card(image, quad)
            dst = np.array([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]], np.float32)
            back = cv2.getPerspectiveTransform(dst, quad.astype(np.float32))
            for turned, (fx, fy) in ((False, INDEX_AT), (True, (1 - INDEX_AT[0], 1 - INDEX_AT[1]))):
                idx = cut_index(cv2.rotate(card, cv2.ROTATE_180) if turned else card)
                if idx is None:
                    continue
                pt = cv2.perspectiveTransform(np.array([[[fx * CARD_W, fy * CARD_H]]], np.float32), back)[0, 0]
                label = _box_holding(pt, truth["corners"], image.shape[:2])
                out.append((idx, label or NOT_A_CARD))
    return out


def rendered_examples(rng: np.random.Generator, n_decks: int):
    out = []
    for _ in range(n_decks):
        style = random_style(rng)
        for suit in SUITS:
            for rank in RANKS:
                idx = cut_index(_augment(render_card(rank + suit, style), rng))
                if idx is not None:
                    out.append((idx, rank + suit))
        idx = cut_index(render_card("joker", style))
        if idx is not None:
            out.append((idx, NOT_A_CARD))
    for _ in range(n_decks * 4):  # noise and blotches are not an index
        noise = rng.integers(0, 256, (CARD_H, CARD_W, 3), dtype=np.uint8)
        noise = cv2.GaussianBlur(noise, (0, 0), float(rng.uniform(0.5, 4)))
        idx = cut_index(noise)
        if idx is not None:
            out.append((idx, NOT_A_CARD))
    return out


def _targets(labels: list[str]):
    ranks = [RANK_CLASSES.index(NOT_A_CARD if c == NOT_A_CARD else c[:-1]) for c in labels]
    suits = [SUIT_CLASSES.index(NOT_A_CARD if c == NOT_A_CARD else c[-1]) for c in labels]
    return np.array(ranks), np.array(suits)


def train_net(x: np.ndarray, y: np.ndarray, classes: int, rng, hidden=96, epochs=400, lr=0.01, l2=1e-4):
    """A one-hidden-layer softmax network, full-batch Adam: small data, a few seconds."""
    mean, std = x.mean(0), x.std(0) + 1e-6
    xn = (x - mean) / std
    params = [rng.normal(0, 1 / np.sqrt(x.shape[1]), (x.shape[1], hidden)).astype(np.float32),
              np.zeros(hidden, np.float32),
              rng.normal(0, 1 / np.sqrt(hidden), (hidden, classes)).astype(np.float32),
              np.zeros(classes, np.float32)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    onehot = np.eye(classes, dtype=np.float32)[y]
    # Classes weighted by how rare they are, so "not a card" does not swamp the rest.
    counts = np.bincount(y, minlength=classes).astype(np.float32)
    wts = (len(y) / (classes * np.maximum(counts, 1)))[y][:, None]
    for t in range(1, epochs + 1):
        w1, b1, w2, b2 = params
        hpre = xn @ w1 + b1
        hact = np.maximum(hpre, 0)
        logits = hact @ w2 + b2
        logits -= logits.max(1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(1, keepdims=True)
        g = (p - onehot) * wts / len(y)
        gw2 = hact.T @ g + l2 * w2
        gb2 = g.sum(0)
        gh = (g @ w2.T) * (hpre > 0)
        gw1 = xn.T @ gh + l2 * w1
        gb1 = gh.sum(0)
        for i, gr in enumerate((gw1, gb1, gw2, gb2)):
            m[i] = 0.9 * m[i] + 0.1 * gr
            v[i] = 0.999 * v[i] + 0.001 * gr * gr
            params[i] = params[i] - lr * (m[i] / (1 - 0.9 ** t)) / (np.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-8)
    return {"mean": mean.astype(np.float32), "std": std.astype(np.float32),
            "w1": params[0], "b1": params[1], "w2": params[2], "b2": params[3]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.vision.train")
    parser.add_argument("--data", required=True, type=vision_data, help="the photographs (with scenes/labels.json)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--decks", type=int, default=40, help="drawn decks added to the photos")
    parser.add_argument("--out", default=str(MODEL_PATH))
    args = parser.parse_args(argv)
    cv2.setNumThreads(2)
    t0 = time.time()
    folder = Path(args.data) / "scenes"
    names = sorted(json.loads((folder / "labels.json").read_text()))
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(names))
    held = sorted(names[i] for i in order[: len(names) // 5])
    train_names = sorted(names[i] for i in order[len(names) // 5:])
    train = scene_examples(folder, train_names) + rendered_examples(rng, args.decks)
    test = scene_examples(folder, held)
    print(f"examples: {len(train)} training ({time.time() - t0:.0f} s), {len(test)} held out", flush=True)

    def arrays(examples):
        rx, sx = zip(*(index_vectors(idx) for idx, _ in examples))
        ry, sy = _targets([c for _, c in examples])
        return np.array(rx), np.array(sx), ry, sy

    rx, sx, ry, sy = arrays(train)
    nets = {"rank": train_net(rx, ry, len(RANK_CLASSES), rng), "suit": train_net(sx, sy, len(SUIT_CLASSES), rng)}
    out = {f"{head}_{k}": v for head, net in nets.items() for k, v in net.items()}
    out["held_out"] = np.array(held)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **out)
    print(f"saved {args.out} ({Path(args.out).stat().st_size // 1024} KB, {time.time() - t0:.0f} s)")

    from hardware.vision.learned import LearnedClassifier

    clf = LearnedClassifier.load(args.out)
    right = sure = sure_wrong = cards = 0
    for idx, truth in test:
        r = clf.read(idx)
        if truth == NOT_A_CARD:
            sure_wrong += r.sure
            sure += r.sure
            continue
        cards += 1
        right += r.card == truth
        sure += r.sure
        sure_wrong += r.sure and r.card != truth
    print(f"held-out corners ({len(held)} photos): {right}/{cards} cards named right ({right / max(1, cards):.1%}), "
          f"{sure} sure, {sure_wrong} of them wrong ({sure_wrong / max(1, sure):.1%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
