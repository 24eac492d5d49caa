"""Choosing the sure thresholds on the training photos: ``python -m hardware.vision.thresholds``.

A wrong "sure" costs the table far more than a question, so the issue allows at most 0.5% of
sure names to be cards not in the photo. The thresholds (:data:`hardware.vision.indexes.SURE_PAIR`
for a card seen at both indexes, ``SURE_ONE`` for a card seen at one) are chosen here on the
photos the models were trained on (``scenes/`` less the held-out fifth), never on the held-out
ones, whose figures (``python -m hardware.vision.bench --held-out``) then say how well the
choice carries over. For each kind it prints the lowest threshold at which the sure names of
that kind are at most ``--wrong`` wrong (so both together are too), and how many cards it
makes sure.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import cv2
import numpy as np

from hardware.vision.corners import CornerDetector
from hardware.vision.indexes import SURE_PAIR_EACH, cards_from_corners


def index_readings(folder: Path, names: list[str], detector: CornerDetector) -> list[tuple[bool, float, float, bool]]:
    """(seen at both indexes, score, probability at the less certain index, in the photo) of every
    card the indexes name in each photo."""
    labels = json.loads((folder / "labels.json").read_text())
    out = []
    for name in names:
        image = cv2.imread(str(folder / name))
        seen, _ = cards_from_corners(image, detector.detect(image))
        out += [(s.both_corners, s.score, s.least, s.card in labels[name]["cards"]) for s in seen]
    return out


def lowest_threshold(scores: np.ndarray, right: np.ndarray, wrong: float) -> tuple[float, int, int]:
    """(the lowest score t at which the names scoring at least t are at most ``wrong`` wrong,
    how many names that makes sure, how many of them are wrong); t is above every score when
    no threshold is good enough."""
    order = np.argsort(-scores)
    s, bad = scores[order], np.cumsum(~right[order])
    ok = np.nonzero(bad <= wrong * np.arange(1, len(s) + 1))[0]
    # Ties: a threshold takes every name of that score, so stop where the scores change.
    ok = [i for i in ok if i == len(s) - 1 or s[i + 1] < s[i]]
    if not ok:
        return float(np.nextafter(s.max(), 2.0)) if len(s) else 1.0, 0, 0
    i = ok[-1]
    return float(s[i]), int(i + 1), int(bad[i])


def main(argv=None) -> int:
    from hardware.vision.train_corners import held_out_scenes

    parser = argparse.ArgumentParser(prog="python -m hardware.vision.thresholds")
    parser.add_argument("--data", default="../shared/vision-data")
    parser.add_argument("--wrong", type=float, default=0.005, help="the share of sure names allowed to be wrong")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    folder = Path(args.data) / "scenes"
    held = set(held_out_scenes())
    names = sorted(n for n in json.loads((folder / "labels.json").read_text()) if n not in held)
    rows = index_readings(folder, names, CornerDetector())
    both = np.array([r[0] for r in rows], bool)
    score = np.array([r[1] for r in rows], np.float64)
    least = np.array([r[2] for r in rows], np.float64)
    right = np.array([r[3] for r in rows], bool)
    print(f"{len(names)} training photos, {len(rows)} cards named ({int(both.sum())} at both indexes)")
    pair = both & (least >= SURE_PAIR_EACH)
    for kind, pick in (("SURE_PAIR", pair), ("SURE_ONE", ~both)):
        t, n, bad = lowest_threshold(score[pick], right[pick], args.wrong)
        t = math.floor(t * 1e4) / 1e4  # as written in indexes.py: no name lost to rounding
        print(f"{kind} = {t:.4f}: {n} of {int(pick.sum())} sure, {bad} of them wrong")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
