"""Choosing the card-corner model's sure threshold: ``python -m tools.vision.card_corner_thresholds``.

The model (:mod:`hardware.vision.card_corners`) is trained on the ``train-*`` crops less four a
card (``train_card_corners.CALIBRATION``); its threshold is chosen on those four, which it has
never seen, read as the bench reads a crop (:func:`hardware.vision.bench.crops`: the corner
indexes first, then the card straightened). The target allows 2% of the crops' sure names wrong:
the lowest threshold that keeps to it is printed, with the figures at each one tried, and how
often the model's own name was right at each score (it names nothing below ``NAMES_FROM``).

``--tables`` chooses ``SURE_EDGE`` instead: the threshold from which the model is sure on its own
of a card straightened by its own edge found in a photo (``recognise.weigh``). Every photo of the
``tables/`` calibration split (other decks on other tables, which no model learns from) and of
the rest of the training split (the models split) is read as ``read_image`` reads it, at each
level of ``EDGE_TRIED``; the names the edge made sure (sure with the edge found, unsure without
it) are counted, and the lowest level at which those names keep to ``--tables-wrong`` (0.5%, as
the other thresholds) on both splits is printed, with the figures at every level. It is never
below ``--edge-from`` (``EDGE_FROM``, the level the training photos chose before there was a
calibration split): where the photos make next to nothing sure by its edge they have no say,
and a level is not lowered on no evidence.
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
# SURE_EDGE's levels; at SURE (0.995) and above a found edge makes nothing sure the model is not
# sure of alone.
EDGE_TRIED = (0.9, 0.95, 0.97, 0.98, 0.985, 0.99, 0.995)
EDGE_FROM = 0.98  # the lowest SURE_EDGE chosen: the training photos' (docs/vision.md, "A card's own edge")
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


def edge_figures(folder: Path, photos: list[str], level: float, clf=None) -> dict:
    """The ``tables/`` photos ``photos`` (in ``folder``) read as ``read_image`` reads them with
    ``SURE_EDGE`` at ``level``: the figures of ``tables.Tally`` and, of the sure names, those the
    edge made sure (``edge_sure``; ``edge_wrong`` of them not in the photo, listed in ``edge_names``)."""
    from hardware.vision import recognise
    from hardware.vision.tables import Tally

    labels = json.loads((folder / "labels.json").read_text())
    clf = clf or default_classifier()
    weigh, was = recognise.weigh, recognise.SURE_EDGE
    made: list[str] = []

    def edge_weigh(card, glyphs, indexes, reader=recognise.DEFAULT, edge=False):
        got = weigh(card, glyphs, indexes, reader, edge)
        if edge and got is not None and got.sure:
            alone = weigh(card, glyphs, indexes, reader, False)
            if alone is None or not alone.sure:
                made.append(got.card)
        return got

    tally = Tally()
    edge_sure = edge_wrong = 0
    edge_names = []
    recognise.weigh, recognise.SURE_EDGE = edge_weigh, level
    try:
        for name in photos:
            made.clear()
            seen, top = recognise.read_image(cv2.imread(str(folder / name)), clf)
            truth = labels[name]
            tally.add(name, truth, seen, top, 0.0)
            for s in seen:
                if s.sure and s.card in made:
                    edge_sure += 1
                    edge_wrong += s.card not in truth["cards"]
                    edge_names.append(f"{name} {s.card}" + ("" if s.card in truth["cards"] else " (wrong)"))
    finally:
        recognise.weigh, recognise.SURE_EDGE = weigh, was
    out = tally.figures()
    out.update(edge_sure=edge_sure, edge_wrong=edge_wrong, edge_names=edge_names)
    return out


def lowest_edge(figures: dict[float, list[dict]], wrong: float, start: float = 0.0) -> float | None:
    """The lowest level of ``figures`` (level: the figures of each set of photos at it), from
    ``start``, at which every set's names made sure by the edge are at most ``wrong`` wrong; None
    when none is."""
    for level in sorted(level for level in figures if level >= start):
        if all(f["edge_wrong"] <= wrong * f["edge_sure"] for f in figures[level]):
            return level
    return None


def _share(x) -> str:
    return "-" if x is None else f"{x:.1%}"


def describe(name: str, f: dict) -> str:
    wrong = ", ".join(n for n in f["edge_names"] if n.endswith("(wrong)"))
    return (f"  {name}: {f['edge_sure']} names sure by their edge, {f['edge_wrong']} wrong"
            + (f" ({wrong})" if wrong else "")
            + f"; all: {_share(f['visible_named_sure'])} of {f['visible']} fully visible named sure, "
              f"{round((f['sure_not_in_photo'] or 0) * f['sure_names'])} of {f['sure_names']} sure names wrong, "
              f"top card {_share(f['top_right'])} of {f['top_photos']}, "
              f"single cards {_share(f['single_right'])} of {f['singles']}")


def choose_edge(data: str, wrong: float, levels=EDGE_TRIED, start: float = EDGE_FROM) -> float | None:
    """``SURE_EDGE`` chosen on the tables' calibration photos and the models split, from
    ``start`` (the figures at every level printed)."""
    from hardware.vision import tables

    folder = Path(data) / "tables"
    sets = [("calibration", tables.names(folder, "calibration")), ("models", tables.names(folder, "models"))]
    clf = default_classifier()
    figures = {}
    for level in levels:
        figures[level] = [edge_figures(folder, photos, level, clf) for _, photos in sets]
        print(f"SURE_EDGE = {level}:")
        for (split, photos), f in zip(sets, figures[level]):
            print(describe(f"{len(photos)} {split} photos", f), flush=True)
    free = lowest_edge(figures, wrong)
    if free is not None and free < start:
        print(f"(from {free} the photos keep to the share; not chosen under {start})")
    return lowest_edge(figures, wrong, start)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.vision.card_corner_thresholds")
    parser.add_argument("--data", default="../shared/vision-data", type=vision_data)
    parser.add_argument("--wrong", type=float, default=0.02, help="share of the crops' sure names allowed wrong")
    parser.add_argument("--tables", action="store_true",
                        help="choose SURE_EDGE (a card's own edge found in a photo) on the tables/ calibration "
                             "photos and the models split instead of SURE on the crops")
    parser.add_argument("--tables-wrong", type=float, default=0.005,
                        help="with --tables: the share of the names the edge made sure allowed wrong on each split")
    parser.add_argument("--edge-from", type=float, default=EDGE_FROM,
                        help="with --tables: the lowest SURE_EDGE chosen (the training photos' level)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.tables:
        chosen = choose_edge(args.data, args.tables_wrong, start=args.edge_from)
        print(f"chosen: SURE_EDGE = {chosen}" if chosen is not None else "no level tried keeps to it")
        return 0
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
