"""Card vision's figures: ``python -m hardware.vision.bench [--data DIR] [--limit N] [--held-out | --training] [--glyphs]``.

With the photographs in DIR (default ../shared/vision-data beside the repository; see its
SOURCES.md) it measures the targets in docs/vision.md on every photo, none left out:
scenes/ (top right, every fully visible card named sure, sure names not in the photo) and
crops/ (named right, sure-and-wrong, jokers named), tables/ (other decks on other tables:
hardware/vision/tables.py). Always: ms per 720x720 photo on one core, a deck of a design no
model saw read before and after the table teaches it (hardware/vision/teach_measure.py),
the pile watcher's CPU at 30 frames/s 640x480 and its report latency, and the synthetic game
of each of 12 seeds.
``--limit`` reads only the first N photos of each folder (a quick look, not the figures);
``--held-out`` reads only the photos the trained models never saw (the scenes held out, listed
in ``models/corner.npz``; the crops' ``valid-*`` files; the tables' held-out split),
``--training`` only the others;
``--slow-reader K`` also replays the camera bench's videos at 1280x720 to readers 2.5 to 4.5
times slower than this machine's, K schedules of skipped frames each (every card once, no phantom);
``--outlines`` reads by card outlines and corner glyphs, without the corner detector or the
card-corner model (as before them); ``--glyphs`` then uses the drawn glyphs alone, as before the corner model.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import cv2
import numpy as np

from hardware.vision.classify import builtin_classifier
from hardware.vision.learned import default_classifier
from hardware.vision.recognise import DEFAULT, read_image

HELD_OUT_CROPS = "valid-"  # the crops no model is trained on


def scenes(folder: Path, clf, limit=None, only=None, detector=DEFAULT) -> dict:
    labels = json.loads((folder / "labels.json").read_text())
    names = sorted(n for n in labels if only is None or n in only)[:limit]
    top_right = visible = visible_sure = sure = sure_absent = 0
    ms = []
    for name in names:
        truth = labels[name]
        image = cv2.imread(str(folder / name))
        t0 = time.process_time()
        seen, top = read_image(image, clf, detector)
        ms.append((time.process_time() - t0) * 1000)
        whole = [c for c in truth["cards"] if len(truth["corners"].get(c, [])) >= 2]
        top_right += top is not None and top in whole
        for c in whole:
            visible += 1
            visible_sure += any(s.card == c and s.sure for s in seen)
        for s in seen:
            if s.sure:
                sure += 1
                sure_absent += s.card not in truth["cards"]
    n = len(names)
    return {"photos": n, "top_right": top_right / n, "visible_named_sure": visible_sure / max(1, visible),
            "sure_names": sure, "sure_not_in_photo": sure_absent / max(1, sure),
            "ms_mean": float(np.mean(ms)), "ms_p95": float(np.percentile(ms, 95))}


def crops(folder: Path, clf, limit=None, held_out=False, detector=DEFAULT, training=False, names=None,
          card_reader=DEFAULT) -> dict:
    labels = json.loads((folder / "labels.json").read_text())
    names = sorted(n for n in labels if (not held_out or n.startswith(HELD_OUT_CROPS))
                   and not (training and n.startswith(HELD_OUT_CROPS)))[:limit] if names is None else names
    right = sure = sure_wrong = jokers = jokers_named = 0
    for name in names:
        truth = labels[name]
        image = cv2.imread(str(folder / name))
        # A crop is one card filling the picture: read_image reads it straightened when its
        # indexes leave it unsure (recognise._as_one_card).
        seen, top = read_image(image, clf, detector, card_reader)
        card, is_sure = top, any(s.sure for s in seen if s.card == top)
        if truth == "joker":
            jokers += 1
            jokers_named += card is not None
            continue
        right += card == truth
        if is_sure:
            sure += 1
            sure_wrong += card != truth
    n = len(names) - jokers
    return {"cards": n, "right": right / max(1, n), "sure_names": sure, "sure_wrong": sure_wrong / max(1, sure),
            "jokers": jokers, "jokers_named": jokers_named}


def watcher_figures(clf, detector=DEFAULT, video=None) -> dict:
    """The pile watcher on a synthetic video: Slapjack's game of seed 1, or ``video()`` (a whole
    Jacks round), every frame fed at once (``watch_timing.watch_video``, which ``jack-companion
    bench`` plays at 30 frames a second instead). Every card reported once in order, any asked
    unsure, and any phantom report."""
    from hardware.vision.synthetic import game_video
    from hardware.vision.watch_timing import watch_video

    out = watch_video(video() if video is not None else game_video(1), clf, detector, realtime=False)
    out["each_card_once"] = not out["missed"] and out["phantoms"] == 0
    out["unsure_reports"], out["phantom_reports"] = out["unsure"], out["phantoms"]
    return out


def synthetic_games(clf, detector=DEFAULT, seeds=range(1, 13), noise_seed: int | None = None,
                    noise: float = 2.0) -> dict:
    """The synthetic game of each seed watched as seed 1 is: how many games have every card
    reported once, sure, within a frame of its landing; how many have every card reported once
    (an unsure one as a question), and phantom reports of any kind. With ``noise_seed``, the same
    games through another draw of sensor noise of strength ``noise``."""
    from hardware.vision.synthetic import game_video
    from hardware.vision.watcher import PileWatcher
    from hardware.camera.device import Frame

    exact = once = phantoms = unsure = 0
    failed = {}
    for seed in seeds:
        frames, fps, truth = game_video(seed, noise_seed=noise_seed, noise=noise)
        events = []

        class Sink:
            def on_card(self, card, landed_at):
                events.append((card, landed_at, True))

            def on_unsure(self, candidates, landed_at):
                events.append((candidates[0], landed_at, False))

        w = PileWatcher(None, Sink(), classifier=clf, detector=detector)
        for i, f in enumerate(frames):
            w.feed(Frame(f, i / fps, i))
        in_time = len(events) == len(truth) and all(abs(t - tf / fps) <= 1 / fps + 1e-9
                                                     for (_, t, _), (_, tf) in zip(events, truth))
        right_once = in_time and all(c == tc for (c, _, _), (tc, _) in zip(events, truth))
        exact += right_once and all(sure for _, _, sure in events)
        once += in_time
        phantoms += max(0, len(events) - len(truth))
        unsure += sum(not sure for _, _, sure in events)
        if not (right_once and all(sure for _, _, sure in events)):
            failed[seed] = [(c, round(t * fps), sure) for c, t, sure in events]
    return {"games": len(seeds), "every_card_once_sure_in_time": exact, "every_card_once_in_time": once,
            "unsure_reports": unsure, "phantom_reports": phantoms, "not_exact": failed}


def slow_readers(clf, draws: int, detector=DEFAULT, slower=(2.5, 3.5, 4.5), size=(1280, 720)) -> dict:
    """The bench's camera videos (tools/bench/camera.py: two Slapjack games and a Jacks round)
    watched at ``size`` by readers 2.5 to 4.5 times slower than this one, ``draws`` schedules
    of skipped frames each (``watch_timing.watch_slow_reader``): every card once, no phantom."""
    from hardware.vision.synthetic import game_video, jacks_video
    from hardware.vision.watch_timing import watch_slow_reader

    videos = {"game 1": game_video(1), "game 2": game_video(2), "jacks": jacks_video()}
    runs, failed = 0, []
    for name, video in videos.items():
        for factor in slower:
            for seed in range(draws):
                r = watch_slow_reader(video, clf, factor, seed, size, detector)
                runs += 1
                if not r["exactly_once"]:
                    failed.append({"video": name, "slower": factor, "seed": seed, "reported": r["reported"],
                                   "missed": r["missed"], "phantoms": r["phantoms"]})
    return {"size": list(size), "runs": runs, "every_card_once": runs - len(failed),
            "phantoms": sum(f["phantoms"] for f in failed), "missed": sum(len(f["missed"]) for f in failed),
            "failed": failed}


def speed(clf, detector=DEFAULT) -> float:
    from hardware.vision.render import random_scene

    rng = np.random.default_rng(9)
    images = [random_scene(rng, ["7H", "QS"])[0] for _ in range(20)]
    t0 = time.process_time()
    for im in images:
        read_image(im, clf, detector)
    return (time.process_time() - t0) * 1000 / len(images)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.vision.bench")
    parser.add_argument("--data", help="the photographs (default: ../shared/vision-data from here, or beside the repository)")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--noise-draws", type=int, default=0, metavar="K",
                        help="also watch the synthetic games through K other draws of sensor noise")
    parser.add_argument("--noise", type=float, default=2.0, metavar="SIGMA",
                        help="the strength of those draws, in grey levels (the games' own: 2)")
    parser.add_argument("--slow-reader", type=int, default=0, metavar="K",
                        help="also watch the camera videos at 1280x720 with readers 2.5 to 4.5 times slower, "
                             "K schedules of skipped frames each")
    parser.add_argument("--held-out", action="store_true",
                        help="scenes: only the photos the trained model was not trained on; tables: the held-out split "
                             "(hardware/vision/tables.py); crops: all")
    parser.add_argument("--training", action="store_true",
                        help="only the photos the trained models were trained on (the sure thresholds are chosen there)")
    parser.add_argument("--outlines", action="store_true", help="by outlines and corner glyphs, without the corner detector")
    parser.add_argument("--glyphs", action="store_true",
                        help="by outlines and the drawn-glyph classifier alone (implies --outlines)")
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")
    if args.noise_draws < 0 or args.noise < 0 or args.slow_reader < 0:
        parser.error("--noise-draws, --noise and --slow-reader cannot be below 0")
    cv2.setNumThreads(1)  # one core, as the target says
    clf = builtin_classifier() if args.glyphs else default_classifier()
    detector = None if (args.outlines or args.glyphs) else DEFAULT
    from hardware.vision.synthetic import jacks_round_video

    out = {"ms_per_720_rendered_photo": speed(clf, detector), "watcher": watcher_figures(clf, detector),
           "watcher_jacks_round": watcher_figures(clf, detector, jacks_round_video),
           "synthetic_games": synthetic_games(clf, detector)}
    if args.noise_draws:
        out["synthetic_games_other_noise"] = {
            "noise": args.noise,
            "draws": [synthetic_games(clf, detector, noise_seed=k, noise=args.noise) for k in range(1, args.noise_draws + 1)]}
    if args.slow_reader:
        out["slow_readers"] = slow_readers(clf, args.slow_reader, detector)
    data = Path(args.data) if args.data else next(
        (p for p in (Path.cwd().parent / "shared" / "vision-data",
                     Path(__file__).resolve().parents[2].parent / "shared" / "vision-data") if p.exists()),
        Path("../shared/vision-data"))
    if (data / "scenes" / "labels.json").exists():
        only = None
        if args.held_out or args.training:
            from hardware.vision.learned import MODEL_PATH

            with np.load(str(MODEL_PATH)) as model:
                only = set(str(n) for n in model["held_out"])
            if args.training:
                only = set(json.loads((data / "scenes" / "labels.json").read_text())) - only
        out["scenes"] = scenes(data / "scenes", clf, args.limit, only, detector)
    if (data / "crops" / "labels.json").exists():
        out["crops"] = crops(data / "crops", clf, args.limit, args.held_out, detector, args.training,
                             card_reader=None if (args.outlines or args.glyphs) else DEFAULT)
    if (data / "tables" / "labels.json").exists():
        from hardware.vision import tables

        split = "held-out" if args.held_out else "training" if args.training else "all"
        out["tables"] = tables.measure(data / "tables", lambda image: read_image(image, clf, detector),
                                       split, args.limit)
        out["tables"]["split"] = split
    from hardware.vision import teach_measure

    out["taught_deck"] = teach_measure.measure()
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
