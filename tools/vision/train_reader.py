"""Training the index reader: ``python -m tools.vision.train_reader --data DIR --seed N``.

Needs the ``train`` extra (PyTorch), like :mod:`tools.vision.train_corners`. The reader
names one corner index from a small square patch cut round it at full resolution
(:func:`hardware.vision.corners.index_patch`): its rank (or a joker's letters, or "no index at
all") and its suit (the same two extra classes). Indexes are taken from the labelled boxes of
``scenes/`` (less the held-out fifth), from cards drawn by :mod:`hardware.vision.render`, and
from the ``train-*`` pictures of ``crops/`` (their ``valid-*`` ones are held out); each is cut
a little off centre, a little too big or small and turned by any angle, as the detector's
boxes and a real table give them. Patches of table, card faces and pictures away from any
index are "no index". With ``--detected``, part of each batch is cut where the detector
(``models/corners.onnx``) actually puts its boxes on the training photos, each turned a
quarter at a time: a find within a labelled box is that index, a find far from every labelled
box is "no index" (what lies between is left out), so the reader learns the detector's own
errors of place and size and its false finds (``--detected-drawn``: on the drawn scenes too).
With ``--crop-finds``, part of each batch is cut where the detector finds indexes on the
``train-*`` crops, at the scales :func:`hardware.vision.recognise.read_image` looks at them
(the closer look included), named by the crop's own label near a corner and "no index" far
from every corner, so the reader learns the indexes of many designs where they are really cut.
With ``--tables``, part of each batch is cut from real photos of other decks on other tables
(the ``tables/`` models split, :func:`hardware.vision.tables.names`): at the indexes :func:`hardware.vision.tables.mined_indexes`
finds with the labels' help, named by the card whose box holds them, and at the detector's finds
outside every card's box, "no index". With ``--start-from``, training goes on from exported
readers (one run for each, the photos read once), as the detector's does.
Exported to ``models/reader.onnx`` (``--out`` for another name).
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
from tools.vision import vision_data
from hardware.vision.corners import MODEL_PATH, PATCH, READER_PATH, index_patch
from tools.vision.train_corners import (crop_faces, drawn_sample, lay_cards, scene_samples,
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


def _turned(image, boxes, quarter):
    """The photo turned by ``quarter`` right angles (anticlockwise) and its boxes with it."""
    if quarter == 0:
        return image, boxes
    h, w = image.shape[:2]
    out = np.rot90(image, quarter).copy()
    b = boxes.copy()
    for _ in range(quarter):  # (x, y) -> (y, w - x), one quarter anticlockwise
        b[:, 0], b[:, 1] = b[:, 1].copy(), w - b[:, 0]
        b[:, 2], b[:, 3] = b[:, 3].copy(), b[:, 2].copy()
        h, w = w, h
    return out, b


def detected_finds(samples, detector_path, quarters=(0, 1, 2, 3)):
    """[(image, [x, y, size, rank, suit])]: where the detector puts each index it finds on each
    photo (turned by each of ``quarters``), labelled by the labelled box it falls in, or "no
    index" when it lies far from every labelled box (its own size or more)."""
    from hardware.vision.corners import CornerDetector

    det = CornerDetector(detector_path, reader_path=None)
    out = []
    for image, boxes in samples:
        for q in quarters:
            img, b = _turned(image, boxes, q)
            finds = []
            for c in det.detect(img):
                size = max(c.w, c.h)
                inside = [k for k in range(len(b)) if abs(c.x - b[k, 0]) <= b[k, 2] / 2 and abs(c.y - b[k, 1]) <= b[k, 3] / 2]
                if inside:
                    k = min(inside, key=lambda k: np.hypot(c.x - b[k, 0], c.y - b[k, 1]))
                    finds.append([c.x, c.y, size, b[k, 4], b[k, 5]])
                elif all(np.hypot(c.x - bx, c.y - by) > max(size, bw, bh) for bx, by, bw, bh in b[:, :4]):
                    finds.append([c.x, c.y, size, NONE_RANK, NONE_SUIT])
            if finds:
                out.append((img, np.array(finds, np.float32)))
    return out


# Where an index lies in a crop (the card filling the picture), as the share of the picture's
# side from its nearest edge: nearer both edges than INDEX_IN, the crop's own card; farther
# than NONE_PAST from either, "no index" (a pip, a picture); what lies between is left out.
CROP_INDEX_IN = (0.2, 0.27)
CROP_NONE_PAST = (0.3, 0.4)


def crop_finds(folder: Path, names: list[str], detector_path, quarters=(0, 1, 2, 3)):
    """[(image, [x, y, size, rank, suit])]: where the detector finds indexes on each crop (turned
    by each of ``quarters``) at the scales :func:`hardware.vision.recognise.read_image` looks at
    it (the usual one and, a picture this small, the closer look), labelled with the crop's own
    card (its label) near a corner and "no index" far from every corner."""
    from hardware.vision.corners import CornerDetector
    from hardware.vision.recognise import CLOSER, CLOSER_UP_TO
    from tools.vision.train_corners import label_of

    labels = json.loads((folder / "labels.json").read_text())
    det = CornerDetector(detector_path, reader_path=None)
    out = []
    for name in names:
        r, s = label_of(labels[name])
        image = cv2.imread(str(folder / name))
        for q in quarters:
            img = np.rot90(image, q).copy() if q else image
            h, w = img.shape[:2]
            scales = [det.scale_for(img)] + ([CLOSER * det.scale_for(img)] if max(h, w) <= CLOSER_UP_TO else [])
            for scale in scales:
                finds = []
                for c in det.detect(img, scale=scale):
                    nx, ny = min(c.x, w - c.x) / w, min(c.y, h - c.y) / h
                    size = max(c.w, c.h)
                    if nx < CROP_INDEX_IN[0] and ny < CROP_INDEX_IN[1]:
                        finds.append([c.x, c.y, size, r, s])
                    elif nx > CROP_NONE_PAST[0] or ny > CROP_NONE_PAST[1]:
                        finds.append([c.x, c.y, size, NONE_RANK, NONE_SUIT])
                if finds:
                    out.append((img, np.array(finds, np.float32)))
    return out


def table_finds(folder: Path, detector_path, log=print):
    """[(image, [x, y, size, rank, suit])] for the ``tables/`` models split: the indexes
    :func:`hardware.vision.tables.mined_indexes` takes, named by their cards, and the detector's
    finds lying outside every labelled card (a little beyond its box), "no index": clutter on a
    table, a pattern on the cloth. What lies inside a card's box and was not mined is left out."""
    from hardware.vision import tables
    from hardware.vision.corners import CornerDetector
    from hardware.vision.recognise import CLOSER_CARDS, CLOSER_MAX

    raw = CornerDetector(detector_path, reader_path=None)  # its false finds, before a reader drops them
    out = []
    for image, indexes, cards in tables.mined_indexes(folder, tables.names(folder, "models"),
                                                      CornerDetector(detector_path), log=log):
        finds = [[x, y, max(w, h), r, s] for x, y, w, h, r, s in indexes]
        usual = raw.scale_for(image)
        closer = min(CLOSER_CARDS * usual, CLOSER_MAX / max(image.shape[:2]))
        for c in raw.detect(image, usual) + raw.detect(image, closer):  # read_image's two looks
            if all(not (x0 - c.w <= c.x <= x1 + c.w and y0 - c.h <= c.y <= y1 + c.h) for x0, y0, x1, y1 in cards):
                finds.append([c.x, c.y, max(c.w, c.h), NONE_RANK, NONE_SUIT])
        if finds:
            out.append((image, np.array(finds, np.float32)))
    return out


def recoloured(patch: np.ndarray, rng) -> np.ndarray:
    """The patch re-lit: brighter or darker, tinted, sometimes blurred, with sensor noise."""
    out = patch.astype(np.float32) * rng.uniform(0.7, 1.25) + rng.uniform(-25, 25)
    out *= rng.uniform(0.9, 1.1, 3)[None, None, :]
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.0))
    return np.clip(out + rng.normal(0, rng.uniform(0, 6), out.shape), 0, 255).astype(np.uint8)


def cbr(i, o):
    """A 3x3 convolution, its batch norm and a ReLU: the readers' and the card-corner model's block."""
    import torch.nn as nn

    return [nn.Conv2d(i, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]


def build_net():
    import torch.nn as nn

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


def reader_from_onnx(path: str):
    """The network with the weights of an exported reader. As for the detector
    (:func:`tools.vision.train_corners.net_from_onnx`), each batch norm, folded into its
    convolution by the export, becomes the identity plus the folded bias, kept frozen."""
    import onnx
    import torch
    from onnx import numpy_helper

    from tools.vision.train_corners import copy_folded

    model = onnx.load(path)
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [(n.input[1], n.input[2]) for n in model.graph.node if n.op_type == "Conv"]
    net = build_net()
    mods = list(net.body)
    pairs = [(m, mods[k + 1]) for k, m in enumerate(mods) if isinstance(m, torch.nn.Conv2d)]
    copy_folded(path, weights, convs, pairs)
    with torch.no_grad():
        net.head.weight.copy_(torch.from_numpy(weights["head.weight"]))
        net.head.bias.copy_(torch.from_numpy(weights["head.bias"]))
    return net


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.vision.train_reader")
    parser.add_argument("--data", default="../shared/vision-data", type=vision_data)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--steps", type=int, default=2500)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--drawn", type=int, default=500)
    parser.add_argument("--jitter", choices=sorted(JITTER), default="narrow", help="how far off patches are cut")
    parser.add_argument("--detected", type=float, default=0.0,
                        help="share of each batch cut where the detector puts its boxes on the training photos")
    parser.add_argument("--detector", default=str(MODEL_PATH), help="the detector whose boxes --detected cuts")
    parser.add_argument("--detected-drawn", action="store_true",
                        help="--detected also cuts where the detector puts its boxes on the drawn scenes")
    parser.add_argument("--crop-finds", type=float, default=0.0,
                        help="share of each batch cut where the detector finds indexes on the train-* crops, "
                             "at the scales read_image looks at them (labelled with the crop's card)")
    parser.add_argument("--crop-boxes", action="store_true",
                        help="the crops laid into scenes take their index boxes from the detector's finds "
                             "(crop_faces), not where decks usually print them")
    parser.add_argument("--tables", type=float, default=0.0,
                        help="share of each batch cut from the tables/ models split (table_finds)")
    parser.add_argument("--start-from", nargs="+", metavar="ONNX",
                        help="exported readers to go on training from, one after the other (as many --out)")
    parser.add_argument("--lr", type=float, default=3e-3, help="the learning rate's peak")
    parser.add_argument("--out", nargs="+", default=[str(READER_PATH)])
    args = parser.parse_args(argv)
    starts = args.start_from or [None]
    if len(args.out) != len(starts):
        parser.error(f"{len(starts)} readers to train, {len(args.out)} --out")
    missing = [p for p in starts if p and not Path(p).is_file()]
    if missing:   # said now, not after the photos have been read
        parser.error(f"--start-from: no exported reader at {', '.join(missing)}")
    # The finds' shares come out of the labelled boxes' 85% of each batch (the rest is "no index").
    if args.detected + args.crop_finds + args.tables >= 0.85:
        parser.error(f"--detected, --crop-finds and --tables add up to "
                     f"{args.detected + args.crop_finds + args.tables:g}: they must stay under 0.85")

    torch, rng, folder, names = start_training(args.seed, args.data)
    t0 = time.time()
    real = scene_samples(folder, names)
    drawn = [drawn_sample(rng, table_first=False) for _ in range(args.drawn)]
    crop_folder = Path(args.data) / "crops"
    crop_names = sorted(n for n in json.loads((crop_folder / "labels.json").read_text()) if n.startswith("train-"))
    faces = crop_faces(crop_folder, crop_names, args.detector if args.crop_boxes else None)
    crops = [lay_cards(rng, [faces[int(i)] for i in rng.choice(len(faces), int(rng.integers(1, 3)), replace=False)])
             for _ in range(600)]
    pools = [(real, 0.55), (drawn, 0.15), (crops, 0.15)]
    finds, cfinds = [], []
    if args.detected > 0:
        finds = detected_finds(real, args.detector)
        if args.detected_drawn:
            finds += detected_finds(drawn, args.detector, quarters=(0,))
    if args.crop_finds > 0:
        cfinds = crop_finds(crop_folder, crop_names, args.detector)
    tfinds = []
    if args.tables > 0:
        tfinds = table_finds(Path(args.data) / "tables", args.detector, log=lambda line: print(line, flush=True))
    found = args.detected + args.crop_finds + args.tables
    # The detector's shares come out of the true boxes' shares, in proportion.
    pools = [(pool, share * (1 - found / 0.85)) for pool, share in pools]

    def count(fs):
        return sum(len(f) for _, f in fs), sum(int((f[:, 3] == NONE_RANK).sum()) for _, f in fs)

    print(f"{len(real)} photos, {len(drawn)} drawn scenes, {len(crops)} scenes of crops, "
          "%d detector finds (%d no index), " % count(finds) + "%d finds on crops (%d no index), " % count(cfinds)
          + "%d on tables (%d no index), " % count(tfinds)
          + f"{time.time() - t0:.0f} s", flush=True)

    def sample():
        u = rng.random()
        if u < found:
            pool = finds if u < args.detected else cfinds if u < args.detected + args.crop_finds else tfinds
            image, f = pool[int(rng.integers(len(pool)))]
            x, y, size, r, s = f[int(rng.integers(len(f)))]
            # A little further off, as the detector's boxes on photos it never saw may be.
            dx, dy = rng.normal(0, 0.04 * size, 2)
            g = float(np.exp(rng.uniform(math.log(0.9), math.log(1.1))))
            patch = index_patch(image, x + dx, y + dy, size * g, float(rng.uniform(0, 360)))
            return recoloured(patch, rng), int(r), int(s)
        u -= found
        for pool, share in pools:
            if u < share:
                image, boxes = pool[int(rng.integers(len(pool)))]
                if len(boxes):
                    b = boxes[int(rng.integers(len(boxes)))]
                    return recoloured(_jitter_patch(image, b, rng, jitter=JITTER[args.jitter]), rng), int(b[4]), int(b[5])
            u -= share
        image, boxes = (real + drawn + crops)[int(rng.integers(len(real) + len(drawn) + len(crops)))]
        b = _none_box(image, boxes, rng)
        if b is None:
            return sample()
        return recoloured(_jitter_patch(image, b, rng, none=True), rng), NONE_RANK, NONE_SUIT

    for start, out in zip(starts, args.out):
        train(torch, start, out, sample, args.steps, args.batch, args.lr, t0)
    return 0


def train(torch, start, out_path, sample, steps, batch_size, lr, t0) -> None:
    """Trains one reader (from scratch, or on from the export ``start``) on ``sample``'s patches."""
    import torch.nn.functional as F
    from tools.vision.train_corners import freeze_norms

    net = reader_from_onnx(start) if start else build_net()
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.1)
    nr = len(RANKS) + 2
    net.train()
    if start:
        freeze_norms(net)
    for step in range(steps):
        batch = [sample() for _ in range(batch_size)]
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
        if step % 100 == 0 or step == steps - 1:
            acc = (out[:, :nr].argmax(1) == r).float().mean().item()
            print(f"step {step} rank {lr_.item():.3f} suit {ls_.item():.3f} rank right {acc:.2f} {time.time() - t0:.0f} s",
                  flush=True)
        if step % 500 == 499:
            export(net, out_path)
    export(net, out_path)


def export(net, path: str, size: tuple[int, int] = (PATCH, PATCH), name: str = "patch") -> None:
    """The network to ONNX for OpenCV: a batch of any length of ``size`` (height, width) pictures."""
    from tools.vision.train_corners import export_onnx

    export_onnx(net, path, size, name, {name: {0: "n"}, "out": {0: "n"}})


if __name__ == "__main__":
    raise SystemExit(main())
