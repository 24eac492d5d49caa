"""The command-line tools that need no screen: ``replay``, ``simulate``, ``export``, ``import``.

``ui.launcher`` builds the whole ``jack-companion`` command from these and the screen's own.
Every failure a person can cause ends in one clear line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import paths
from .engine import Game
from .errors import GameError, LogError

EXIT_BAD_INPUT = 2


def fail(message: str) -> int:
    print(message, file=sys.stderr)
    return EXIT_BAD_INPUT


def read_file(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    return Path(name).read_bytes()


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        game = Game.from_bytes(read_file(args.file))
    except OSError as exc:
        return fail(f"{args.file}: {exc.strerror or exc}")
    except LogError as exc:
        return fail(str(exc))
    if args.json:
        print(json.dumps(game.summary(), ensure_ascii=False))
    else:
        print("\n".join(game.rules.describe(game.state)))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from .store import Store, StoreError

    store = Store(paths.store_path(paths.data_dir(args.data_dir)))
    try:
        text = store.export_text(args.game_id)
    except StoreError as exc:
        return fail(str(exc))
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from .store import Store

    try:
        data = read_file(args.file)
    except OSError as exc:
        return fail(f"{args.file}: {exc.strerror or exc}")
    store = Store(paths.store_path(paths.data_dir(args.data_dir)))
    try:
        game_id = store.import_bytes(data)
    except LogError as exc:
        return fail(str(exc))
    print(f"imported as game {game_id}")
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    import time

    from .store import Store

    store = Store(paths.store_path(paths.data_dir(args.data_dir)))
    for record in store.games():
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(record.created))
        outcome = record.outcome
        winners = ", ".join(outcome.winners) if outcome is not None else ""
        print(f"{record.id:>5}  {when}  {record.game:<15} {record.status:<9} {', '.join(record.players)}"
              + (f"  won by {winners}" if record.status == "finished" and winners.strip() else ""))
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    try:
        from .simulation import simulate_main
    except ImportError:
        return fail(f"simulate does not know {args.game!r} yet")
    try:
        return simulate_main(args)
    except GameError as exc:
        return fail(str(exc))


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="apply a saved game (JSON Lines) and print where it stands")
    p.add_argument("file", help="the saved game, or - for standard input")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("simulate", help="computer-only games, to measure game lengths")
    p.add_argument("game", choices=["slapjack"])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("games", help="list the games in the store")
    p.add_argument("--data-dir")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("export", help="write a stored game as JSON Lines")
    p.add_argument("game_id", type=int)
    p.add_argument("-o", "--output", help="file to write (default: standard output)")
    p.add_argument("--data-dir")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", help="check a saved game and add it to the store")
    p.add_argument("file")
    p.add_argument("--data-dir")
    p.set_defaults(func=cmd_import)
