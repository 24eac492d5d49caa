"""Training the index reader: ``python -m hardware.vision.train_reader --data DIR --seed N``.

Needs the ``train`` extra (PyTorch), like :mod:`hardware.vision.train_corners`. The reader
names one corner index from a small square patch cut round it at full resolution
(:func:`hardware.vision.corners.index_patch`): its rank (or a joker's letters, or "no index at
all") and its suit (the same two extra classes). Indexes are taken from the labelled boxes of
``scenes/`` (less the held-out fifth), from cards drawn by :mod:`hardware.vision.render`, and
from the ``train-*`` pictures of ``crops/`` (their ``valid-*`` ones are held out); each is cut
a little off centre, a little too big or small and turned by any angle, as the detector's
boxes and a real table give them. Patches of table, card faces and pictures away from any
index are "no index". Exported to ``models/reader.onnx``.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import cv2
import numpy as np

from companion.cards import RANKS, SUITS
from hardware.vision.corners import PATCH, READER_PATH, index_patch
from hardware.vision.train_corners import (crop_faces, drawn_sample, lay_cards, scene_samples,
                                           start_training)

NONE_RANK, NONE_SUIT = len(RANKS) + 1, len(SUITS) + 1


# How far off a patch is cut: (spread of the centre, as a share of the box; size range).
# "wide" is as far off as the detector's boxes are on held-out photos (centres a sixth of the
# box off, sizes 0.6 to 1.6 times, nine times in ten).
JITTER = {"narrow": (0.1, 0.75, 1.35), "wide": (0.15, 0.6, 1.6)}


def _jitter_patch(image, box, rng, none=False, jitter=JITTER["narrow"]):
    x, y, w, h = box[:4]
    size = max(w, h)
    if none:
        return index_patch(image, x, y, size, float(rng.uniform(0, 360)))
    spread, lo, hi = jitter
    f = float(np.exp(rng.uniform(math.log(lo), math.log(hi))))
    dx, dy = rng.normal(0, spread * size, 2)
    return index_patch(image, x + dx, y + dy, size * f, float(rng.uniform(0, 360)))


def _none_box(image, boxes, rng):
    """A box the size of an index, somewhere no index is."""
    h, w = image.shape[:2]
    size = float(np.median(boxes[:, 2:4].max(1))) if len(boxes) else rng.uniform(30, 120)
    for _ in range(20):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        if all(abs(x - b[0]) > 0.6 * max(b[2], b[3]) or abs(y - b[1]) > 0.6 * max(b[2], b[3]) for b in boxes):
            return np.array([x, y, size * rng.uniform(0.7, 1.4), size * rng.uniform(0.7, 1.4)], np.float32)
    return None


def _colour(patch: np.ndarray, rng) -> np.ndarray:
    out = patch.astype(np.float32) * rng.uniform(0.7, 1.25) + rng.uniform(-25, 25)
    out *= rng.uniform(0.9, 1.1, 3)[None, None, :]
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.0))
    return np.clip(out + rng.normal(0, rng.uniform(0, 6), out.shape), 0, 255).astype(np.uint8)


def build_net():
    import torch.nn as nn

    def cbr(i, o):
        return [nn.Conv2d(i, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    class Reader(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(*cbr(3, 16), *cbr(16, 24), nn.MaxPool2d(2), *cbr(24, 40), *cbr(40, 40),
                                      nn.MaxPool2d(2), *cbr(40, 64), *cbr(64, 64), nn.MaxPool2d(2), *cbr(64, 96),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
            self.head = nn.Linear(96, (len(RANKS) + 2) + (len(SUITS) + 2))

        def forward(self, x):
            return self.head(self.body(x))

    return Reader()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.vision.train_reader")
    parser.add_argument("--data", default="../shared/vision-data")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--steps", type=int, default=2500)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--drawn", type=int, default=500)
    parser.add_argument("--jitter", choices=sorted(JITTER), default="narrow", help="how far off patches are cut")
    parser.add_argument("--out", default=str(READER_PATH))
    args = parser.parse_args(argv)

    torch, rng, folder, names = start_training(args.seed, args.data)
    import torch.nn.functional as F
    t0 = time.time()
    real = scene_samples(folder, names)
    drawn = [drawn_sample(rng, table_first=False) for _ in range(args.drawn)]
    crop_folder = Path(args.data) / "crops"
    crop_names = sorted(n for n in json.loads((crop_folder / "labels.json").read_text()) if n.startswith("train-"))
    faces = crop_faces(crop_folder, crop_names, None)
    crops = [lay_cards(rng, [faces[int(i)] for i in rng.choice(len(faces), int(rng.integers(1, 3)), replace=False)])
             for _ in range(600)]
    pools = [(real, 0.55), (drawn, 0.15), (crops, 0.15)]
    print(f"{len(real)} photos, {len(drawn)} drawn scenes, {len(crops)} scenes of crops, {time.time() - t0:.0f} s",
          flush=True)

    def sample():
        u = rng.random()
        for pool, share in pools:
            if u < share:
                image, boxes = pool[int(rng.integers(len(pool)))]
                if len(boxes):
                    b = boxes[int(rng.integers(len(boxes)))]
                    return _colour(_jitter_patch(image, b, rng, jitter=JITTER[args.jitter]), rng), int(b[4]), int(b[5])
            u -= share
        image, boxes = (real + drawn + crops)[int(rng.integers(len(real) + len(drawn) + len(crops)))]
        b = _none_box(image, boxes, rng)
        if b is None:
            return sample()
        return _colour(_jitter_patch(image, b, rng, none=True), rng), NONE_RANK, NONE_SUIT

    net = build_net()
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.steps, pct_start=0.1)
    nr = len(RANKS) + 2
    net.train()
    for step in range(args.steps):
        batch = [sample() for _ in range(args.batch)]
        x = torch.from_numpy(np.stack([b[0] for b in batch]).transpose(0, 3, 1, 2).astype(np.float32) / 255.0)
        r = torch.tensor([b[1] for b in batch])
        s = torch.tensor([b[2] for b in batch])
        out = net(x)
        lr_, ls_ = F.cross_entropy(out[:, :nr], r), F.cross_entropy(out[:, nr:], s)
        loss = lr_ + ls_
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == args.steps - 1:
            acc = (out[:, :nr].argmax(1) == r).float().mean().item()
            print(f"step {step} rank {lr_.item():.3f} suit {ls_.item():.3f} rank right {acc:.2f} {time.time() - t0:.0f} s",
                  flush=True)
        if step % 500 == 499:
            export(net, args.out)
    export(net, args.out)
    return 0


def export(net, path: str) -> None:
    import torch

    net.eval()
    torch.onnx.export(net, torch.zeros(1, 3, PATCH, PATCH), path, input_names=["patch"], output_names=["out"],
                      opset_version=13, dynamic_axes={"patch": {0: "n"}, "out": {0: "n"}}, dynamo=False)
    net.train()
    print(f"saved {path} ({Path(path).stat().st_size / 1e6:.2f} MB)", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
