"""A card the camera saw, offered to the table in one tap: "Ann played 7♥?  [Yes, 7♥] [Not it]",
or, when the camera was unsure, its top guesses side by side. The card pad stays on the screen:
tapping a card there instead puts the camera's offer away.

:class:`SeesCards` is the part a game screen mixes in: ``camera_begin()`` when it shows,
``camera_end()`` when it goes; the camera link (ui/camera_link.py) then hands it ``on_card`` /
``on_unsure`` on the main thread, and the screen says what a card means for its game in
``camera_question(code)`` and ``camera_take(code)``. ``camera_take_at_once`` skips the offer
(One-Eyed Jack: the card is only chosen, the table still taps its space). A screen whose table
controller keeps the offer itself (Jack Change It, whose sure card becomes the play once a grace
is over) draws it with ``show_offer`` and answers its taps there.
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from .card_picker import card_text as card_words

from .. import theme
from ..camera_link import camera_for
from .basics import TableButton
from .shapes import RoundedBox

MOST_GUESSES = 3


class SeenCardBar(BoxLayout):
    """The offer, drawn over the top of the screen (or over what the screen names, see
    :meth:`SeesCards.camera_offer_over`) until it is answered. In one row, the question, the
    cards and "Not it"; with ``two_rows`` (a narrow place, twice as tall), the question and
    "Not it" above the cards."""

    ROW = theme.PRIMARY_TOUCH + dp(16)   # one row's height, its buttons a full touch high

    def __init__(self, question: str, choices: list[tuple[str, str]], on_choose, on_dismiss,
                 two_rows: bool = False, **kwargs):
        super().__init__(orientation="vertical", size_hint=(1, None), height=self.ROW * (2 if two_rows else 1),
                         padding=dp(8), spacing=dp(8), pos_hint={"top": 1, "x": 0}, **kwargs)
        with self.canvas.before:
            from kivy.graphics import Color

            Color(*theme.PANEL)
            self._back = RoundedBox(pos=self.pos, size=self.size, radius=[dp(12)])
        self.bind(pos=self._redraw, size=self._redraw)
        first = BoxLayout(spacing=dp(8))
        cards = BoxLayout(spacing=dp(8)) if two_rows else first
        self.question = Label(text=question, font_name=theme.FONT_BOLD, font_size="21sp", color=theme.TEXT,
                              halign="left", valign="middle")   # wraps to a second line rather than cut
        self.question.bind(size=self._size_question, text=lambda label, _: self._size_question(label, label.size))
        first.add_widget(self.question)
        self.buttons: dict[str, TableButton] = {}
        for code, words in choices:
            button = TableButton(text=words, primary=not self.buttons, font_size="24sp")
            if not two_rows:   # beside the question; on a row of their own they share it
                button.size_hint_x, button.width = None, dp(150) if len(choices) <= 2 else dp(110)
            button.card = code
            button.bind(on_release=lambda btn: on_choose(btn.card))
            self.buttons[code] = button
            cards.add_widget(button)
        dismiss = TableButton(text="Not it", size_hint_x=None, width=dp(110))
        dismiss.bind(on_release=lambda btn: on_dismiss())
        self.buttons[""] = dismiss
        first.add_widget(dismiss)
        self.add_widget(first)
        if two_rows:
            self.add_widget(cards)

    def _size_question(self, label, size) -> None:
        """The question as large as its place allows (it stands in for the player's name, read
        from across the table), from 21sp up to 40sp: at most half its height, and its words on
        one line where they fit (about 0.62 em a character in the bold face)."""
        label.text_size = size
        width, height = size
        label.font_size = max(sp(21), min(sp(40), height * 0.45, (width - dp(8)) / (0.62 * max(1, len(label.text)))))

    def _redraw(self, *_):
        self._back.pos, self._back.size = self.pos, self.size


class SeesCards:
    """Mixed into a game screen (a Kivy Screen) whose plays the camera may see."""

    camera_take_at_once = False
    seen_bar: SeenCardBar | None = None
    _shown_offer = None   # the table controller's offer the bar shows (draw_offer)

    def camera_question(self, code: str) -> str:
        return f"Seen: {card_words(code)}?"

    def camera_take(self, code: str) -> None:
        raise NotImplementedError

    def camera_offer_over(self) -> tuple:
        """The widgets the offer covers while it is up (none: the top of the screen). A screen
        whose top shows what the table must not lose sight of gives the parts the question
        stands in for, so nothing shows cut in half under the offer."""
        return ()

    def camera_knows(self, code: str) -> bool:
        """Whether a card seen is part of the play already being entered (nothing to offer)."""
        return False

    # -- coming and going ---------------------------------------------------------------------

    def camera_begin(self) -> None:
        link = camera_for(App.get_running_app())
        if link.configured and link.open() is not None:
            link.listen(self)

    def camera_end(self) -> None:
        camera_for(App.get_running_app()).stop_listening(self)
        self.put_seen_away()

    # -- what the camera saw ------------------------------------------------------------------

    def on_card(self, code: str, landed_at=None) -> None:
        self.offer_seen([code], sure=True)

    def on_unsure(self, candidates, landed_at=None) -> None:
        self.offer_seen(list(candidates)[:MOST_GUESSES], sure=False)

    def offer_seen(self, cards: list[str], sure: bool) -> None:
        if not cards or getattr(self, "session", None) is None or (sure and self.camera_knows(cards[0])):
            return
        if sure and self.camera_take_at_once:
            self.put_seen_away()
            self.camera_take(cards[0])
            return
        if sure:
            question = self.camera_question(cards[0])
            choices = [(cards[0], f"Yes, {card_words(cards[0])}")]
        else:
            question = "Which card landed?"
            choices = [(code, card_words(code)) for code in cards]
        self.show_offer(question, choices, on_choose=self._seen_chosen, on_dismiss=self.put_seen_away)

    def show_offer(self, question: str, choices: list[tuple[str, str]], on_choose, on_dismiss) -> SeenCardBar:
        """Put up the offer bar (``choices`` are (card, words) buttons, then "Not it"), in place of
        what :meth:`camera_offer_over` names; it stays until :meth:`put_seen_away`."""
        self.put_seen_away()
        over = self.camera_offer_over()
        if not over:
            self.seen_bar = bar = SeenCardBar(question, choices, on_choose=on_choose, on_dismiss=on_dismiss)
        else:
            _, _, _, tall = self._covered(over)
            self.seen_bar = bar = SeenCardBar(question, choices, on_choose=on_choose,
                                              on_dismiss=on_dismiss, two_rows=tall >= 2 * SeenCardBar.ROW)
            bar.size_hint, bar.pos_hint = (None, None), {}
            least = bar.height   # its buttons' own height, if what it covers is lower

            def cover(*_):
                x, y, wide, high = self._covered(over)
                bar.pos, bar.size = (x, y + high - max(high, least)), (wide, max(high, least))
            for widget in over:
                widget.bind(pos=cover, size=cover)
            bar.unbind_cover = lambda: [(w.unbind(pos=cover), w.unbind(size=cover)) for w in over]
            cover()
        self.add_widget(bar)
        return bar

    def draw_offer(self, offer, question: str, on_choose, on_dismiss) -> None:
        """Draw a table controller's offer (companion/table/controller.py's ``Offer``): its bar,
        put up once and its question kept up to date (a countdown); no offer, no bar."""
        if offer is None:
            self._shown_offer = None
            self.put_seen_away()
            return
        if offer is self._shown_offer and self.seen_bar is not None:
            self.seen_bar.question.text = question
            return
        if offer.sure:
            choices = [(offer.cards[0], f"Yes, {card_words(offer.cards[0])}")]
        else:
            choices = [(code, card_words(code)) for code in offer.cards]
        self.show_offer(question, choices, on_choose=on_choose, on_dismiss=on_dismiss)
        self._shown_offer = offer

    def _covered(self, widgets) -> tuple[float, float, float, float]:
        """(x, y, width, height) round ``widgets`` and a little more (the corners of what lies
        under stay hidden behind its own), in the screen's own coordinates (the screen places
        its children so; the widgets are nested deeper)."""
        corners = [self.to_widget(*w.to_window(*point)) for w in widgets for point in (w.pos, (w.right, w.top))]
        xs, ys, edge = [x for x, _ in corners], [y for _, y in corners], dp(3)
        return min(xs) - edge, min(ys) - edge, max(xs) - min(xs) + 2 * edge, max(ys) - min(ys) + 2 * edge

    def _seen_chosen(self, code: str) -> None:
        self.put_seen_away()
        self.camera_take(code)

    def put_seen_away(self) -> None:
        bar = self.seen_bar
        if bar is not None:
            self.seen_bar = None
            getattr(bar, "unbind_cover", lambda: None)()
            if bar.parent is not None:
                bar.parent.remove_widget(bar)
