"""Teach your deck: a guided screen ("Show the 7♥") that keeps each card's corner as the camera
sees it, in the data folder's ``deck``; the camera reads that deck by its own glyphs from then on
(hardware/vision/templates.py). Leaving keeps what was taught, so coming back carries on at the
next card; Start again forgets the deck and teaches it afresh.
"""

from __future__ import annotations

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from ..widgets.camera_view import CameraView, LivePicture  # noqa: F401  (CameraView: the picture in the .kv)
from ..widgets.card_picker import card_text



class TeachDeckScreen(LivePicture, Screen):
    working = BooleanProperty(False)   # a camera sending frames
    prompt_text = StringProperty("")
    progress_text = StringProperty("")
    message = StringProperty("")
    done = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.lesson = None
        self._doubted: str | None = None   # the card the camera took for another: a second tap keeps it
        self._changed = False

    def prepare(self, **_):
        from hardware.vision.teach import Lesson

        link = self.link
        feed = link.open()
        self.lesson = Lesson(link.deck_folder, classifier=feed.classifier if feed is not None else None)
        self._doubted = None
        self.message = "" if feed is not None else f"{link.problem}: the camera screen says how to set one up"
        self.show_next()
        self.update()

    def on_leave(self, *_):
        super().on_leave()
        link = self.link
        if self._changed:
            self._changed = False
            link.reload_deck()   # games read with the taught corners from now on

    def show_next(self) -> None:
        lesson = self.lesson
        code = lesson.next_card()
        taught, total = lesson.progress
        self.done = code is None
        self.prompt_text = "Every card is taught" if code is None else f"Show the {card_text(code)}"
        self.progress_text = f"{taught} of {total} taught"

    def update(self) -> None:
        feed = self.link.feed
        picture = feed.picture() if feed is not None else None
        self.working = bool(feed is not None and feed.seeing and picture.image is not None)
        if self.working:
            self.ids.view.show(picture)

    # -- the table's taps ---------------------------------------------------------------------

    def keep(self) -> None:
        from hardware.vision.teach import TeachError

        feed = self.link.feed
        code = self.lesson.next_card()
        if feed is None or code is None:
            return
        try:
            self.lesson.keep(feed.picture().image, trust=self._doubted == code)
        except TeachError as exc:
            self._doubted = code if "looks like" in str(exc) else None
            self.message = str(exc)[:1].upper() + str(exc)[1:]
            return
        self._doubted = None
        self._changed = True
        self.message = f"{card_text(code)} kept."
        self.show_next()

    def skip(self) -> None:
        code = self.lesson.next_card()
        if code is None:
            return
        self.lesson.skip()
        self._doubted = None
        self.message = f"{card_text(code)} skipped: it comes round again at the end."
        self.show_next()

    def start_again(self) -> None:
        self.lesson.start_again()
        self._changed = True
        self._doubted = None
        self.message = "The taught deck is forgotten: teach it again from the first card."
        self.show_next()
