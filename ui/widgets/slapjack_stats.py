"""Slapjack's reaction-time rows and the stats across games, as widgets of their own: the
set-up opens the stats and the game screen shows its results without either building the
other. Their look is in ``slapjack_stats.kv`` beside this file, loaded the first time one of
them is made (not on import: the .kv imports Kivy's window, which must wait for the app's config)."""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.graphics import Color, Rectangle
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ColorProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.stats import bin_label, histogram, slapjack_stats

from .. import theme
from .name_grid import text_width

_KV = Path(__file__).with_suffix(".kv")
_loaded = []


def load_kv() -> None:
    if not _loaded:
        Builder.load_file(str(_KV))
        _loaded.append(_KV)


class ReactionBars(Widget):
    """A small histogram of reaction times (bins from ``companion.stats``)."""

    counts = ListProperty([])
    fill = ColorProperty(theme.PRIMARY)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, counts=self._draw, fill=self._draw)

    def _draw(self, *_):
        self.canvas.clear()
        counts = list(self.counts)
        if not counts:
            return
        top = max(counts) or 1
        width = self.width / len(counts)
        with self.canvas:
            Color(*theme.PANEL_LIGHT)
            Rectangle(pos=(self.x, self.y), size=(self.width, dp(2)))
            Color(*self.fill)
            for i, count in enumerate(counts):
                if count:
                    height = max(dp(3), (self.height - dp(2)) * count / top)
                    Rectangle(pos=(self.x + i * width + 1, self.y + dp(2)), size=(max(1, width - 2), height))


class SlapResultRow(BoxLayout):
    """One player's line after a game, or across games in the stats: their name, a few
    figures, and the histogram of their reaction times (a header row names the columns)."""

    name = StringProperty("")
    fill = ColorProperty(theme.PANEL_LIGHT)
    counts = ListProperty([])
    header = BooleanProperty(False)
    name_width = NumericProperty(dp(100))   # the same in every row of a table: see name_column()

    def __init__(self, cells=(), **kwargs):
        load_kv()
        super().__init__(**kwargs)
        for text in cells:
            self.ids.cells.add_widget(SlapResultCell(text=text, header=self.header))


def name_column(names) -> float:
    """How wide the names' column is: the longest name whole, at the rows' 20 px."""
    return max([dp(100)] + [text_width(name, theme.FONT_BOLD, sp(20)) + dp(16) for name in names])


class SlapResultCell(Label):
    header = BooleanProperty(False)

    def __init__(self, **kwargs):
        load_kv()
        super().__init__(**kwargs)


class SlapjackStatsView(ModalView):
    """Every person's Slapjack across finished games: slaps won, wrong slaps, reaction times."""

    title = StringProperty("")

    def __init__(self, **kwargs):
        load_kv()
        super().__init__(**kwargs)
        app = App.get_running_app()
        records = app.store.games(game="slapjack", status="finished", limit=100_000)
        stats = slapjack_stats(r.result for r in records)
        played = sum(1 for r in records if r.result)
        self.title = f"Slapjack across {played} finished game{'s' if played != 1 else ''}"
        rows = self.ids.rows
        width = name_column(stats)
        rows.add_widget(SlapResultRow(header=True, name_width=width,
                                      cells=["games", "wins", "slaps won", "wrong", "avg ms", "best ms"]))
        for name, player in sorted(stats.items(), key=lambda item: item[0].lower()):
            timed = bool(player.reactions_ms)
            rows.add_widget(SlapResultRow(name=name, fill=app.player_colour(name), name_width=width,
                                          cells=[str(player.games), str(player.wins), str(player.slaps_won),
                                                 str(player.wrong_slaps),
                                                 f"{player.average_ms:.0f}" if timed else "\u2014",
                                                 f"{player.best_ms:.0f}" if timed else "\u2014"],
                                          counts=player.histogram if timed else []))
        if not stats:
            self.ids.empty.text = "No finished Slapjack games yet: the stats fill in as you play."
        self.ids.scale.text = (f"Reaction times: {bin_label(0)} ms at the left, "
                               f"{bin_label(len(histogram([])) - 1)} ms at the right, 50 ms a bar")


def open_stats() -> SlapjackStatsView:
    view = SlapjackStatsView()
    view.open(animation=False)
    return view

