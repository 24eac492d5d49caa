"""What one frame costs to draw, screen by screen (a script, not a test).

Run it:  python -m tools.bench.redraw [--frames 60] [--json]

The real app in a window of its own at 800x480 (on a virtual screen when there is no display),
on a throwaway table: home, then each game's screen in play (a game from its bench recipe), each
drawn again and again in full (the whole window marked for redrawing, as any change on screen
does) with nothing else running; and a bare window with one label, for scale. Each figure is the
median time from the start of a pass of Kivy's loop to its frame finished (``glFinish``) and on
screen, and the CPU the process used for it. On a software renderer (llvmpipe: the bench's and
CI's) that is the CPU filling every pixel, which is what the other figures of
``python -m tools.bench`` pay for every frame they wait on. A Pi's GPU fills for its CPU: read
these as the bench's cost, not a Pi's. docs/benchmarks.md says what made them smaller.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time


def full_frames(frames: int) -> dict:
    """``frames`` passes of Kivy's loop, each redrawing the whole window: ms per frame."""
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.graphics.opengl import glFinish

    wall, cpu = [], []
    for _ in range(frames):
        Window.canvas.ask_update()
        w0, c0 = time.perf_counter(), time.process_time()
        EventLoop.idle()
        glFinish()
        wall.append((time.perf_counter() - w0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return {"median_ms": statistics.median(wall), "cpu_ms": statistics.median(cpu), "frames": frames}


def measure(frames: int) -> dict:
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from companion import config as settings
    from companion.session import Session
    from ui.app import CompanionApp
    from ui.games import GAME_UIS
    from ui.launcher import throwaway_folder

    from ui.tools.driver import AppDriver
    from .run import PLAYERS, seed_log

    app = CompanionApp(data_dir=throwaway_folder("jack-companion-redraw-"),
                       config=settings.defaults(), mock=True)
    driver = AppDriver(app)
    for name in PLAYERS:
        app.store.add_player(name)
    figures = {}
    app.show("home")
    driver.pump(3)
    figures["home"] = full_frames(frames)
    for game in GAME_UIS:
        header, actions = seed_log(game)
        session = Session.start(app.store, header)
        for action in actions:
            session.play(action)
        app.open_session(session)
        driver.pump(5)
        figures[game] = full_frames(frames)
    shown = list(Window.children)
    for child in shown:
        Window.remove_widget(child)
    label = Label(text="Ann first")
    Window.add_widget(label)
    driver.pump(3)
    figures["bare window, one label"] = full_frames(frames)
    Window.remove_widget(label)
    for child in reversed(shown):
        Window.add_widget(child)
    driver.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=60, help="full redraws a screen (default 60)")
    parser.add_argument("--json", action="store_true", help="the figures as one JSON object")
    args = parser.parse_args(argv)
    if args.frames < 1:
        print(f"redraw --frames: {args.frames} frames is too few (at least 1)", file=sys.stderr)
        return 2
    from ui.launcher import needs_virtual_display, prepare_kivy, throwaway_folder

    if needs_virtual_display() and not os.environ.get("SDL_VIDEODRIVER"):
        # Headless: a virtual screen, as the bench and `screenshots` make one.
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 1280x1280x24 -noreset", sys.executable, "-m",
                               "tools.bench.redraw", *(argv if argv is not None else sys.argv[1:])])
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

    prepare_kivy(throwaway_folder("jack-companion-redraw-kivy-"), "800x480", max_fps=0)
    from .frames import gl_renderer

    figures = measure(args.frames)
    if args.json:
        print(json.dumps({"renderer": gl_renderer(), "screens": figures}, indent=2))
        return 0
    print(f"One full frame at 800x480, median of {args.frames} ({gl_renderer()}):")
    for name, entry in figures.items():
        print(f"  {name:24s} {entry['median_ms']:6.2f} ms  (CPU {entry['cpu_ms']:.2f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
