"""``jack-companion vision IMAGE... [--json]``: name the cards in still photos;
``jack-companion vision --explain IMAGE OUT.png``: draw what each reader saw (see
:mod:`hardware.vision.explain`).

One JSON line per image: {"image", "cards": [{"card", "sure", "score", "outline"}], "top", "ms"}.
An image that cannot be read gets ``IMAGE: reason`` on stderr and exit status 2; the rest are
still read. Without --json a short line a photo is printed for people.
"""

from __future__ import annotations

import json
import sys


def add_commands(sub) -> None:
    p = sub.add_parser("vision", help="name the cards in still photos (one JSON line per image with --json)")
    p.add_argument("images", nargs="*", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="one JSON line per image")
    p.add_argument("--explain", nargs=2, metavar=("IMAGE", "OUT.png"),
                   help="draw each outline, index box and name found in IMAGE into the picture OUT.png")
    p.set_defaults(func=cmd_vision, parser=p)


def cmd_vision(args) -> int:
    from hardware.vision.learned import default_classifier
    from hardware.vision.recognise import read_file

    if args.explain:
        if args.images:
            args.parser.error("--explain reads one IMAGE: give no other images with it")
        return cmd_explain(*args.explain)
    if not args.images:
        args.parser.error("give at least one IMAGE (or --explain IMAGE OUT.png)")
    clf = default_classifier()
    status = 0
    for path in args.images:
        try:
            line = read_file(path, clf)
        except ValueError as exc:
            print(f"{path}: {exc}", file=sys.stderr)
            status = 2
            continue
        if args.json:
            print(json.dumps(line), flush=True)
        else:
            names = ", ".join(f"{c['card']}{'' if c['sure'] else '?'}" for c in line["cards"]) or "no card"
            print(f"{path}: top {line['top'] or '-'}; seen {names} ({line['ms']} ms)", flush=True)
    return status


def cmd_explain(path: str, out: str) -> int:
    from hardware.vision.corners import default_detector
    from hardware.vision.explain import explain, said
    import numpy as np

    from hardware.vision.indexes import Outlines
    from hardware.vision.recognise import brightened, index_cards, load_image, read_image

    if not out.lower().endswith((".png", ".jpg", ".jpeg")):
        print(f"{out}: the picture to write must end in .png or .jpg", file=sys.stderr)
        return 2
    try:
        image = load_image(path)
    except ValueError as exc:
        print(f"{path}: {exc}", file=sys.stderr)
        return 2
    seen, top = read_image(image)
    image = brightened(image)  # a dim photo is drawn as it was read
    det = default_detector()
    corners, named = [], []
    if det is not None:
        # The indexes the readers kept, the closer look's among them, and every other peak.
        _, _, named = index_cards(image, det, Outlines(image))
        corners = [p for p in det.detect(image, read=False)
                   if all(np.hypot(p.x - c.x, p.y - c.y) > 0.5 * max(p.w, p.h) for c in named)] + list(named)
    picture = explain(image, seen, top, corners, named)
    import cv2

    if not cv2.imwrite(out, picture):
        print(f"{out}: could not write the picture there", file=sys.stderr)
        return 2
    print(f"{path}: top {top or '-'}; seen {said(seen)}; drawn in {out}", flush=True)
    return 0
