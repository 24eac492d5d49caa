"""Training the corner-index detector: ``python -m tools.vision.train_corners --data DIR --seed N``.

Needs the ``train`` extra (PyTorch; see pyproject.toml), which the app itself never imports:
the result is exported to ``models/corners.onnx`` and read at run time by OpenCV's DNN module
(:mod:`hardware.vision.corners`).

The network looks at the whole photo (its longer side shrunk to ``INPUT``) and, on a grid of
8-pixel cells, says where a corner index is (a heat map peaking at each index's centre), how
big it is, and which rank and suit it shows (a joker's corner is a class of its own, so it is
found and then refused). It is trained on the labelled index boxes of ``scenes/`` (see the
data's SOURCES.md), less a fixed fifth that is never trained on (the same photos the older
corner model held out, ``corner.npz``'s ``held_out``), and on scenes drawn by
:mod:`hardware.vision.render` in random designs, whose index boxes are known. Photos are turned
by any angle, scaled, moved and re-lit at random each time they are shown.
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
from hardware.vision.corners import INPUT, MODEL_PATH, REFERENCE, STRIDE
from hardware.vision.render import (CARD_H, CARD_W, card_quad, light_and_blur, paste_card, random_style,
                                    render_card, texture)

CROP = 320  # training windows (the network is fully convolutional, any size a multiple of 32)
JOKER_RANK, JOKER_SUIT = len(RANKS), len(SUITS)


def label_of(card: str) -> tuple[int, int]:
    if card == "joker":
        return JOKER_RANK, JOKER_SUIT
    return RANKS.index(card[:-1]), SUITS.index(card[-1])


def held_out_scenes() -> list[str]:
    with np.load(str(MODEL_PATH.parent / "corner.npz")) as model:
        return sorted(str(n) for n in model["held_out"])


def start_training(seed: int, data: str):
    """(torch with one thread, as the machine is shared, and seeded; a numpy generator of the same
    seed; the scenes folder; the scene photos training may use, the held-out ones left out)."""
    import torch

    torch.set_num_threads(1)
    cv2.setNumThreads(1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    folder = Path(data) / "scenes"
    held = set(held_out_scenes())
    names = sorted(n for n in json.loads((folder / "labels.json").read_text()) if n not in held)
    return torch, rng, folder, names


def scene_samples(folder: Path, names: list[str]):
    """(image 720x720, boxes [[x, y, w, h, rank, suit]] in pixels) for each photo."""
    labels = json.loads((folder / "labels.json").read_text())
    out = []
    for name in names:
        image = cv2.imread(str(folder / name))
        h, w = image.shape[:2]
        boxes = []
        for card, corners in labels[name]["corners"].items():
            r, s = label_of(card)
            for cx, cy, bw, bh in corners:
                boxes.append([cx * w, cy * h, bw * w, bh * h, r, s])
        out.append((image, np.array(boxes, np.float32).reshape(-1, 6)))
    return out


def _index_box(style: dict) -> np.ndarray:
    """The drawn index's box on a card (as render.draw_index places it), four corners."""
    x = style.get("index_x", 0.105) * CARD_W
    top = style.get("index_top", 0.04) * CARD_H
    bottom = top + (style.get("rank_h", 0.085) + 0.02 + style.get("suit_h", 0.065)) * CARD_H
    half = 0.09 * CARD_W
    return np.array([[x - half, top], [x + half, top], [x + half, bottom], [x - half, bottom]], np.float32)


def lay_cards(rng: np.random.Generator, faces: list, scene: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Cards laid one on another (last on top) on a drawn table, turned, and the boxes of every
    index no later card covers. ``faces``: (card image, its index boxes as four corners in the
    card image's pixels, (rank, suit))."""
    size = 720
    scene = texture(size, size, rng) if scene is None else scene
    cx, cy = size * rng.uniform(0.3, 0.7), size * rng.uniform(0.3, 0.7)
    width = size * rng.uniform(0.2, 0.42)
    quads = []
    for i, (face, _, _) in enumerate(faces):
        q = card_quad(cx + rng.uniform(-0.15, 0.15) * size * (i > 0), cy + rng.uniform(-0.15, 0.15) * size * (i > 0),
                      width, rng.uniform(-180, 180))
        paste_card(scene, face, q)
        quads.append(q)
    scene = light_and_blur(scene, rng, blur=rng.uniform(0, 1.5), unevenness=rng.uniform(0, 0.6), noise=rng.uniform(0, 5))
    boxes = []
    for i, ((face, corners, (r, s)), q) in enumerate(zip(faces, quads)):
        fh, fw = face.shape[:2]
        src = np.array([[0, 0], [fw - 1, 0], [fw - 1, fh - 1], [0, fh - 1]], np.float32)
        m = cv2.getPerspectiveTransform(src, q)
        for c in corners:
            pts = cv2.perspectiveTransform(np.asarray(c, np.float32).reshape(-1, 1, 2), m).reshape(-1, 2)
            covered = any(cv2.pointPolygonTest(later.reshape(-1, 1, 2), (float(px), float(py)), False) >= 0
                          for later in quads[i + 1:] for px, py in list(pts) + [pts.mean(0)])
            if covered:
                continue
            x0, y0 = pts.min(0)
            x1, y1 = pts.max(0)
            boxes.append([(x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0, r, s])
    return scene, np.array(boxes, np.float32).reshape(-1, 6)


def drawn_sample(rng: np.random.Generator, table_first: bool = True):
    """A scene of 1 to 3 cards drawn by render.py in one random design. (``table_first``: the
    order the random draws were made in when the shipped detector was trained; the shipped
    reader was trained with the table drawn after the cards were chosen.)"""
    scene = texture(720, 720, rng) if table_first else None
    style = random_style(rng)
    n = int(rng.integers(1, 4))
    deck = [r + s for r in RANKS for s in SUITS] + ["joker"]
    box = _index_box(style)
    faces = []
    for code in rng.choice(deck, n, replace=False):
        if code == "joker":
            corners = [np.array([[6, 12], [0.2 * CARD_W, 12], [0.2 * CARD_W, 0.4 * CARD_H], [6, 0.4 * CARD_H]], np.float32)]
        else:
            corners = [box, np.array([CARD_W - 1, CARD_H - 1], np.float32) - box]
        faces.append((render_card(str(code), style), corners, label_of(str(code))))
    return lay_cards(rng, faces, scene)


def _quad(x: float, y: float, w: float, h: float) -> np.ndarray:
    """The four corners of a box given by its centre and size."""
    return np.array([[x - w / 2, y - h / 2], [x + w / 2, y - h / 2], [x + w / 2, y + h / 2], [x - w / 2, y + h / 2]],
                    np.float32)


def _near_a_corner(c, w: int, h: int) -> bool:
    """A find a crop's own card could have printed: near two edges of the picture, and clear."""
    return min(c.x, w - c.x) < 0.3 * w and min(c.y, h - c.y) < 0.35 * h and c.heat >= 0.4


def _printed_corners(w: int, h: int) -> list[np.ndarray]:
    """Where decks usually print their indexes: top left, and bottom right turned."""
    tl = np.array([[0.01 * w, 0.01 * h], [0.17 * w, 0.01 * h], [0.17 * w, 0.29 * h], [0.01 * w, 0.29 * h]], np.float32)
    return [tl, np.array([w - 1, h - 1], np.float32) - tl]


def _as_card(image: np.ndarray, corners: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The pictures are squeezed square: the card given back its shape, and its boxes with it."""
    h, w = image.shape[:2]
    return cv2.resize(image, (CARD_W, CARD_H)), [c * np.array([CARD_W / w, CARD_H / h], np.float32) for c in corners]


def crop_faces(folder: Path, names: list[str], detector_path: str | None):
    """Cards of many designs (``crops/``, each card filling its picture) with their index boxes:
    where a first detector finds indexes near the picture's corners, else where decks usually
    print them (top left, and bottom right turned)."""
    labels = json.loads((folder / "labels.json").read_text())
    det = None
    if detector_path:
        from hardware.vision.corners import CornerDetector

        det = CornerDetector(detector_path)
    out = []
    for name in names:
        image = cv2.imread(str(folder / name))
        h, w = image.shape[:2]
        corners = [_quad(c.x, c.y, c.w, c.h) for c in (det.detect(image) if det else []) if _near_a_corner(c, w, h)]
        face, corners = _as_card(image, corners or _printed_corners(w, h))
        out.append((face, corners, label_of(labels[name])))
    return out


def crop_pictures(folder: Path, names: list[str], detector_path: str | None):
    """As :func:`crop_faces` for the detector's own training (``--crops``): the index boxes are
    where a first detector finds indexes near the picture's corners, at the usual scale or twice
    as close (as ``recognise.index_cards`` looks), each also at the opposite corner when nothing
    was found there (a card's indexes are printed turned half round); else where decks usually
    print them (top left, and bottom right turned). Gives (faces for ``lay_cards``, the card given
    back its shape; pictures as they are, squeezed square, with their boxes in their own pixels)."""
    from hardware.vision.recognise import CLOSER

    labels = json.loads((folder / "labels.json").read_text())
    det = None
    if detector_path:
        from hardware.vision.corners import CornerDetector

        det = CornerDetector(detector_path, reader_path=None)
    faces, pictures = [], []
    for name in names:
        image = cv2.imread(str(folder / name))
        h, w = image.shape[:2]
        centres: list[tuple[float, float, float, float]] = []
        finds = det.detect(image) + det.detect(image, scale=CLOSER * det.scale_for(image)) if det else []
        for c in sorted(finds, key=lambda c: -c.heat):
            seen = any(abs(c.x - x) < max(bw, c.w) / 2 and abs(c.y - y) < max(bh, c.h) / 2 for x, y, bw, bh in centres)
            if _near_a_corner(c, w, h) and not seen:
                centres.append((c.x, c.y, c.w, c.h))
        for x, y, bw, bh in list(centres):
            mx, my = w - 1 - x, h - 1 - y
            if not any(abs(mx - x2) < max(bw, bw2) and abs(my - y2) < max(bh, bh2) for x2, y2, bw2, bh2 in centres):
                centres.append((mx, my, bw, bh))
        corners = [_quad(*centre) for centre in centres] or _printed_corners(w, h)
        label = label_of(labels[name])
        boxes = [[(c[:, 0].min() + c[:, 0].max()) / 2, (c[:, 1].min() + c[:, 1].max()) / 2,
                  c[:, 0].max() - c[:, 0].min(), c[:, 1].max() - c[:, 1].min(), *label] for c in corners]
        pictures.append((image, np.array(boxes, np.float32).reshape(-1, 6)))
        faces.append((*_as_card(image, corners), label))   # to lay on a drawn table
    return faces, pictures


def crop_sample(rng: np.random.Generator, faces: list, pictures: list):
    if rng.random() < 0.4:
        # The picture as read_image sees it, squeezed square; half the time twice as large, as
        # its closer look sees it.
        image, boxes = pictures[int(rng.integers(len(pictures)))]
        if rng.random() < 0.5:
            image = cv2.resize(image, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
            boxes = boxes * np.array([2, 2, 2, 2, 1, 1], np.float32)
        return image, boxes
    picks = rng.choice(len(faces), int(rng.integers(1, 4)), replace=False)
    return lay_cards(rng, [faces[int(i)] for i in picks])


def augment(image: np.ndarray, boxes: np.ndarray, rng: np.random.Generator, border=cv2.BORDER_REFLECT,
            unlabelled: np.ndarray | None = None, hard: bool = False):
    """A CROP x CROP window of the photo at the network's scale, turned, scaled, moved, re-lit;
    with the window's cells that lie in ``unlabelled`` boxes ([[x0, y0, x1, y1]]: cards whose
    indexes may not all be labelled), which the "no index" loss leaves out. ``hard`` adds what
    the tables' photos show and the scenes do not (``hard_look``)."""
    h, w = image.shape[:2]
    base = INPUT / max(REFERENCE, h, w)  # as hardware.vision.corners scales a photo
    scale = base * float(np.exp(rng.uniform(math.log(0.55), math.log(1.9))))
    angle = float(rng.uniform(-180, 180))
    if len(boxes) and rng.random() < 0.8:
        centre = boxes[int(rng.integers(len(boxes))), :2] + rng.normal(0, 40, 2)
    else:
        centre = np.array([rng.uniform(0, w), rng.uniform(0, h)])
    m = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle, scale)
    m[:, 2] += np.array([CROP / 2, CROP / 2]) - centre
    out = cv2.warpAffine(image, m, (CROP, CROP), flags=cv2.INTER_AREA if scale < 0.7 else cv2.INTER_LINEAR,
                         borderMode=border)
    mask = None
    if unlabelled is not None and len(unlabelled):
        mask = np.zeros((h, w), np.uint8)
        for x0, y0, x1, y1 in unlabelled.astype(int):
            mask[max(0, y0):max(0, y1), max(0, x0):max(0, x1)] = 255
        mask = cv2.warpAffine(mask, m, (CROP, CROP), flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT)
    tilt = None
    if hard:
        out, tilt = hard_look(out, rng)
        if tilt is not None and mask is not None:
            mask = cv2.warpPerspective(mask, tilt, (CROP, CROP), flags=cv2.INTER_NEAREST)
    skip = None if mask is None else cv2.resize(mask, (CROP // STRIDE, CROP // STRIDE), interpolation=cv2.INTER_AREA) > 0
    out = out.astype(np.float32) * rng.uniform(0.7, 1.25) + rng.uniform(-25, 25)
    out *= rng.uniform(0.9, 1.1, 3)[None, None, :]
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.2))
    out = np.clip(out + rng.normal(0, rng.uniform(0, 6), out.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.5:  # JPEG, as the camera and the photos give
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 95))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    nb = []
    a = math.radians(angle)
    ca, sa = abs(math.cos(a)), abs(math.sin(a))
    for x, y, bw, bh, r, s in boxes:
        px, py = m @ np.array([x, y, 1.0])
        if tilt is not None:
            px, py = cv2.perspectiveTransform(np.float32([[[px, py]]]), tilt)[0, 0]
        # A turned box: its glyphs' own extent turns with it, so take the smaller of the turned
        # box and the box as labelled (the labelled boxes are already tight round the glyphs).
        tw, th = (bw * ca + bh * sa), (bw * sa + bh * ca)
        nb.append([px, py, min(tw, max(bw, bh)) * scale, min(th, max(bw, bh)) * scale, r, s])
    return out, np.array(nb, np.float32).reshape(-1, 6), skip


def hard_look(window: np.ndarray, rng: np.random.Generator):
    """What fails on other tables (docs/vision.md, "Other decks on other tables"), each at
    random: a shadow across part of the window, a dim room, a tilt seen in perspective, motion
    blur, a vignette. Returns the window and the perspective's matrix (None when not tilted)."""
    out = window.astype(np.float32)
    n = out.shape[0]
    if rng.random() < 0.3:  # a shadow: a half-plane darkened, its edge soft
        a = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
        d = (xx - n / 2) * math.cos(a) + (yy - n / 2) * math.sin(a) - rng.uniform(-n / 3, n / 3)
        shade = 1 - rng.uniform(0.3, 0.65) / (1 + np.exp(np.clip(-d / rng.uniform(3, 25), -60, 60)))
        out *= shade[..., None]
    if rng.random() < 0.2:  # a dim room: less light and less contrast
        out = out * rng.uniform(0.3, 0.6) + rng.uniform(0, 30)
    tilt = None
    if rng.random() < 0.25:  # perspective: one side of the window farther away, up to about 40 degrees
        q = np.float32([[0, 0], [n, 0], [n, n], [0, n]])
        k = rng.uniform(0.05, 0.22) * n
        side = int(rng.integers(4))
        centre = np.float32([n / 2, n / 2])
        d = q.copy()
        for corner in (side, (side + 1) % 4):  # that side's two corners drawn in towards the middle
            d[corner] += (centre - q[corner]) * (k / n)
        tilt = cv2.getPerspectiveTransform(q, d)
        out = cv2.warpPerspective(out, tilt, (n, n), borderMode=cv2.BORDER_REFLECT)
    if rng.random() < 0.15:  # motion blur
        length = int(rng.integers(3, 9))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        kernel = cv2.warpAffine(kernel, cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5),
                                                                 float(rng.uniform(0, 180)), 1), (length, length))
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6))
    if rng.random() < 0.15:  # a vignette
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
        r = np.hypot(xx - rng.uniform(0, n), yy - rng.uniform(0, n)) / n
        out *= (1 - rng.uniform(0.2, 0.5) * np.clip(r, 0, 1) ** 2)[..., None]
    return np.clip(out, 0, 255).astype(np.uint8), tilt


def net_from_onnx(path: str):
    """The network with the weights of an exported detector, to train on from there. The export
    folds each batch norm into its convolution, so each batch norm becomes the identity plus the
    folded bias and stays frozen (``freeze_norms``): the network starts as exactly the export."""
    import onnx
    import torch
    from onnx import numpy_helper

    model = onnx.load(path)
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [(n.input[1], n.input[2] if len(n.input) > 2 else None) for n in model.graph.node if n.op_type == "Conv"]
    net = build_net()
    mods = list(net.modules())
    pairs = []  # (conv, batch norm after it or None), in the order the export runs them
    for k, mod in enumerate(mods):
        if isinstance(mod, torch.nn.Conv2d):
            after = mods[k + 1] if k + 1 < len(mods) and isinstance(mods[k + 1], torch.nn.BatchNorm2d) else None
            pairs.append((mod, after))
    heads = {id(net.heat), id(net.size), id(net.rank), id(net.suit)}
    body = [p for p in pairs if id(p[0]) not in heads]
    head_pairs = [(net.heat, None), (net.size, None), (net.rank, None), (net.suit, None)]
    by_name = {"heat": net.heat, "size": net.size, "rank": net.rank, "suit": net.suit}
    body_convs = [c for c in convs if not c[0].split(".")[0] in by_name]
    copy_folded(path, weights, body_convs, body)
    with torch.no_grad():
        for conv, _ in head_pairs:
            name = next(k for k, v in by_name.items() if v is conv)
            conv.weight.copy_(torch.from_numpy(weights[f"{name}.weight"]))
            conv.bias.copy_(torch.from_numpy(weights[f"{name}.bias"]))
    return net


def copy_folded(path: str, weights: dict, convs: list, pairs: list) -> None:
    """Each exported convolution's weights into its (convolution, batch norm) pair: the export
    folded the norm into the convolution's bias, so the norm becomes the identity plus that bias."""
    import torch

    if len(convs) != len(pairs):
        raise SystemExit(f"{path}: {len(convs)} convolutions, the network has {len(pairs)}")
    with torch.no_grad():
        for (wname, bname), (conv, norm) in zip(convs, pairs):
            conv.weight.copy_(torch.from_numpy(weights[wname]))
            norm.weight.fill_(1.0)
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
            norm.bias.copy_(torch.from_numpy(weights[bname]))


def freeze_norms(net) -> None:
    import torch

    net.norms_frozen = True
    for mod in net.modules():
        if isinstance(mod, torch.nn.BatchNorm2d):
            mod.eval()
            mod.weight.requires_grad_(False)


def targets(boxes: np.ndarray, size: int):
    """Heat map (1, g, g), size (2, g, g), rank and suit labels (g, g; -1 where none), weight."""
    g = size // STRIDE
    heat = np.zeros((g, g), np.float32)
    wh = np.zeros((2, g, g), np.float32)
    rank = np.full((g, g), -1, np.int64)
    suit = np.full((g, g), -1, np.int64)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for x, y, bw, bh, r, s in boxes:
        cx, cy = x / STRIDE - 0.5, y / STRIDE - 0.5
        if not (-1 <= cx <= g and -1 <= cy <= g):
            continue
        sigma = max(0.7, min(bw, bh) / STRIDE / 5)
        gauss = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma ** 2))
        heat = np.maximum(heat, gauss)
        near = gauss > 0.45
        rank[near], suit[near] = int(r), int(s)
        ix, iy = int(round(cx)), int(round(cy))
        if 0 <= ix < g and 0 <= iy < g:
            heat[iy, ix] = 1.0
            wh[:, iy, ix] = np.log(max(bw, 4) / STRIDE), np.log(max(bh, 4) / STRIDE)
    return heat[None], wh, rank, suit


def build_net():
    import torch.nn as nn

    def cbr(i, o, s=1):
        return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))

    class CornerNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.s4 = nn.Sequential(cbr(3, 16, 2), cbr(16, 24, 2), cbr(24, 24))
            self.s8 = nn.Sequential(cbr(24, 40, 2), cbr(40, 40))
            self.s16 = nn.Sequential(cbr(40, 64, 2), cbr(64, 64))
            self.s32 = nn.Sequential(cbr(64, 96, 2), cbr(96, 96))
            self.up16 = nn.Sequential(nn.Conv2d(96 + 64, 64, 1, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True), cbr(64, 64))
            self.up8 = nn.Sequential(nn.Conv2d(64 + 40, 48, 1, bias=False), nn.BatchNorm2d(48), nn.ReLU(inplace=True), cbr(48, 48))
            self.up = nn.Upsample(scale_factor=2, mode="nearest")
            self.heat = nn.Conv2d(48, 1, 1)
            self.size = nn.Conv2d(48, 2, 1)
            self.rank = nn.Conv2d(48, len(RANKS) + 1, 1)
            self.suit = nn.Conv2d(48, len(SUITS) + 1, 1)

        def forward(self, x):
            import torch

            f8 = self.s8(self.s4(x))
            f16 = self.s16(f8)
            f32 = self.s32(f16)
            u16 = self.up16(torch.cat([self.up(f32), f16], 1))
            u8 = self.up8(torch.cat([self.up(u16), f8], 1))
            return torch.cat([self.heat(u8), self.size(u8), self.rank(u8), self.suit(u8)], 1)

    return CornerNet()


def losses(out, heat, wh, rank, suit, skip=None):
    import torch
    import torch.nn.functional as F

    p = torch.sigmoid(out[:, :1]).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = 1 - pos
    # The focal loss of CenterNet: peaks at index centres, soft near them.
    lp = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    if skip is not None:  # cells of cards whose indexes may be unlabelled: no "no index" loss
        neg = neg * (1 - skip)
    ln = -(torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * neg).sum()
    npos = pos.sum().clamp(min=1)
    l_heat = (lp + ln) / npos
    l_size = (F.l1_loss(out[:, 1:3], wh, reduction="none") * pos).sum() / npos
    nr = len(RANKS) + 1
    l_rank = F.cross_entropy(out[:, 3:3 + nr], rank, ignore_index=-1)
    l_suit = F.cross_entropy(out[:, 3 + nr:], suit, ignore_index=-1)
    if torch.isnan(l_rank):
        l_rank = out.sum() * 0
    if torch.isnan(l_suit):
        l_suit = out.sum() * 0
    return l_heat, l_size, l_rank, l_suit


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.vision.train_corners")
    parser.add_argument("--data", default="../shared/vision-data", type=vision_data)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--stop-after", type=int, help="stop after this many steps (the learning-rate schedule still spans --steps)")
    parser.add_argument("--batch", type=int, default=12)
    parser.add_argument("--drawn", type=int, default=500, help="drawn scenes added to the photos")
    parser.add_argument("--crops", type=float, default=0.0,
                        help="share of training windows from crops/ train-* pictures (the valid-* ones are held out)")
    parser.add_argument("--boxes-from", help="a first detector (ONNX) to place the crops' index boxes")
    parser.add_argument("--border", choices=["reflect", "replicate"], default="reflect",
                        help="how windows past the picture's edge are filled (replicate suits --crops)")
    parser.add_argument("--tables", type=float, default=0.0,
                        help="share of training windows from the tables/ training split, its indexes mined "
                             "by the shipped detector and the readers with the labels' help (tables.mined_indexes)")
    parser.add_argument("--hard", action="store_true",
                        help="add shadows, dim rooms, perspective, motion blur and vignettes (hard_look)")
    parser.add_argument("--start-from", help="an exported detector (ONNX) to go on training from")
    parser.add_argument("--lr", type=float, default=3e-3, help="the learning rate's peak")
    parser.add_argument("--out", default=str(MODEL_PATH))
    parser.add_argument("--keep-every", action="store_true",
                        help="also keep each 1,000 steps' export beside --out (NAME-STEP.onnx), to compare them")
    args = parser.parse_args(argv)
    if args.start_from and not Path(args.start_from).is_file():   # said now, not after the photos are read
        parser.error(f"--start-from: no exported detector at {args.start_from}")

    torch, rng, folder, names = start_training(args.seed, args.data)
    t0 = time.time()
    samples = scene_samples(folder, names)
    samples += [drawn_sample(rng) for _ in range(args.drawn)]
    faces, pictures = [], []
    if args.crops > 0:
        crop_folder = Path(args.data) / "crops"
        crop_names = sorted(n for n in json.loads((crop_folder / "labels.json").read_text()) if n.startswith("train-"))
        faces, pictures = crop_pictures(crop_folder, crop_names, args.boxes_from)
    on_tables = []
    if args.tables > 0:
        from hardware.vision import tables

        table_folder = Path(args.data) / "tables"
        on_tables = tables.mined_indexes(table_folder, tables.names(table_folder, "models"),
                                         log=lambda line: print(line, flush=True))
    print(f"{len(names)} photos (held out {len(held_out_scenes())}), {args.drawn} drawn scenes, {len(faces)} crops, "
          f"{len(on_tables)} tables photos, {time.time() - t0:.0f} s", flush=True)

    border = cv2.BORDER_REFLECT if args.border == "reflect" else cv2.BORDER_REPLICATE
    net = net_from_onnx(args.start_from) if args.start_from else build_net()
    trained = [q for q in net.parameters() if q.requires_grad]
    opt = torch.optim.AdamW(trained, lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, total_steps=args.steps, pct_start=0.1)
    net.train()
    if args.start_from:
        freeze_norms(net)

    def window():
        if on_tables and rng.random() < args.tables:
            image, boxes, cards = on_tables[int(rng.integers(len(on_tables)))]
            return augment(image, boxes, rng, border, unlabelled=cards, hard=args.hard)
        sample = (crop_sample(rng, faces, pictures) if faces and rng.random() < args.crops
                  else samples[int(rng.integers(len(samples)))])
        return augment(*sample, rng, border, hard=args.hard)

    for step in range(args.steps):
        batch = [window() for _ in range(args.batch)]
        x = torch.from_numpy(np.stack([b[0] for b in batch]).transpose(0, 3, 1, 2).astype(np.float32) / 255.0)
        t = [targets(b[1], CROP) for b in batch]
        heat = torch.from_numpy(np.stack([a[0] for a in t]))
        wh = torch.from_numpy(np.stack([a[1] for a in t]))
        rank = torch.from_numpy(np.stack([a[2] for a in t]))
        suit = torch.from_numpy(np.stack([a[3] for a in t]))
        skip = None
        if any(b[2] is not None for b in batch):
            g = CROP // STRIDE
            skip = torch.from_numpy(np.stack([b[2] if b[2] is not None else np.zeros((g, g), bool)
                                              for b in batch]).astype(np.float32))[:, None]
        out = net(x)
        lh, ls, lr, lsu = losses(out, heat, wh, rank, suit, skip)
        loss = lh + 0.5 * ls + lr + lsu
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0 or step == args.steps - 1:
            print(f"step {step} heat {lh.item():.3f} size {ls.item():.3f} rank {lr.item():.3f} suit {lsu.item():.3f} "
                  f"{time.time() - t0:.0f} s", flush=True)
        if step % 1000 == 999:
            export(net, args.out)
            if args.keep_every:
                out = Path(args.out)
                out.with_name(f"{out.stem}-{step + 1}{out.suffix}").write_bytes(out.read_bytes())
        if args.stop_after and step + 1 >= args.stop_after:
            break
    export(net, args.out)
    return 0


def export(net, path: str) -> None:
    """The detector to ONNX for OpenCV: a photo of any size."""
    export_onnx(net, path, (INPUT, INPUT), "image", {"image": {2: "h", 3: "w"}, "out": {2: "gh", 3: "gw"}})


def export_onnx(net, path: str, size: tuple[int, int], name: str, axes: dict) -> None:
    """Any of the networks to ONNX (``axes``: its dynamic axes), then back to training as it was."""
    import torch

    net.eval()
    torch.onnx.export(net, torch.zeros(1, 3, *size), path, input_names=[name], output_names=["out"],
                      opset_version=13, dynamic_axes=axes, dynamo=False)
    net.train()
    if getattr(net, "norms_frozen", False):
        freeze_norms(net)
    print(f"saved {path} ({Path(path).stat().st_size / 1e6:.2f} MB)", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
