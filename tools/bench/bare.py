"""A bare Kivy app with one label: what Kivy itself costs, for the bench to compare the app with.

    python -m tools.bench.bare --data-dir DIR [--exit]

It gets the same Kivy settings as the app (``ui/kivy_setup.py``: the window size, the frame
cap of 30, one input provider, no logs) and the same frame watch (``frames.py`` here): it reports
its first frame on screen and its memory, then sits idle taking ``rss`` and ``quit`` commands on
stdin. It imports nothing of the companion.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.bare")
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--exit", action="store_true", help="quit once the start-up has settled")
    args = parser.parse_args(argv)

    # The environment ui.launcher.prepare_kivy sets, without importing the launcher.
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
    home = Path(args.data_dir) / "kivy"
    home.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("KIVY_HOME", str(home))
    from ui.kivy_setup import configure

    configure(size="800x480", max_fps=30)

    from kivy.app import App
    from kivy.uix.label import Label

    from tools.bench.frames import FrameWatch, emit, gl_renderer, memory, read_commands

    class Bare(App):
        def build(self):
            return Label(text="Hello, table")

    watch = FrameWatch()
    state = {"first": False}

    def on_frame(t, frame, hashes):
        if not state["first"]:
            state["first"] = True
            emit("first_frame", t=t, frame=frame, screen="label")
            watch.after_settled(settled)

    def settled():
        watch.listeners.remove(on_frame)
        emit("settled", t=watch.last_flip_time, frame=watch.last_flip_frame, flips=watch.flips, screen="label",
             memory=memory(), renderer=gl_renderer())
        if args.exit:
            App.get_running_app().stop()
        else:
            read_commands(handle)

    def handle(command: dict) -> None:
        if command.get("cmd") == "rss":
            emit("rss", memory=memory())
        elif command.get("cmd") == "quit":
            App.get_running_app().stop()

    watch.listeners.append(on_frame)
    Bare().run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
