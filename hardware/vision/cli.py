"""``jack-companion vision IMAGE... [--json]``: name the cards in still photos.

One JSON line per image: {"image", "cards": [{"card", "sure", "score", "outline"}], "top", "ms"}.
An image that cannot be read gets ``IMAGE: reason`` on stderr and exit status 2; the rest are
still read. Without --json a short line a photo is printed for people.
"""

from __future__ import annotations

import json
import sys


def add_commands(sub) -> None:
    p = sub.add_parser("vision", help="name the cards in still photos (one JSON line per image with --json)")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="one JSON line per image")
    p.set_defaults(func=cmd_vision)


def cmd_vision(args) -> int:
    from hardware.vision.learned import default_classifier
    from hardware.vision.recognise import read_file

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
