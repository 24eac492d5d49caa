"""The ``jack-companion`` command: the app, and every tool beside it.

Kivy reads its settings when it is first imported, so this module sets them up from
the command line before anything imports Kivy, and imports no Kivy itself.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from companion import cli as companion_cli
from companion import paths

SIZES = ("800x480", "720x1280")


def throwaway_folder(prefix: str) -> Path:
    """A folder of its own for one run (a throwaway table, Kivy's home), gone when the process
    ends, so runs of the screenshots and bench commands leave nothing behind."""
    import atexit
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def prepare_kivy(data_dir, size: str | None, fullscreen: bool = False, rotation: int = 0, max_fps: int = 30) -> None:
    """Kivy's environment and config; must run before the first ``import kivy``."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")  # not xclip/xsel, which a Pi may lack
    kivy_home = data_dir / "kivy"
    kivy_home.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("KIVY_HOME", str(kivy_home))
    from ui.kivy_setup import configure  # imports kivy.config, after the environment is set

    configure(size=size, fullscreen=fullscreen, rotation=rotation, max_fps=max_fps)


def cmd_run(args: argparse.Namespace) -> int:
    from companion import config as settings

    folder = paths.data_dir(args.data_dir)
    conf, problems = settings.load(paths.config_path(folder))
    for problem in problems:
        print(problem, file=sys.stderr)
    size = args.size or conf["display"]["size"]
    prepare_kivy(folder, size, fullscreen=args.fullscreen or conf["display"]["fullscreen"],
                 rotation=conf["display"]["rotation"])
    from ui.app import CompanionApp

    CompanionApp(data_dir=folder, config=conf, config_problems=problems, mock=args.mock).run()
    return 0


def needs_virtual_display() -> bool:
    import shutil

    return (sys.platform.startswith("linux") and not os.environ.get("DISPLAY")
            and not os.environ.get("WAYLAND_DISPLAY") and shutil.which("xvfb-run") is not None)


def cmd_screenshots(args: argparse.Namespace) -> int:

    out = Path(args.dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"screenshots: cannot make the folder {out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if needs_virtual_display():
        # Headless: draw on a virtual screen big enough for both sizes.
        import shutil

        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1280x1280x24 -noreset", shutil.which("jack-companion")
                               or sys.executable, *([] if shutil.which("jack-companion") else ["-m", "ui.launcher"]),
                               "screenshots", str(out), *(["--only", args.only] if args.only else [])])
    # A throwaway table, so the pictures never show (or change) anybody's real games; and no
    # speaker (a machine without a sound card would fill the terminal with its complaints).
    folder = throwaway_folder("jack-companion-shots-")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    prepare_kivy(folder, "800x480", max_fps=0)
    from ui.tools.screenshots import SceneError, render_all

    try:
        for path in render_all(out, folder, only=args.only):
            print(path)
    except SceneError as exc:
        print(exc, file=sys.stderr)
        return 1
    return 0


BENCH = "python -m tools.bench [--quick] [--pi] [--json]"


def cmd_bench(argv: list[str]) -> int:
    """The bench is part of the source checkout (tools/bench), not of the installed app: from a
    checkout (an editable install) hand over to it, with its own options; else say where it is."""
    root = Path(__file__).resolve().parent.parent
    if not (root / "tools" / "bench" / "__main__.py").is_file():
        print(f"jack-companion bench: the bench comes with the source checkout, not the installed app; "
              f"from a clone run: {BENCH}", file=sys.stderr)
        return 2
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), *filter(None, [os.environ.get("PYTHONPATH")])]))
    command = [sys.executable, "-m", "tools.bench", *argv]
    if os.name == "posix":
        # In this process's place: Ctrl-C, the exit status and the clean-up are the bench's own.
        os.execve(sys.executable, command, env)
    import subprocess

    return subprocess.call(command, env=env)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jack-companion", description="Jack Table Companion")
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("run", help="start the touchscreen app (the default)")
    p.add_argument("--mock", action="store_true", help="mock pads on the keyboard, even on a Pi")
    p.add_argument("--data-dir", help="folder for the store and config.toml")
    p.add_argument("--size", choices=SIZES, help="window size (default from config.toml)")
    p.add_argument("--fullscreen", action="store_true")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("screenshots", help="render every screen to PNG at 800x480 and 720x1280")
    p.add_argument("dir")
    p.add_argument("--only", help="just the screens whose names start with this (e.g. jacks)")
    p.set_defaults(func=cmd_screenshots)

    # Listed here; its options are the bench's own (main() hands them over unread).
    p = sub.add_parser("bench", help=f"start-up, memory, idle load, tap and slap latency, engines, the camera; "
                                     f"beside bare Kivy (from a source checkout: {BENCH})")
    p.set_defaults(func=lambda args: cmd_bench([]))

    companion_cli.add_commands(sub)
    try:
        from hardware import cli as hardware_cli
    except ImportError:
        pass
    else:
        hardware_cli.add_commands(sub)
    try:
        from hardware.camera import cli as camera_cli
        from hardware.vision import cli as vision_cli
    except ImportError:  # OpenCV missing: the app runs without the camera commands
        pass
    else:
        vision_cli.add_commands(sub)
        camera_cli.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["run", *argv]
    if argv[0] == "bench":
        return cmd_bench(argv[1:])
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
