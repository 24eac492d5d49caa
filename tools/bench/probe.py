"""The bench's probe: the real app (or a Kivy test bench) in a child process, reporting what it sees.

The bench (``run.py`` here) starts this module and reads its reports; it is not
meant to be run by hand, but it can be::

    python -m tools.bench.probe app --data-dir DIR [--resume] [--exit]
        the real app, started through the real launcher (``run``, frame cap 30), reporting the
        first frame on screen, then (unless --exit) taking commands on stdin, one JSON a line:
          {"cmd": "open", "game": "jacks", "game_id": 3}   show that stored game on its screen
          {"cmd": "tap", "game": "jacks", "runs": 5}       tap game actions, time each to the frame
          {"cmd": "slap", "header": {...}, "races": 150, "busy_ms": 8, "redraw": true}
                                                           races on the Slapjack screen (a judge-only
                                                           game), pads pressed on the app's mock pins;
                                                           with "alternate": "sound" (or "commit") the
                                                           races take turns with the sound off and on
                                                           (commits at --commit-delay-ms and at 0); with
                                                           "as is" the app as it is, the sound off and
                                                           (slowed) commits at 0, in turn;
                                                           "stalls": [K, ...] holds the main thread busy
                                                           through those races' planned ends
          {"cmd": "camera_slap", "folder": DIR, "videos": [...]}
                                                           Slapjack races on the camera feed, a real
                                                           deck: the videos of tools/bench/camera.py
                                                           played at 30 fps, a pad pressed while each
                                                           Jack is still landing (camera_slap.py)
          {"cmd": "rss"}                                   peak and current resident memory
          {"cmd": "cpu"}                                   its own CPU time (where there is no /proc)
          {"cmd": "quit"}
        with --commit-delay-ms N, every durable commit of the app's store takes at least N ms.
    python -m tools.bench.probe slap --races N [--busy-ms 8] [--max-delay-ms 0] [--not-free] [--stall-race K]
        a window with the app's Kivy settings and the pads' documented path to the screen (mock
        pins driven at known edge times -> PadBoard -> Clock.schedule_once_free -> RaceRunner ->
        a label), the main thread kept busy drawing; each race timed from its first edge to the
        frame that shows the winner.

Reports go to stdout as lines ``@bench {json}``; anything else on stdout is ignored.

How a frame is known to be on screen: ``Window.flip`` is wrapped, so the time is taken right
after the buffer swap. Whether a frame shows a change is read from the pixels: before each
swap the watched rectangles are read back from the frame just drawn (``glReadPixels`` of a few
small areas), and the frame that "shows the effect" is the first whose pixels there equal the
final, settled picture. Frames are counted with ``Clock.frames`` (one per pass of Kivy's loop,
drawn or not), so "frames" means frames of the app's own loop at its real cap.

Nothing here runs while the app is idle: no timer, no polling. Commands arrive on a thread
blocked on stdin, which hands them to Kivy's main thread.
"""

from __future__ import annotations

import argparse
import sys
import time

from .frames import HOLD_FRAMES, FrameWatch, TapTimer, clock_kind, emit, gl_renderer, memory, read_commands


# -- the app ------------------------------------------------------------------------------------------

def tap_steps(screen, game: str):
    """(setup taps, the measured tap, watched widgets, name) for the game's action (from its bench
    recipe), then for its Undo."""
    import importlib

    from ui.games import ui_for

    steps = importlib.import_module(ui_for(game).bench).tap_steps(screen)
    watched = steps[-1][2]
    return [*steps, ([], screen.ids.undo_button, watched, "undo")]


def run_app(args) -> int:
    from ui import launcher

    state: dict = {"first": None}
    original = launcher.prepare_kivy

    def prepare(*a, **k):
        original(*a, **k)
        if args.commit_delay_ms:
            # An SD card: the app's store, every durable commit at least this long (companion/store.py).
            # Patched here, once Kivy's config is set: ui.app imports Kivy.
            import functools

            import ui.app
            from companion.store import Store

            ui.app.Store = functools.partial(Store, min_commit_s=args.commit_delay_ms / 1000)
        hooks(state, args)

    launcher.prepare_kivy = prepare
    argv = ["run", "--data-dir", args.data_dir, "--mock"]
    return launcher.main(argv)


def hooks(state: dict, args) -> None:
    """Put the probe into the app: frames, a scripted finger, and what to report when."""
    from kivy.app import App
    from kivy.clock import Clock

    from ui.tools.driver import Finger

    watch = FrameWatch()
    finger = Finger().install()
    timer = TapTimer(watch, finger)

    def current_screen():
        app = App.get_running_app()
        manager = getattr(app, "manager", None) if app else None
        return manager.current if manager is not None else None

    def on_frame(t, frame, hashes):
        screen = current_screen()
        if state["first"] is None:
            state["first"] = screen
            emit("first_frame", t=t, frame=frame, screen=screen)
            if args.resume:
                home = App.get_running_app().manager.get_screen("home")
                if not home.resume_text:
                    emit("error", message="no unfinished game to resume")
                else:
                    finger.tap_widget(home.ids.resume_button, hold_frames=0,
                                      on_release=lambda t, frame: emit("resume_tap", t=t, frame=frame))
        if args.resume and "resumed" not in state and screen not in (None, "home"):
            state["resumed"] = screen
            emit("resumed_frame", t=t, frame=frame, screen=screen)
        if state.get("settle_armed") is None and (not args.resume or "resumed" in state):
            state["settle_armed"] = True
            watch.after_settled(settled)

    def settled():
        watch.listeners.remove(on_frame)
        from ui.games import GAME_UIS

        app = App.get_running_app()
        emit("settled", t=watch.last_flip_time, frame=watch.last_flip_frame, flips=watch.flips,
             screen=current_screen(), memory=memory(), renderer=gl_renderer(), clock=clock_kind(),
             available=[game for game in GAME_UIS if app.game_available(game)])
        if args.exit:
            App.get_running_app().stop()
        else:
            read_commands(lambda command: handle(command))

    def handle(command: dict) -> None:
        try:
            kind = command["cmd"]
            if kind == "open":
                open_game(command)
            elif kind == "tap":
                tap_game(command)
            elif kind == "rss":
                emit("rss", memory=memory())
            elif kind == "slap":
                slap_game(command)
            elif kind == "camera_slap":
                from .camera_slap import camera_slap

                camera_slap(App.get_running_app(), watch, command, args)
            elif kind == "cpu":
                emit("cpu", seconds=time.process_time())
            elif kind == "quit":
                App.get_running_app().stop()
        except Exception as exc:   # report, keep the app up
            import traceback

            emit("error", message=f"{exc.__class__.__name__}: {exc}", trace=traceback.format_exc())

    def open_game(command: dict) -> None:
        from companion.session import Session

        app = App.get_running_app()
        session = Session.resume(app.store, command["game_id"])
        screen = app.open_session(session)
        watch.after_settled(lambda: emit("opened", game=command["game"], screen=screen.name, memory=memory()))

    def tap_game(command: dict) -> None:
        app = App.get_running_app()
        screen = app.manager.current_screen
        results: list[dict] = []
        runs = int(command.get("runs", 5))

        def one_run(left: int) -> None:
            if left == 0:
                emit("taps", game=command["game"], results=results, memory=memory())
                return
            steps = tap_steps(screen, command["game"])

            def next_step():
                if not steps:
                    one_run(left - 1)
                    return
                setup, target, watched, name = steps.pop(0)
                for button in setup:
                    finger.tap_widget(button, hold_frames=HOLD_FRAMES)
                wait = (len(setup) * (HOLD_FRAMES + 1) + 2) / 30

                def measure(dt):
                    watch.after_settled(lambda: timer.measure(target, watched, lambda r: record(name, r)), 2)

                Clock.schedule_once(measure, wait)

            def record(name, result):
                results.append({"action": name, **result})
                next_step()

            next_step()

        one_run(runs)

    def slap_game(command: dict) -> None:
        """Races on the Slapjack screen of a judge-only game, pads pressed on mock pins."""
        import random

        from companion.session import Session

        from .slap import Collections, SlapRaces, busy_drawing

        app = App.get_running_app()
        # A judge game starts empty, and Home puts away a game left with nothing played, so the
        # game is started here, as a table would start it from its set-up.
        screen = app.open_session(Session.start(app.store, command["header"]))
        rng = random.Random(command.get("seed", 1))
        redraw = bool(command.get("redraw", True))
        alternate = command.get("alternate")
        conditions = race_conditions(app, alternate, args.commit_delay_ms)

        def go():
            board = screen.link.board
            if board is None or board.mock is None:
                emit("error", message="the Slapjack screen opened no mock pads")
                return
            pads = sorted(screen.pads.values())
            seat_of_pad = {pad: screen.players.index(name) for name, pad in screen.pads.items()}
            pad_of_seat = {seat: pad for pad, seat in seat_of_pad.items()}

            def ranking():
                race = screen.state.race
                return [pad_of_seat[seat] for seat, _ in race.ranked()] if race is not None else []

            def between():
                if screen.verdict_waiting:
                    screen.judge(True)

            def done(results):
                busy.cancel()
                screen.unbind(verdict_text=changed)
                sounds = getattr(app, "sounds", None)
                emit("slap", results=results, memory=memory(), window_ms=app.settings["pads"]["race_window_ms"],
                     busy_ms=command.get("busy_ms", 8), clock=clock_kind(), redraw=redraw,
                     path="the Slapjack screen, race judge only (feed none)", alternate=alternate,
                     sounds_played=len(sounds.played) if sounds is not None else 0,
                     sound_loaded=bool(sounds and any(sounds.loaded.values())), collections=collections.stop())

            def changed(*_):
                races.verdict_set()

            races = SlapRaces(watch, board, pads, screen.ids.verdict_label, int(command.get("races", 50)), rng,
                              float(command.get("max_delay_ms", 0)), ranking, between, done, conditions,
                              stalls=command.get("stalls", ()), swap_waited=lambda: app.swap_waited_s)
            screen.bind(verdict_text=changed)
            busy = busy_drawing(rng, float(command.get("busy_ms", 8)), redraw)
            collections = Collections()
            races.start()

        watch.after_settled(go)

    watch.listeners.append(on_frame)


def race_conditions(app, alternate: str | None, commit_delay_ms: float) -> list:
    """The conditions slap races take turns in (``[(name, set_up), ...]``), or none. ``"sound"``:
    the sound off and on; ``"commit"``: commits at --commit-delay-ms and at 0; ``"as is"``: the
    app as it is (the sound on, the commits slowed if they are) beside each of those changed
    alone, so one run gives the app's own figure and both comparisons."""
    if alternate is None:
        return []
    volume = app.settings["sound"]["volume"] or 70
    slow = type(app.store.db)
    slowed = bool(commit_delay_ms) and hasattr(slow, "seconds")

    def condition(level, commit_s):
        def set_up():
            app.settings["sound"]["volume"] = level
            if slowed:
                slow.seconds = commit_s
        return set_up

    delay = commit_delay_ms / 1000
    if alternate == "sound":
        return [("sound off", condition(0, delay)), ("sound on", condition(volume, delay))]
    if alternate == "commit" and not slowed:
        raise ValueError("races with slow and fast commits need --commit-delay-ms")
    if alternate == "commit":
        return [(f"commits {commit_delay_ms:g} ms", condition(volume, delay)), ("commits 0 ms", condition(volume, 0.0))]
    if alternate == "as is":
        return [("as is", condition(volume, delay)), ("sound off", condition(0, delay)),
                *([("commits 0 ms", condition(volume, 0.0))] if slowed else [])]
    raise ValueError(f"no race conditions called {alternate!r}: sound, commit or as is")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.probe")
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("app")
    p.add_argument("--data-dir", required=True)
    p.add_argument("--resume", action="store_true", help="tap Resume as soon as home is on screen")
    p.add_argument("--exit", action="store_true", help="quit once the start-up has settled")
    p.add_argument("--commit-delay-ms", type=float, default=0.0, help="every durable commit of the store takes "
                                                                     "at least this (an SD card)")
    p = sub.add_parser("slap")
    p.add_argument("--races", type=int, default=50)
    p.add_argument("--busy-ms", type=float, default=8.0)
    p.add_argument("--max-delay-ms", type=float, default=0.0, help="extra callback delay, uniform 0..this")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--not-free", action="store_true", help="hand presses over with Clock.schedule_once instead")
    p.add_argument("--stall-race", type=int, action="append", default=[],
                   help="hold the main thread busy through this race's planned end (races from 0; repeatable)")
    args = parser.parse_args(argv)
    if args.mode == "app":
        return run_app(args)
    from .slap import run_slap

    return run_slap(args)


if __name__ == "__main__":
    sys.exit(main())
