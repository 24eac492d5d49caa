"""Choosing the card-corner model's sure threshold: ``python -m tools.vision.card_corner_thresholds``.

The model (:mod:`hardware.vision.card_corners`) is trained on the ``train-*`` crops less four a
card (``train_card_corners.CALIBRATION``); its threshold is chosen on those four, which it has
never seen, read as the bench reads a crop (:func:`hardware.vision.bench.crops`: the corner
indexes first, then the card straightened). The target allows 2% of the crops' sure names wrong:
the lowest threshold that keeps to it is printed, with the figures at each one tried, and how
often the model's own name was right at each score (it names nothing below ``NAMES_FROM``).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2

from companion.cards import RANKS, SUITS
from tools.vision import vision_data
from hardware.vision.bench import crops
from hardware.vision.card_corners import NAMES_FROM, CardCornerReader
from hardware.vision.detect import warp_card
from hardware.vision.learned import default_classifier
from hardware.vision.recognise import whole_picture
from tools.vision.train_card_corners import crop_names

TRIED = (0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.999)
BINS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97, 0.99, 1.0001)


def scores_table(folder: Path, names: list[str]) -> str:
    """How often the model's likeliest card is right, by its probability."""
    labels = json.loads((folder / "labels.json").read_text())
    reader = CardCornerReader()
    scores = []
    for name in names:
        image = cv2.imread(str(folder / name))
        joint, _ = reader.card_probabilities(warp_card(image, whole_picture(image)))
        if joint is not None and labels[name] != "joker":
            i = int(joint.argmax())
            scores.append((float(joint.ravel()[i]), RANKS[i // len(SUITS)] + SUITS[i % len(SUITS)] == labels[name]))
    rows = []
    for lo, hi in zip(BINS, BINS[1:]):
        got = [right for s, right in scores if lo <= s < hi]
        rows.append(f"  {lo:.2f} to {min(hi, 1.0):.2f}: {len(got)} named, {sum(got)} right")
    return "\n".join(rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.vision.card_corner_thresholds")
    parser.add_argument("--data", default="../shared/vision-data", type=vision_data)
    parser.add_argument("--wrong", type=float, default=0.02, help="share of the crops' sure names allowed wrong")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    folder = Path(args.data) / "crops"
    names = crop_names(folder, calibration=True)
    clf = default_classifier()
    chosen = None
    for sure in TRIED:
        got = crops(folder, clf, names=names, card_reader=CardCornerReader(sure=sure))
        wrong = round(got["sure_wrong"] * got["sure_names"])
        print(f"SURE = {sure}: {got['cards']} crops, {got['right']:.1%} right, {got['sure_names']} sure, "
              f"{wrong} of them wrong ({got['sure_wrong']:.1%}), {got['jokers_named']} of {got['jokers']} jokers named")
        if chosen is None and got["sure_wrong"] <= args.wrong:
            chosen = sure
    print(f"the model's name by its score (names nothing under {NAMES_FROM}):")
    print(scores_table(folder, names))
    print(f"chosen: SURE = {chosen}" if chosen is not None else "no threshold tried keeps to it")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
