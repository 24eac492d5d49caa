"""Training the card-corner reader: ``python -m tools.vision.train_card_corners --data DIR --seed N``.

Needs the ``train`` extra (PyTorch), like :mod:`tools.vision.train_reader`. The model
(:mod:`hardware.vision.card_corners`) names the top-left corner region of a straightened card:
its rank (or a joker's letters, or "no index") and its suit (the same two extra classes).
Cards come from the ``train-*`` pictures of ``crops/`` (many deck designs; each picture is its
card's outline) and from cards drawn by :mod:`hardware.vision.render` in random designs, laid
on drawn tables; each is straightened from an outline a little off (as a found edge or a crop
gives it), and taken at either corner, so the index is seen wherever its design prints it.
"No index" is a corner of table, or the middle of a card. The ``valid-*`` crops are never
used; files ``train-*-017`` to ``-020`` are kept out too (``--calibrate``), to choose the
sure threshold on pictures the model has not seen. Exported to ``models/card_corners.onnx``.
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
from hardware.vision.card_corners import INPUT_H, INPUT_W, MODEL_PATH, corner_region
from hardware.vision.detect import warp_card
from hardware.vision.render import CARD_H, CARD_W, random_style, render_card, texture
from tools.vision.train_corners import label_of
from tools.vision.train_reader import cbr, export, recoloured

NONE_RANK, NONE_SUIT = len(RANKS) + 1, len(SUITS) + 1
CALIBRATION = ("-017", "-018", "-019", "-020")  # train-* files kept out to choose the threshold


def crop_names(folder: Path, calibration: bool) -> list[str]:
    """The ``train-*`` crops for training, or (``calibration``) those kept to choose the threshold."""
    labels = json.loads((folder / "labels.json").read_text())
    return sorted(n for n in labels if n.startswith("train-") and Path(n).stem.endswith(CALIBRATION) == calibration)


def _full_quad(w: int, h: int) -> np.ndarray:
    return np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)


def straightened(picture: np.ndarray, quad: np.ndarray, rng: np.random.Generator, off: float) -> np.ndarray:
    """The card at ``quad`` in ``picture`` straightened from an outline up to ``off`` of its
    width wrong at each corner, a few degrees turned or not, either end up."""
    w = float(np.linalg.norm(quad[1] - quad[0]))
    moved = quad + rng.normal(0, off * w, quad.shape).astype(np.float32)
    dst = _full_quad(CARD_W, CARD_H)
    m = cv2.getPerspectiveTransform(moved.astype(np.float32), dst)
    card = cv2.warpPerspective(picture, m, (CARD_W, CARD_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.rotate(card, cv2.ROTATE_180) if rng.random() < 0.5 else card


def other_reds(region: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The red ink of another deck: maroon, crimson or orange-red instead of the printed red."""
    hsv = cv2.cvtColor(region, cv2.COLOR_BGR2HSV).astype(np.float32)
    red = ((hsv[..., 0] < 12) | (hsv[..., 0] > 165)) & (hsv[..., 1] > 70)
    hsv[..., 0] = np.where(red, (hsv[..., 0] + rng.uniform(-10, 8)) % 180, hsv[..., 0])
    hsv[..., 2] = np.where(red, hsv[..., 2] * rng.uniform(0.45, 1.0), hsv[..., 2])
    return cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR)


def table_light(region: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A vignette darkening one side, or a lamp's glare: a bright patch washing the ink out."""
    h, w = region.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(-0.5, 1.5) * w, rng.uniform(-0.5, 1.5) * h
    d = np.hypot(x - cx, y - cy) / max(h, w)
    out = region.astype(np.float32)
    if rng.random() < 0.6:
        out *= np.clip(1.0 - rng.uniform(0.2, 0.6) * d, 0.25, 1.0)[..., None]
    else:
        out += (rng.uniform(60, 160) * np.exp(-(d / rng.uniform(0.2, 0.6)) ** 2))[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def blurred(region: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Shallow focus or a hand moving: a Gaussian or a straight motion blur."""
    if rng.random() < 0.5:
        return cv2.GaussianBlur(region, (0, 0), rng.uniform(0.8, 2.5))
    n = int(rng.integers(3, 9))
    kernel = np.zeros((n, n), np.float32)
    kernel[n // 2] = 1.0 / n
    m = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1.0)
    kernel = cv2.warpAffine(kernel, m, (n, n))
    return cv2.filter2D(region, -1, kernel / max(1e-6, kernel.sum()))


def _seen_by_a_camera(region: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Sometimes as a small card in a camera frame sees it: fewer pixels, then enlarged; and
    (for cards of other tables) blurred, unevenly lit, printed in other reds."""
    if rng.random() < 0.2:
        region = other_reds(region, rng)
    if rng.random() < 0.25:
        region = blurred(region, rng)
    if rng.random() < 0.25:
        region = table_light(region, rng)
    if rng.random() < 0.4:
        f = rng.uniform(0.35, 0.8)
        h, w = region.shape[:2]
        small = cv2.resize(region, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
        region = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    return recoloured(region, rng)


def crop_sample(rng, pictures, labels):
    k = int(rng.integers(len(pictures)))
    picture = pictures[k]
    h, w = picture.shape[:2]
    return straightened(picture, _full_quad(w, h), rng, 0.025), labels[k]


def drawn_sample(rng):
    deck = [r + s for r in RANKS for s in SUITS] + ["joker"]
    code = str(deck[int(rng.integers(len(deck)))])
    face = render_card(code, random_style(rng))
    table = texture(CARD_H + 80, CARD_W + 80, rng)
    table[40:40 + CARD_H, 40:40 + CARD_W] = face
    quad = _full_quad(CARD_W, CARD_H) + 40
    return straightened(table, quad, rng, 0.02), label_of(code)


def table_sample(rng, outlined):
    """A real card of another deck on another table (``tables/`` training photos), straightened
    from its found outline a little off."""
    image, quad, code = outlined[int(rng.integers(len(outlined)))]
    return straightened(image, quad, rng, 0.02), label_of(code)


def none_sample(rng, pictures):
    """A corner with no index: drawn table, or the middle of a card (pips, a picture)."""
    if rng.random() < 0.4:
        return texture(CARD_H, CARD_W, rng), (NONE_RANK, NONE_SUIT)
    picture = pictures[int(rng.integers(len(pictures)))]
    card = warp_card(picture, _full_quad(picture.shape[1], picture.shape[0]))
    x0, y0 = int(rng.uniform(0.28, 0.45) * CARD_W), int(rng.uniform(0.3, 0.45) * CARD_H)
    middle = card[y0:y0 + int(0.34 * CARD_H), x0:x0 + int(0.3 * CARD_W)]
    return cv2.resize(middle, (CARD_W, CARD_H)), (NONE_RANK, NONE_SUIT)


def build_net():
    import torch.nn as nn

    class CardCorners(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(*cbr(3, 24), nn.MaxPool2d(2), *cbr(24, 40), *cbr(40, 40), nn.MaxPool2d(2),
                                      *cbr(40, 64), *cbr(64, 64), nn.MaxPool2d(2), *cbr(64, 96), *cbr(96, 96),
                                      nn.AdaptiveMaxPool2d(1), nn.Flatten(), nn.Dropout(0.2))
            self.head = nn.Linear(96, (len(RANKS) + 2) + (len(SUITS) + 2))

        def forward(self, x):
            return self.head(self.body(x))

    return CardCorners()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.vision.train_card_corners")
    parser.add_argument("--data", default="../shared/vision-data", type=vision_data)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--steps", type=int, default=4000)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--drawn", type=float, default=0.3, help="share of each batch drawn by render.py")
    parser.add_argument("--none", type=float, default=0.12, help="share of each batch with no index")
    parser.add_argument("--tables", type=float, default=0.0,
                        help="share of each batch from the tables/ training photos' outlined cards")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch's threads (one: the same bytes run again)")
    parser.add_argument("--out", default=str(MODEL_PATH))
    args = parser.parse_args(argv)

    import torch
    import torch.nn.functional as F

    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    folder = Path(args.data) / "crops"
    labels = json.loads((folder / "labels.json").read_text())
    names = crop_names(folder, calibration=False)
    pictures = [cv2.imread(str(folder / n)) for n in names]
    targets = [label_of(labels[n]) for n in names]
    print(f"{len(names)} crops; {len(crop_names(folder, True))} kept out to choose the threshold", flush=True)
    outlined = []
    if args.tables:
        from hardware.vision.tables import names as table_names, outlined_cards

        tables = Path(args.data) / "tables"
        outlined = outlined_cards(tables, table_names(tables, "models"))
        print(f"{len(outlined)} outlined cards from the tables/ training photos", flush=True)

    net = build_net()
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.steps, pct_start=0.15)
    nr = len(RANKS) + 2
    t0 = time.time()
    for step in range(1, args.steps + 1):
        xs, ys = [], []
        for _ in range(args.batch):
            u = rng.random()
            if u < args.none:
                card, y = none_sample(rng, pictures)
            elif u < args.none + args.drawn:
                card, y = drawn_sample(rng)
            elif u < args.none + args.drawn + args.tables:
                card, y = table_sample(rng, outlined)
            else:
                card, y = crop_sample(rng, pictures, targets)
            xs.append(_seen_by_a_camera(corner_region(card), rng))
            ys.append(y)
        x = torch.from_numpy(np.stack(xs).astype(np.float32).transpose(0, 3, 1, 2) / 255.0)
        y = torch.tensor(ys)
        out = net(x)
        loss = (F.cross_entropy(out[:, :nr], y[:, 0], label_smoothing=0.05)
                + F.cross_entropy(out[:, nr:], y[:, 1], label_smoothing=0.05))
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0:
            print(f"step {step} loss {loss.item():.3f} ({time.time() - t0:.0f} s)", flush=True)
    export(net, args.out, (INPUT_H, INPUT_W), "corner")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
