"""The camera's picture, what it sees drawn over it (each card's outline and name), and the
part of the frame it watches, set by dragging a box with a finger.

:meth:`CameraView.show` takes a ``hardware.vision.feed.Picture``; the widget fits the frame in
its box, keeping its shape. A drag from one corner of the wanted box to the other dispatches
``on_box`` with ``(x, y, w, h)`` as fractions of the frame (a short tap changes nothing).
"""

from __future__ import annotations

from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from .card_picker import card_text as card_words

from .. import theme

SMALLEST_BOX = 0.08   # a region narrower or lower than this share of the frame is a slip, not a box
SURE_COLOUR = (0.31, 0.82, 0.55, 1)     # bluish green: named for sure
UNSURE_COLOUR = theme.PRIMARY           # yellow: a guess the table would be asked about


class CameraView(Widget):
    region = ListProperty([0.0, 0.0, 1.0, 1.0])   # x, y, w, h: fractions of the frame, from its top left
    boxes = BooleanProperty(True)                 # the region is drawn and may be dragged out

    __events__ = ("on_box",)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._texture: Texture | None = None
        self._frame_size = (640, 480)
        self._seen: list = []
        self._drag: tuple[float, float, float, float] | None = None   # fractions: start x, y, now x, y
        self._names: list[Label] = []
        self.bind(pos=self._draw, size=self._draw, region=self._draw)

    # -- the picture --------------------------------------------------------------------------

    def show(self, picture) -> None:
        image = picture.image
        if image is None:
            return
        h, w = image.shape[:2]
        if self._texture is None or self._texture.size != (w, h):
            self._texture = Texture.create(size=(w, h), colorfmt="rgb")
        # OpenCV's rows run top down, a texture's bottom up; its channels are BGR.
        self._texture.blit_buffer(image[::-1].tobytes(), colorfmt="bgr", bufferfmt="ubyte")
        self._frame_size = (w, h)
        self._seen = list(picture.seen)
        self._draw()

    @property
    def has_picture(self) -> bool:
        return self._texture is not None

    def picture_rect(self) -> tuple[float, float, float, float]:
        """Where the frame is drawn: x, y, width, height in window-relative pixels."""
        fw, fh = self._frame_size
        scale = min(self.width / fw, self.height / fh) if fw and fh else 1.0
        w, h = fw * scale, fh * scale
        return self.x + (self.width - w) / 2, self.y + (self.height - h) / 2, w, h

    def _to_widget(self, fx: float, fy: float) -> tuple[float, float]:
        """A point given as fractions of the frame (from its top left) in widget coordinates."""
        x, y, w, h = self.picture_rect()
        return float(x + fx * w), float(y + (1 - fy) * h)   # numpy floats are no Kivy numbers

    def _to_frame(self, wx: float, wy: float) -> tuple[float, float]:
        x, y, w, h = self.picture_rect()
        return (min(1.0, max(0.0, (wx - x) / w)) if w else 0.0,
                min(1.0, max(0.0, 1 - (wy - y) / h)) if h else 0.0)

    def _draw(self, *_) -> None:
        self.canvas.clear()
        for label in self._names:
            self.remove_widget(label)
        self._names = []
        x, y, w, h = self.picture_rect()
        fw, fh = self._frame_size
        with self.canvas:
            Color(0, 0, 0, 1)
            Rectangle(pos=(x, y), size=(w, h))
            if self._texture is not None:
                Color(1, 1, 1, 1)
                Rectangle(texture=self._texture, pos=(x, y), size=(w, h))
            for card in self._seen:
                Color(*(SURE_COLOUR if card.sure else UNSURE_COLOUR))
                points = [c for px, py in card.outline for c in self._to_widget(px / fw, py / fh)]
                Line(points=points, close=True, width=dp(2))
            if self.boxes:
                rx, ry, rw, rh = self._box()
                Color(*theme.PRIMARY)
                left, top = self._to_widget(rx, ry)
                right, bottom = self._to_widget(rx + rw, ry + rh)
                Line(rectangle=(left, bottom, right - left, top - bottom), width=dp(1.5))
        for card in self._seen:
            xs = [px / fw for px, _ in card.outline]
            ys = [py / fh for _, py in card.outline]
            cx, cy = self._to_widget(sum(xs) / len(xs), min(ys))
            label = Label(text=card_words(card.card) + ("" if card.sure else "?"), font_name=theme.FONT_BOLD,
                          font_size="22sp", color=theme.PRIMARY_TEXT, size_hint=(None, None),
                          size=(dp(64), dp(32)))
            label.center = (cx, cy + dp(18))
            with label.canvas.before:
                Color(*(SURE_COLOUR if card.sure else UNSURE_COLOUR))
                Rectangle(pos=label.pos, size=label.size)
            self.add_widget(label)
            self._names.append(label)

    def _box(self) -> tuple[float, float, float, float]:
        if self._drag is None:
            return tuple(self.region)
        x0, y0, x1, y1 = self._drag
        return min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0)

    # -- dragging the box ---------------------------------------------------------------------

    def on_touch_down(self, touch):
        x, y, w, h = self.picture_rect()
        if not self.boxes or self.disabled or not (x <= touch.x <= x + w and y <= touch.y <= y + h):
            return super().on_touch_down(touch)
        fx, fy = self._to_frame(touch.x, touch.y)
        self._drag = (fx, fy, fx, fy)
        touch.grab(self)
        return True

    def on_touch_move(self, touch):
        if touch.grab_current is self and self._drag is not None:
            fx, fy = self._to_frame(touch.x, touch.y)
            self._drag = (*self._drag[:2], fx, fy)
            self._draw()
            return True
        return super().on_touch_move(touch)

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        if self._drag is not None:
            fx, fy = self._to_frame(touch.x, touch.y)
            self._drag = (*self._drag[:2], fx, fy)
            box = self._box()
            self._drag = None
            if box[2] >= SMALLEST_BOX and box[3] >= SMALLEST_BOX:
                self.region = [round(v, 4) for v in box]
                self.dispatch("on_box", tuple(self.region))
            self._draw()
        return True

    def on_box(self, region) -> None:
        pass


class LivePicture:
    """A screen showing the camera's live picture: it asks the camera for pictures (outlines and
    names cost a frame's reading) and redraws ``FRAMES_PER_S`` times a second only while shown."""

    FRAMES_PER_S = 10   # enough to aim by; the Pi's other core stays free for the watcher
    _event = None

    @property
    def link(self):
        from kivy.app import App

        from ..camera_link import camera_for

        return camera_for(App.get_running_app())

    def on_enter(self, *_):
        from kivy.clock import Clock

        self.link.want_picture(self.name, True)
        if self._event is None:
            self._event = Clock.schedule_interval(lambda dt: self.update(), 1 / self.FRAMES_PER_S)

    def on_leave(self, *_):
        if self._event is not None:
            self._event.cancel()
            self._event = None
        self.link.want_picture(self.name, False)
