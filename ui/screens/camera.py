"""The camera screen (from Settings): the live picture, each card it sees outlined and named,
the part of the frame to watch set by dragging a box (kept in ``[camera] region``), and, with
no camera, how to mount and aim one (docs/vision.md, "Mounting and aiming the camera")."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.slapjack.view import card_words

from ..widgets.camera_view import CameraView, LivePicture  # noqa: F401  (CameraView: the picture in the .kv)

MOUNT_TEXT = ("Mounting and aiming the camera: look straight down at the middle of the table from 40 to 60 cm: a Pi Camera Module on a "
              "small stand, or a USB webcam on a clamp, so a card is at least 120 pixels wide. Even "
              "light from above: no lamp reflected in the cards, no hard shadow over the pile. Then set "
              '[camera] source in config.toml ("auto", "picamera" or "/dev/video0") and open this screen '
              "again.")
DRAG_TEXT = "Drag a box round the pile and a hand's width around it: only that part is watched."


class CameraScreen(LivePicture, Screen):
    working = BooleanProperty(False)    # there is a camera, and it is sending frames
    status_text = StringProperty("")
    seen_text = StringProperty("")
    help_text = StringProperty(MOUNT_TEXT)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.ids.view.bind(on_box=lambda view, region: self.set_region(region))

    def prepare(self, **_):
        link = self.link
        feed = link.open()
        self.ids.view.region = list(App.get_running_app().settings.get("camera", {}).get("region", [0, 0, 1, 1]))
        if feed is None:
            self.working = False
            self.status_text = link.problem if link.problem.startswith("No camera") else f"No camera: {link.problem}"
            self.seen_text = ""
            return
        self.update()


    def update(self) -> None:
        link = self.link
        feed = link.feed
        if feed is None:
            return
        picture = feed.picture()
        self.working = bool(feed.seeing) and picture.image is not None
        if not self.working:
            self.status_text = f"No picture \u00b7 {feed.status}" if feed.seeing is False else "Camera starting\u2026"
            self.seen_text = ""
            return
        self.ids.view.show(picture)
        h, w = picture.image.shape[:2]
        self.status_text = f"Camera working \u00b7 {w}x{h}"
        seen = picture.seen
        names = [card_words(s.card) + ("" if s.sure else " (unsure)") for s in seen]
        self.seen_text = ("Sees " + ", ".join(names)) if names else "Sees no card"

    def set_region(self, region) -> None:
        app = App.get_running_app()
        try:
            self.link.set_region(region)
        except OSError as exc:
            app.notify(f"The region could not be saved: {exc.strerror or exc}", "error")
            return
        x, y, w, h = region
        app.notify(f"Watching {w * 100:.0f}% x {h * 100:.0f}% of the frame: saved.")

    def whole_frame(self) -> None:
        self.ids.view.region = [0.0, 0.0, 1.0, 1.0]
        self.set_region((0.0, 0.0, 1.0, 1.0))

    def teach(self) -> None:
        App.get_running_app().show("teach-deck")
