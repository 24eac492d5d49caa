"""``jack-companion camera [--source S] [--seconds N]``: the camera check.

Opens the camera (``--source``, else ``[camera] source`` from config.toml, else "auto"), then
prints its frame rate each second, what it sees on the pile, and each card the pile watcher
would report with its landing time; a recording (a video file or a folder of images) is played
once, to its end. Exit status 0; 1 if no frame came at all.
"""

from __future__ import annotations

import sys
import time


def add_commands(sub) -> None:
    p = sub.add_parser("camera", help="camera check: frame rate, what it sees, each card it would report")
    p.add_argument("--source", help='"auto", "picamera", /dev/videoN, a video file or a folder of images')
    p.add_argument("--seconds", type=float, default=10.0, help="stop after this many seconds (default 10)")
    p.add_argument("--data-dir", help="folder holding config.toml")
    p.set_defaults(func=cmd_camera)


def _settings(args):
    from hardware.camera.settings import CameraSettingsError, camera_settings

    table = {}
    try:
        import tomllib

        from companion import paths

        path = paths.config_path(paths.data_dir(args.data_dir))
        if path.exists():
            table = dict(tomllib.loads(path.read_text()).get("camera", {}))
    except Exception:
        table = {}
    if args.source is not None:
        table["source"] = args.source
    table.setdefault("source", "auto")
    try:
        return camera_settings(table)
    except CameraSettingsError as exc:
        print(f"config.toml: {exc}", file=sys.stderr)
        return camera_settings({"source": table.get("source", "auto") if isinstance(table.get("source"), str) else "auto"})


class _Printer:
    def __init__(self, t0: float) -> None:
        self.t0 = t0

    def on_card(self, card, landed_at) -> None:
        print(f"card {card} landed at {landed_at - self.t0:8.3f} s (sure)", flush=True)

    def on_unsure(self, candidates, landed_at) -> None:
        print(f"card unsure at {landed_at - self.t0:8.3f} s: {' or '.join(candidates)}", flush=True)


def cmd_camera(args) -> int:
    from hardware.camera.device import Camera
    from hardware.vision.watcher import PileWatcher

    settings = _settings(args)
    camera = Camera(settings, loop=False)  # a recording is checked once, to its end
    printer = _Printer(time.monotonic())
    watcher = PileWatcher(camera, printer, region=settings.region)  # builds the classifier first
    t0 = printer.t0 = time.monotonic()
    frames, last_print, count_at, status = 0, t0, 0, None
    try:
        while time.monotonic() - t0 < args.seconds:
            frame = camera.read()
            if camera.status_text != status:
                status = camera.status_text
                print(status, flush=True)
            if frame is None:
                if camera.ended:
                    break
                time.sleep(0.2)
                continue
            if frames == 0:
                last_print = time.monotonic()
            frames += 1
            watcher.feed(frame)
            now = time.monotonic()
            if now - last_print >= 1.0:
                fps = (frames - count_at) / (now - last_print)
                print(f"{fps:5.1f} frames/s, {frame.image.shape[1]}x{frame.image.shape[0]}; "
                      f"pile: {' '.join(watcher.top) or 'empty'}", flush=True)
                last_print, count_at = now, frames
    except KeyboardInterrupt:
        pass
    finally:
        camera.close()
    print(f"{frames} frames in {time.monotonic() - t0:.1f} s", flush=True)
    return 0 if frames else 1
