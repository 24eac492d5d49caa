"""Choosing the sure thresholds on the training photos: ``python -m tools.vision.thresholds``.

A wrong "sure" costs the table far more than a question, so the target allows at most 0.5% of
sure names to be cards not in the photo. The thresholds (:data:`hardware.vision.indexes.SURE_PAIR`
for a card seen at both indexes, ``SURE_ONE`` for a card seen at one) are chosen here on the
photos the models were trained on (``scenes/`` less the held-out fifth), never on the held-out
ones, whose figures (``python -m hardware.vision.bench --held-out``) then say how well the
choice carries over. Piles drawn by :mod:`hardware.vision.render` in random designs (other
decks, as the project's own tests read) are held to no wrong sure name at all, and with
``--crops-wrong`` the ``train-*`` crops (many designs) to that share. For each kind it
prints the lowest threshold at which the sure names of that kind keep to both (so both kinds
together do too), and how many cards that makes sure. ``SURE_PAIR_ANY`` (two agreeing indexes
sure however unsure the weaker is alone) is held by the ``tables/`` calibration photos too (other
decks on other tables, read as ``read_image`` reads them; ``--tables-wrong``): every threshold,
or with ``--tables-hold any`` that one only. A card seen at one index under ``SURE_ONE`` is also
sure from ``SURE_ONE_LOW`` when every reader alone gives it at least ``SURE_ONE_EACH``: that pair
is the one, of a grid set beforehand, that makes the most cards of every set sure while adding
no wrong sure name to any set.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import cv2
import numpy as np

from tools.vision import vision_data
from hardware.vision.corners import CornerDetector
from hardware.vision.indexes import cards_from_corners


Reading = tuple[bool, float, float, float, bool]


def _row(seen, right: bool) -> Reading:
    return seen.both_corners, seen.score, seen.least, seen.weakest, right


def index_readings(folder: Path, names: list[str], detector: CornerDetector) -> list[Reading]:
    """(seen at both indexes, score, probability at the less certain index, the least any reader
    gives it there, in the photo) of every card the indexes name in each photo."""
    labels = json.loads((folder / "labels.json").read_text())
    out = []
    for name in names:
        image = cv2.imread(str(folder / name))
        seen, _ = cards_from_corners(image, detector.detect(image))
        out += [_row(s, s.card in labels[name]["cards"]) for s in seen]
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


def crop_readings(folder: Path, names: list[str], detector: CornerDetector) -> list[Reading]:
    """As :func:`index_readings`, for pictures of one card each (``crops/``): right when it is that card."""
    from hardware.vision.recognise import index_cards

    labels = json.loads((folder / "labels.json").read_text())
    out = []
    for name in names:
        seen, _, _ = index_cards(cv2.imread(str(folder / name)), detector)   # as read_image looks
        out += [_row(s, s.card == labels[name]) for s in seen]
    return out


def table_readings(folder: Path, names: list[str], detector: CornerDetector) -> list[Reading]:
    """As :func:`index_readings`, for the ``tables/`` photos (other decks on other tables), read
    as :func:`hardware.vision.recognise.read_image` reads them: brightened when dim, looked at
    closer where the indexes are small."""
    from hardware.vision.indexes import Outlines
    from hardware.vision.recognise import brightened, index_cards

    labels = json.loads((folder / "labels.json").read_text())
    out = []
    for name in names:
        image = brightened(cv2.imread(str(folder / name)))
        seen, _, _ = index_cards(image, detector, Outlines(image))
        out += [_row(s, s.card in labels[name]["cards"]) for s in seen]
    return out


def drawn_readings(count: int, seed: int, detector: CornerDetector) -> list[Reading]:
    """As :func:`index_readings`, for ``count`` piles of 1 to 3 cards drawn by render.py in random
    designs (the kind of picture the project's own tests read); right when the card was laid."""
    from companion.cards import RANKS, SUITS
    from hardware.vision.render import random_scene

    rng = np.random.default_rng(seed)
    codes = [r + s for r in RANKS for s in SUITS]
    out = []
    for _ in range(count):
        laid = [str(c) for c in rng.choice(codes, int(rng.integers(1, 4)), replace=False)]
        image, _ = random_scene(rng, laid)
        seen, _ = cards_from_corners(image, detector.detect(image))
        out += [_row(s, s.card in laid) for s in seen]
    return out


def _columns(rows):
    a = np.array(rows, np.float64).reshape(-1, 5)
    return a[:, 0] > 0, a[:, 1], a[:, 2], a[:, 3], a[:, 4] > 0


def choose(sets: list[tuple[list, float]], any_sets: list[tuple[list, float]] = ()) -> dict:
    """The thresholds that keep each kind's sure names at most the given share wrong in every
    set of ``sets`` ((rows, share) each); for two indexes, the (joint, each) pair that makes the
    most cards of the first set sure, and the joint probability from which two indexes are sure
    however unsure the weaker is (kept in ``sets`` and ``any_sets`` too)."""
    cols = [(_columns(rows), wrong) for rows, wrong in sets]
    any_cols = cols + [(_columns(rows), wrong) for rows, wrong in any_sets]

    def lowest(pick, among=cols) -> float:
        t = max(lowest_threshold(score[pick(both, least)], right[pick(both, least)], wrong)[0]
                for (both, score, least, _, right), wrong in among)
        return min(1.0, math.ceil(t * 1e4) / 1e4)  # as written in indexes.py: rounded up, to stay safe

    best = None
    for each in EACH_STEPS:
        t = lowest(lambda both, least: both & (least >= each))
        both, score, least, _, _ = cols[0][0]
        n = int((both & (least >= each) & (score >= t)).sum())
        if best is None or n > best[0]:
            best = (n, t, each)
    one = lowest(lambda both, least: ~both)
    # Below SURE_PAIR it would make sure the pairs SURE_PAIR left unsure for each index's sake.
    weak = max(best[1], lowest(lambda both, least: both & (least < best[2]), any_cols))
    low, one_each = choose_one_each([c for c, _ in cols], one)
    return {"SURE_PAIR": best[1], "SURE_PAIR_EACH": best[2], "SURE_ONE": one, "SURE_PAIR_ANY": weak,
            "SURE_ONE_LOW": low, "SURE_ONE_EACH": one_each}


def one_each_adds(columns, one: float, low: float, each: float) -> tuple[int, int]:
    """(right, wrong) single indexes that ``low`` and ``each`` make sure beyond ``one``, in ``columns``."""
    both, score, _, weakest, right = columns
    added = ~both & (score < one) & (score >= low) & (weakest >= each)
    return int((added & right).sum()), int((added & ~right).sum())


def choose_one_each(sets: list, one: float) -> tuple[float, float]:
    """The (SURE_ONE_LOW, SURE_ONE_EACH) of the grid that adds the most right sure single
    indexes over ``sets`` (each :func:`_columns`) and no wrong one to any; (1.0, 1.0), the rule
    never applying, when every pair adds a wrong one. Ties go to the stricter pair."""
    best = (0, 1.0, 1.0)
    for low in ONE_LOW_STEPS:
        for each in ONE_EACH_STEPS:
            adds = [one_each_adds(columns, one, low, each) for columns in sets]
            right = sum(r for r, _ in adds)
            if all(w == 0 for _, w in adds) and right > best[0]:
                best = (right, low, each)
    return best[1], best[2]


def report(name: str, rows, th: dict) -> str:
    both, score, least, weakest, right = _columns(rows)
    one = (score >= th["SURE_ONE"]) | ((score >= th.get("SURE_ONE_LOW", 2.0)) & (weakest >= th.get("SURE_ONE_EACH", 2.0)))
    sure = ((both & (score >= th["SURE_PAIR"]) & (least >= th["SURE_PAIR_EACH"])) | (~both & one)
            | (both & (score >= th.get("SURE_PAIR_ANY", 2.0))))
    return (f"{name}: {len(rows)} cards named by their indexes ({int(both.sum())} at both), "
            f"{int(sure.sum())} sure, {int((sure & ~right).sum())} of them wrong")


# The "each" thresholds tried for two indexes, set beforehand.
EACH_STEPS = [round(0.5 + 0.05 * i, 2) for i in range(10)]
# The grid for one index sure from its weakest reader, set beforehand.
ONE_LOW_STEPS = [round(0.8 + 0.02 * i, 2) for i in range(8)]
ONE_EACH_STEPS = [round(0.7 + 0.01 * i, 2) for i in range(26)]


def main(argv=None) -> int:
    from tools.vision.train_corners import held_out_scenes

    parser = argparse.ArgumentParser(prog="python -m tools.vision.thresholds")
    parser.add_argument("--data", default="../shared/vision-data", type=vision_data)
    parser.add_argument("--wrong", type=float, default=0.005, help="share of sure names allowed wrong")
    parser.add_argument("--drawn", type=int, default=600, help="drawn piles (other designs) to keep to --drawn-wrong")
    parser.add_argument("--drawn-wrong", type=float, default=0.0,
                        help="share of the drawn piles' sure names allowed wrong (none: the project's own tests "
                             "read drawn piles and allow no wrong sure name)")
    parser.add_argument("--seed", type=int, default=13, help="the drawn piles' seed")
    parser.add_argument("--crops-wrong", type=float,
                        help="also keep the train-* crops' sure names (other designs, read as read_image reads "
                             "them) to this share wrong (default: not a constraint, only reported)")
    parser.add_argument("--tables-wrong", type=float, default=0.005,
                        help="the tables/ calibration photos' share of sure names allowed wrong")
    parser.add_argument("--tables-hold", choices=["any", "all"], default="all",
                        help="the thresholds the tables/ calibration photos hold: SURE_PAIR_ANY only, or every one")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    det = CornerDetector()
    folder = Path(args.data) / "scenes"
    held = set(held_out_scenes())
    names = sorted(n for n in json.loads((folder / "labels.json").read_text()) if n not in held)
    scenes = index_readings(folder, names, det)
    drawn = drawn_readings(args.drawn, args.seed, det)
    crop_folder = Path(args.data) / "crops"
    crop_names = sorted(n for n in json.loads((crop_folder / "labels.json").read_text()) if n.startswith("train-"))
    crops = crop_readings(crop_folder, crop_names, det)
    sets = [(scenes, args.wrong), (drawn, args.drawn_wrong)]
    if args.crops_wrong is not None:
        sets.append((crops, args.crops_wrong))
    # Other decks on other tables, read as read_image reads them: the calibration split of
    # hardware/vision/tables.py, which no model learns from (so they are as unsure there as on
    # a family's table) and which is never the held-out one.
    from hardware.vision.tables import names as table_names

    table_folder = Path(args.data) / "tables"
    photos = table_names(table_folder, "calibration")
    on_tables = table_readings(table_folder, photos, det)
    if args.tables_hold == "all":
        th = choose(sets + [(on_tables, args.tables_wrong)])
    else:
        th = choose(sets, [(on_tables, args.tables_wrong)])
    print(" ".join(f"{k} = {v}" for k, v in th.items()))
    print(report(f"{len(photos)} calibration photos of tables", on_tables, th))
    print(report(f"{len(names)} training scenes", scenes, th))
    print(report(f"{args.drawn} drawn piles", drawn, th))
    # Other designs' sure names go wrong more often even at strict thresholds (docs/vision.md,
    # "What fails"): with readers that never saw the crops, holding them to 2% left most real
    # cards unsure, so they are a constraint only when asked (--crops-wrong).
    used = "used to choose" if args.crops_wrong is not None else "not used to choose"
    print(report(f"{len(crop_names)} training crops ({used})", crops, th))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
