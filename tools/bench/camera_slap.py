"""Slapjack races on the camera feed, in the real app (``probe`` command ``camera_slap``).

Each game is a real-deck Slapjack game with the camera as its feed (``"feed": "camera"``): the
app's own camera link and feed (``ui/camera_link.py``, ``hardware.vision.feed``) read a synthetic
video (``tools/bench/camera.py``: four Jacks, each laid on a card and gathered once won)
played on a camera's schedule (``hardware.camera.paced``, 30 frames a second, the newest frame
to the reader). For every Jack a pad is pressed while the card is still landing: at a random
moment from the frame it came to rest in until the pile has lain still 3 frames (the hand that
laid it leaving meanwhile: ``PRESS_UNTIL_FRAMES``), and half the time a second pad 1 to 30 ms
later. A press before the camera has named the card waits for it
(``companion/games/slapjack/strategies.py``), so its verdict comes once the card is named. Each race
is timed from its first edge to the swap of the first frame whose verdict label shows the
winner, as the pads' races are (``slap.py``). While the camera names the card the screen already
says who slapped first (the pads know it at once): that frame is timed too, to the first frame
showing the race's first press (the landing words, or the verdict when it came first).
"""

from __future__ import annotations

import time
from pathlib import Path

from .frames import clock_kind, emit, memory

HOLD = 0.08
# A press is made from the frame the Jack came to rest in until 3 frames after the whole picture
# lies still (the hand gone): while the card is still landing to the players, however soon the
# camera names it (the watcher named it on that last frame until it learned to name it sooner).
PRESS_UNTIL_FRAMES = 3
GIVE_UP = 3.0        # a race with no verdict this long after its press has none
PLAYERS = ("Ann", "Ben")


def camera_slap(app, watch, command: dict, args) -> None:
    import random

    import numpy as np
    from kivy.clock import Clock

    from companion.session import Session
    from companion.games.slapjack.ways import header_for
    from hardware.camera.device import Camera
    from hardware.camera.paced import PacedFrames
    from hardware.mock import LateDelivery
    from ui.camera_link import camera_for

    from .camera import load
    from .slap import Collections, busy_drawing

    folder = Path(command["folder"])
    names = list(command["videos"])
    rng = random.Random(command.get("seed", 1))
    busy = busy_drawing(rng, float(command.get("busy_ms", 8)), bool(command.get("redraw", True)))
    collections = Collections()
    late = LateDelivery()
    link = camera_for(app)
    results: list[dict] = []
    games: list[dict] = []
    # Unmeasured: the classifier built (the feed builds it on first use, cached for the process)
    # and a frame read once, so the first game's camera does not start seconds behind its video.
    from hardware.vision.feed import classifier_for
    from hardware.vision.recognise import read_image

    read_image(np.array(load(folder, names[0])[0][0]), classifier_for(link.deck_folder))
    pad_player: dict[int, str] = {}

    def next_game():
        if not names:
            finish()
            return
        name = names.pop(0)
        frames, fps, truth, still = load(folder, name, with_still=True)
        source = PacedFrames(frames, fps, prepare=np.array)
        link.close()   # a new camera for each game: the link opens it with the screen
        link.camera_factory = lambda: Camera(source=source)
        game = {"video": name, "truth": [c for c, _ in truth], "reported": [], "races": []}
        games.append(game)
        real_on_card = type(link).on_card

        def on_card(card, landed_at):   # the feed's thread: when the camera named a card
            game["reported"].append(card)
            for race in game["races"]:
                if race["card"] == card and "named_at" not in race:
                    race["named_at"] = time.monotonic()
            real_on_card(link, card, landed_at)

        link.on_card = on_card
        start = source.start(time.monotonic() + 1.0)   # the screen opens meanwhile
        session = Session.start(app.store, header_for("real", list(PLAYERS), {}, camera=True))
        screen = app.open_session(session)
        pads = [screen.pads[p] for p in PLAYERS]
        pad_player.update({screen.pads[p]: p for p in PLAYERS})
        board = screen.link.board
        label = screen.ids.verdict_label
        for (card, landed), g in zip(truth, still):
            if not card.startswith("J"):
                continue
            rest, until = start + landed / fps, start + (g + PRESS_UNTIL_FRAMES) / fps
            first = rest + rng.uniform(0, until - rest)
            order = rng.sample(pads, 2 if rng.random() < 0.5 else 1)
            edges = {pad: first + (0 if k == 0 else rng.uniform(0.001, 0.030)) for k, pad in enumerate(order)}
            race = {"card": card, "edges": edges, "first": first, "frames": []}
            game["races"].append(race)
            for pad, edge in edges.items():
                late.later(edge, lambda pad=pad, edge=edge: board.mock.press(pad, edge))
                late.later(edge + HOLD, lambda pad=pad, edge=edge: board.mock.release(pad, edge + HOLD))
            # One frame of the label read before the press: the picture the verdict changes.
            Clock.schedule_once(lambda dt, race=race: before(race), max(0, first - 0.2 - time.monotonic()))

        def before(race):
            watch.watch([label])
            watch.Window.canvas.ask_update()

            def seen(t, frame, hashes):
                if hashes is not None:
                    race["before"] = hashes
                    watch.rects = []
                    watch.listeners.remove(seen)
            watch.listeners.append(seen)

        def first_said(*_):
            # Who was first, shown while the camera still names the card: the latest press's race.
            now = time.monotonic()
            if not screen.landing_text:
                return
            open_races = [r for r in game["races"] if r["first"] <= now and "before" in r
                          and "set_at" not in r and "first_set_at" not in r]
            if not open_races:
                return
            race = max(open_races, key=lambda r: r["first"])
            race["first_set_at"] = now
            watch.watch([label])

            def first_shown(t, frame, hashes):
                if "first_shown_at" in race:
                    watch.listeners.remove(first_shown)
                elif hashes is not None and t >= race["first_set_at"] and hashes != race["before"]:
                    race["first_shown_at"] = t
                    watch.listeners.remove(first_shown)
            watch.listeners.append(first_shown)

        def changed(*_):
            now = time.monotonic()
            # The race of the last Jack turned: a Jack the camera missed has no verdict, and must not
            # take the next Jack's (timed from the wrong press, seconds long).
            turned = [a["card"] for a in screen.table.session.game.actions if a["type"] == "turn"]
            pending = [r for r in game["races"] if "set_at" not in r and r["first"] <= now and "before" in r
                       and turned and r["card"] == turned[-1]]
            for r in pending:   # what the screen said meanwhile: a race with no verdict says why
                if screen.verdict_text and (screen.verdict_kind, screen.verdict_text) not in r.setdefault("said", []):
                    r["said"].append((screen.verdict_kind, screen.verdict_text))
            # Both are set in one refresh, the text first: the race is known once both are.
            if not pending or not screen.verdict_text or screen.verdict_kind != "win":
                return
            race = pending[0]
            race["set_at"] = now
            race["text"] = screen.verdict_text
            watch.watch([label])

            def shown(t, frame, hashes):
                if hashes is not None and t >= race["set_at"] and hashes != race["before"]:
                    race["shown_at"] = t
                    race.setdefault("first_shown_at", t)   # the verdict names the first slapper too
                    race["read_s"] = watch.read_s
                    watch.rects = []
                    watch.listeners.remove(shown)
            watch.listeners.append(shown)

        screen.bind(verdict_text=changed, verdict_kind=changed, landing_text=first_said)
        end = start + len(frames) / fps + 1.0

        def check(dt):
            if time.monotonic() < end or (source.ended is False):
                return
            ev.cancel()
            screen.unbind(verdict_text=changed, verdict_kind=changed, landing_text=first_said)
            game["skipped"] = len(source.skipped)
            game["frames"] = len(frames)
            for race in game["races"]:
                score(race, screen)
            Clock.schedule_once(lambda dt: next_game(), 0.5)

        ev = Clock.schedule_interval(check, 0.1)

    def score(race, screen):
        truth = sorted(race["edges"], key=race["edges"].get)
        out = {"card": race["card"], "presses": len(truth)}
        if "shown_at" not in race:
            out["error"] = "no verdict shown" if "set_at" not in race else "verdict set but its frame not seen"
            out["said"] = [text for _, text in race.get("said", [])][-3:]
        else:
            first = race["first"]
            named = [(race["text"].find(p), p) for p in PLAYERS if p in race["text"]]
            out.update(ms=(race["shown_at"] - first) * 1000, read_ms=race["read_s"] * 1000,
                       verdict_ms=(race["set_at"] - first) * 1000,
                       winner_right=bool(named) and min(named)[1] == pad_player[truth[0]],
                       first_ms=(race["first_shown_at"] - first) * 1000)
        if "named_at" in race:
            out["named_ms"] = (race["named_at"] - race["first"]) * 1000
        # When the camera says the Jack landed, from the press (a press before it is no slap on it).
        turn = next((a for a in screen.table.session.game.actions if a["type"] == "turn" and a["card"] == race["card"]
                     and a.get("t") is not None), None)
        if turn is not None:
            out["landed_ms"] = (turn["t"] - race["first"]) * 1000
        results.append(out)

    def finish():
        busy.cancel()
        late.close()
        link.close()
        link.camera_factory = None
        emit("camera_slap", results=results, games=[{k: v for k, v in g.items() if k != "races"} for g in games],
             memory=memory(), busy_ms=command.get("busy_ms", 8), redraw=bool(command.get("redraw", True)),
             clock=clock_kind(), window_ms=app.settings["pads"]["race_window_ms"], collections=collections.stop(),
             path="the Slapjack screen, a real deck with the camera (feed camera)")

    next_game()
