"""The camera part of the bench (``python -m tools.bench``): the pile watcher on the synthetic game video
played at 30 frames a second, and the videos the camera's slap races play.

    python -m tools.bench.camera make DIR [--quick]     the videos, as .npy files in DIR
    python -m tools.bench.camera watch DIR [--quick]    the watcher's figures, as JSON

The videos are made once, by the bench's own process (``make``, uncapped, off the measured
CPU under ``--pi``), and read by the measured children from memory-mapped files: a frame comes
from the page cache as a camera's comes by DMA, and no child spends its capped share drawing
cards. The measurement itself is ``hardware.vision.watch_timing.watch_video``, the one the vision
bench (``python -m hardware.vision.bench``) takes too; docs/benchmarks.md says what each figure is.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

SIZES = ((640, 480), (1280, 720))
WATCH_SEEDS = (1, 2)                  # Slapjack's synthetic games (7 cards each); and a Jacks round (12)
QUICK_WATCH_SEEDS = (1,)
HOLD_MS = 50                           # the slow reader: this much longer on every frame than it needs
# The camera's slap races: each game four Jacks, each laid on a card and gathered once won.
SLAP_CARDS = ("7H", "JS", "KS", "JD", "4C", "JH", "QD", "JC")
SLAP_GAMES, QUICK_SLAP_GAMES = 6, 1


def wanted(quick: bool) -> dict[str, dict]:
    """The videos a run plays, by file name: (which game, its seed)."""
    out = {f"watch-{seed}": {"seed": seed} for seed in (QUICK_WATCH_SEEDS if quick else WATCH_SEEDS)}
    if not quick:
        out["watch-jacks"] = {"jacks": True}
    for game in range(QUICK_SLAP_GAMES if quick else SLAP_GAMES):
        out[f"slap-{game + 1}"] = {"seed": 100 + game, "cards": SLAP_CARDS, "trick": 2}
    return out


def make(folder: Path, quick: bool) -> list[str]:
    from hardware.vision.synthetic import game_video, jacks_video

    for name, how in wanted(quick).items():
        if how.get("jacks"):
            frames, fps, truth = jacks_video()
        else:
            frames, fps, truth = game_video(how["seed"], cards=how.get("cards", ("7H", "KS", "JD", "4C", "10H", "QD",
                                                                                  "AS")), trick=how.get("trick"))
        save(folder, name, (frames, fps, truth))
    return list(wanted(quick))


def save(folder: Path, name: str, video) -> None:
    """A video (frames, fps, truth) as the camera part reads it: the frames in ``name.npy``,
    the truth and each card's still frame in ``name.json``."""
    import numpy as np

    from hardware.vision.watch_timing import still_from

    frames, fps, truth = video
    folder.mkdir(parents=True, exist_ok=True)
    np.save(folder / f"{name}.npy", np.stack(frames))
    still = still_from(frames, truth, settle_frames())
    (folder / f"{name}.json").write_text(json.dumps({"fps": fps, "truth": truth, "still": still}))


def settle_frames() -> int:
    """How many still frames the pile watcher waits for (its default)."""
    import inspect

    from hardware.vision.watcher import PileWatcher

    return inspect.signature(PileWatcher).parameters["settle"].default


def load(folder: Path, name: str, with_still: bool = False):
    """(frames, fps, truth) of a made video, and with ``with_still`` the frame each card's pile
    lies still from (``watch_timing.still_from``); the frames memory-mapped, read as played."""
    import numpy as np

    about = json.loads((folder / f"{name}.json").read_text())
    video = np.load(folder / f"{name}.npy", mmap_mode="r"), about["fps"], [tuple(t) for t in about["truth"]]
    return (*video, about["still"]) if with_still else video


def watch(folder: Path, quick: bool) -> dict:
    import cv2

    from hardware.vision.learned import default_classifier
    from hardware.vision.watch_timing import merge, watch_video

    cv2.setNumThreads(1)   # one core, as on the app's camera thread
    clf = default_classifier()
    names = [n for n in wanted(quick) if n.startswith("watch-")]
    out = {"videos": names}
    for size in SIZES:
        out[f"{size[0]}x{size[1]}"] = merge([watch_video(load(folder, n), clf, size=size) for n in names])
    out["slow_reader"] = merge([watch_video(load(folder, names[0]), clf, hold_s=HOLD_MS / 1000)])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.camera")
    parser.add_argument("what", choices=("make", "watch"))
    parser.add_argument("folder")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.what == "make":
        print(json.dumps(make(Path(args.folder), args.quick)))
    else:
        print(json.dumps(watch(Path(args.folder), args.quick)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
