"""Jacks at the table: round, pass and lead shown large; who took each Jack in four taps, or
the round refereed from the camera over the middle trick by trick (companion/games/jacks/table.py);
the round's points shown before they count; totals, history, chart, undo and edits."""

from __future__ import annotations

import time

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, DictProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.utils import escape_markup

from companion.cards import SUIT_SYMBOLS
from companion.errors import IllegalAction
from companion.games.jacks.table import JacksTable
from companion.games.jacks.rules import ALL_FOUR, JACKS, ONE_EACH, POINTS, pass_for_round, round_kind, round_points

from ui.screens.game_screen import GameScreen
from ui import sound
from ui.widgets.basics import CardFace, ChoiceButton, TableButton, TableLabel
from ui.widgets.card_picker import CardPicker  # noqa: F401  (the card pad in the .kv)
from ui.widgets.card_words import card_markup
from ui.widgets.chart import TotalsChart
from ui.widgets.seen_card import SeenCardBar

PASS_WORDS = {
    "left": "Pass 3 cards left \u2190",
    "right": "Pass 3 cards right \u2192",
    "across": "Pass 3 cards across \u2195",
    "none": "No passing this round",
}


def preview_words(players, assignment: dict) -> str:
    """What the round about to be recorded gives, in words (the rules decide the numbers)."""
    given = len(assignment)
    if given < len(JACKS):
        return f"Tap who took each Jack ({given} of 4 given)."
    points = round_points(players, assignment)
    kind = round_kind(players, assignment)
    if kind == ALL_FOUR:
        (taker,) = set(assignment.values())
        others = max(points.values())
        return f"{taker} took all four Jacks: {others} for everyone else!"
    if kind == ONE_EACH:
        return f"One Jack each: {points[players[0]]} points for everybody."
    return "Each one's points are on their tile: Record round to count them."


class TotalTile(BoxLayout):
    name = StringProperty("")
    total = NumericProperty(0)
    last = StringProperty("")
    fill = ListProperty([0, 0, 0, 1])
    leading = BooleanProperty(False)


class JackRow(BoxLayout):
    jack = StringProperty("")


class JacksCardPad(ModalView):
    """The card pad, rank then suit, for a card the camera missed: it is the next play."""

    question = StringProperty("")


class JacksScreen(GameScreen):
    round_text = StringProperty("")
    pass_text = StringProperty("")
    lead_text = StringProperty("")
    preview_text = StringProperty("")
    assignment = DictProperty({})
    editing = NumericProperty(0)  # the round being corrected, 0 when recording a new one
    finished = BooleanProperty(False)
    winner_text = StringProperty("")
    can_undo = BooleanProperty(False)

    camera_take_at_once = True   # every card in the middle is a play: nothing to confirm
    table: JacksTable | None = None
    card_pad: "JacksCardPad | None" = None   # open while a card is being tapped in

    def prepare(self, session=None, **_):
        if session is not None:
            if self.table is not None:
                self.table.close()
            self.session = session
            self.table = JacksTable(session, now=time.monotonic, schedule=self._schedule)
            self.assignment = {}
            self.editing = 0
            self.build_rows()
        self.refresh()

    def build_rows(self):
        app = App.get_running_app()
        grid = self.ids.jack_rows
        grid.clear_widgets()
        self.choice_buttons = {}
        self.name_grids = []
        for jack in JACKS:
            row = JackRow(jack=jack)
            face = CardFace(code=jack, four_colour=app.four_colour, font_size="26sp",
                            size_hint_x=None, width=dp(64))
            row.add_widget(face)
            row.add_widget(TableLabel(text=f"{POINTS[jack]}", font_size="22sp", size_hint_x=None, width=dp(30),
                                      halign="center"))
            # Four names to a line in landscape; two lines of two in portrait, so a long name fits.
            names = GridLayout(cols=self.name_cols(), spacing=dp(6))
            self.name_grids.append(names)
            for name in self.players:
                button = ChoiceButton(text=name, chosen_colour=app.player_colour(name))
                button.bind(on_release=lambda btn, j=jack, n=name: self.assign(j, n))
                self.choice_buttons[(jack, name)] = button
                names.add_widget(button)
            row.add_widget(names)
            grid.add_widget(row)
        self.ids.chart_box.clear_widgets()
        self.inline_chart = TotalsChart()
        self.ids.chart_box.add_widget(self.inline_chart)
        tiles = self.ids.totals
        tiles.clear_widgets()
        self.tiles = {}
        for name in self.players:
            tile = TotalTile(name=name, fill=app.player_colour(name))
            self.tiles[name] = tile
            tiles.add_widget(tile)

    def _schedule(self, delay: float, fn):
        return Clock.schedule_once(lambda dt: (fn(), self.refresh()), delay)

    # -- the camera over the middle: each card seen is a play (ui/widgets/seen_card.py) ----------

        if self.table is not None:
            self.table.close()

    def camera_take(self, code: str) -> None:
        if self.finished or self.editing:
            return
        before = len(self.table.notes)
        self.table.choose(code)
        app = App.get_running_app()
        for note in self.table.notes[before:]:
            app.notify(note, "error")   # said, never refused: the table plays on
        if self.table.message:
            app.notify(self.table.message, "error")
        if self.table.waiting:
            self.ask_leader()
        self.refresh()

    def on_card(self, code: str, landed_at=None) -> None:
        """A card the camera reports where it still lies (seen twice, not played twice) is said
        and goes no further; any other is the next play."""
        again = self.table.seen_again(code) if self.table is not None else None
        if again is not None:
            App.get_running_app().notify(again)
            return
        super().on_card(code, landed_at)

    def on_cleared(self, at=None) -> None:
        """The camera sees the middle empty: the taken trick was gathered."""
        if self.table is not None:
            self.table.on_cleared(at)

    def open_card_pad(self) -> None:
        """A card the camera missed (or a table with no camera), tapped in as the next play."""
        if self.finished or self.editing:
            return
        play = self.table.play if self.table is not None else None
        pad = JacksCardPad(question=f"{play.to_play} played: the rank, then the suit" if play
                           else "The card played: the rank, then the suit")
        picker = pad.ids.picker
        picker.four_colour = App.get_running_app().four_colour
        picker.bind(on_card=lambda p, code: self.card_pad_chose(code))
        pad.bind(on_dismiss=lambda view: setattr(self, "card_pad", None) if view is self.card_pad else None)
        self.card_pad = pad
        pad.open(animation=False)

    def card_pad_chose(self, code: str) -> None:
        pad, self.card_pad = self.card_pad, None
        if pad is not None:
            pad.dismiss(animation=False)
        self.camera_take(code)

    def ask_leader(self) -> None:
        """One tap says who holds 3\u2665: they led the round's first trick."""
        self.put_seen_away()
        self.seen_bar = SeenCardBar("Who has 3\u2665?", [(name, name) for name in self.players],
                                    on_choose=self.leader_chosen, on_dismiss=self.put_seen_away)
        self.add_widget(self.seen_bar)

    def leader_chosen(self, name: str) -> None:
        self.put_seen_away()
        self.table.tap_leader(name)
        self.refresh()

    def name_cols(self) -> int:
        return 4 if self.width > self.height else 2

    def on_size(self, *_):
        for names in getattr(self, "name_grids", ()):
            names.cols = self.name_cols()

    def assign(self, jack: str, name: str):
        if self.assignment.get(jack) == name:
            del self.assignment[jack]  # a second tap takes the choice back
        else:
            self.assignment[jack] = name
        self.refresh()

    def refresh(self):
        if self.session is None:
            return
        state = self.session.state
        view = self.session.view()
        self.finished = view.finished
        self.can_undo = self.session.can_undo
        number = self.editing or view.round
        self.round_text = f"Correcting round {self.editing}" if self.editing else f"Round {number}"
        self.pass_text = PASS_WORDS[pass_for_round(number)]
        self.lead_text = f"{card_markup('3H', App.get_running_app().four_colour)} leads \u00b7 no Jack in trick 1"
        if view.play and not self.editing:
            self.show_trick(view.play)
        for (jack, name), button in self.choice_buttons.items():
            button.state = "down" if self.assignment.get(jack) == name else "normal"
        self.preview_text = preview_words(self.players, dict(self.assignment))
        play = view.play
        if play and not self.editing and not play.round_over and not self.assignment:
            # Played trick by trick: the takers come from the tricks, no tap is owed yet.
            self.preview_text = f"Jacks taken so far: {len(play.jacks_taken)} of 4. Their takers fill in by themselves."
        low = min(view.scores.values())
        last_round = view.rounds[-1] if view.rounds else None
        coming = round_points(self.players, dict(self.assignment)) if len(self.assignment) == len(JACKS) else None
        for name, tile in self.tiles.items():
            tile.total = view.scores[name]
            if coming is not None and not self.finished:
                tile.last = f"now +{coming[name]}"
            else:
                tile.last = f"last +{last_round[name]}" if last_round else f"target {state.target}"
            tile.leading = bool(view.rounds) and view.scores[name] == low
        chart = self.make_chart()
        self.inline_chart.target, self.inline_chart.series = chart.target, chart.series
        if self.finished:
            winners = view.winners
            verb = "win" if len(winners) > 1 else "wins"
            self.winner_text = f"{' and '.join(winners)} {verb} with {low}!"
        else:
            self.winner_text = ""

    def show_trick(self, play):
        """The round being played trick by trick: who is to play, the cards so far and who is
        winning; after a trick, who took it and any Jack in it. Once all four Jacks are taken
        their takers are offered for Record round."""
        four = App.get_running_app().four_colour
        trick, last = play.trick, play.last_trick
        if play.round_over:
            self.pass_text = "All four Jacks are taken"
            if not self.assignment:
                self.assignment = dict(play.jacks_taken)
                self.preview_text = preview_words(self.players, dict(self.assignment))
        else:
            # Whose play, as large as the round number was (read from across the table).
            self.round_text = f"{play.to_play} to play"
            self.pass_text = f"Round {self.session.view().round} \u00b7 trick {trick.number}"
        if trick.cards:
            cards = " ".join(card_markup(c.card, four) for c in trick.cards)
            self.lead_text = f"{cards} \u00b7 {escape_markup(trick.winning)} winning"
        elif last is not None:
            jacks = " ".join(card_markup(j, four) for j in last.jacks)
            self.lead_text = f"{escape_markup(last.taker)} took trick {last.number}" + (f" with {jacks}" if jacks else "")
        else:
            self.lead_text = f"{escape_markup(trick.leader)} leads with {card_markup('3H', four)}"

    def record(self):
        app = App.get_running_app()
        if len(self.assignment) < len(JACKS):
            missing = ", ".join(j[0] + SUIT_SYMBOLS[j[1]] for j in JACKS if j not in self.assignment)
            app.notify(f"Tap who took {missing} first: a round ends when all four Jacks are taken.", "error")
            return
        jacks = {jack: self.assignment[jack] for jack in JACKS}
        action = {"type": "edit", "round": self.editing, "jacks": jacks} if self.editing else {"type": "round", "jacks": jacks}
        try:
            self.session.play(action)
        except IllegalAction as exc:
            app.notify(str(exc).capitalize(), "error")
            return
        app.notify(f"Round {self.editing} corrected." if self.editing else "Round recorded.")
        self.assignment = {}
        self.editing = 0
        self.refresh()
        sound.play("game-over") if self.finished else None

    def undo(self):
        app = App.get_running_app()
        if self.editing:
            self.cancel_edit()
            return
        if self.table is not None and self.table.waiting:   # a card seen before anyone led
            self.table.undo()
            self.refresh()
            return
        try:
            action = self.session.undo()
        except IllegalAction as exc:
            app.notify(str(exc).capitalize(), "error")
            return
        if action["type"] in ("play", "lead"):
            app.notify("Last play taken back." if action["type"] == "play" else "Who led was taken back.")
        elif action["type"] == "round":
            # Put the undone round back in the taps, so a wrong tap is one tap to fix.
            self.assignment = dict(action["jacks"])
            app.notify("Last round taken back: fix it and record it again.")
        else:
            app.notify(f"The correction to round {action['round']} was taken back.")
        self.refresh()

    def start_edit(self, number: int):
        self.editing = number
        self.assignment = dict(self.session.state.round_jacks(number))
        self.refresh()

    def cancel_edit(self):
        self.editing = 0
        self.assignment = {}
        self.refresh()

    def open_history(self):
        HistoryView(screen=self).open()

    def open_chart(self):
        view = ModalView(size_hint=(0.95, 0.9))
        box = BoxLayout(orientation="vertical", padding=dp(12), spacing=dp(8))
        box.add_widget(TableLabel(text="Totals after each round", font_size="22sp", size_hint_y=None, height=dp(40)))
        box.add_widget(self.make_chart())
        close = TableButton(text="Close", size_hint_y=None, height=dp(64))
        close.bind(on_release=lambda *_: view.dismiss())
        box.add_widget(close)
        view.add_widget(box)
        view.open()

    def make_chart(self) -> TotalsChart:
        app = App.get_running_app()
        totals = self.session.state.totals_by_round
        series = [(name, app.player_colour(name), [t[name] for t in totals]) for name in self.players]
        return TotalsChart(series=series, target=self.session.state.target)

    def new_game(self):
        App.get_running_app().new_game("jacks")


class HistoryView(ModalView):
    """Round by round: each round's points and the running totals; tap Edit to correct one."""

    def __init__(self, screen: JacksScreen, **kwargs):
        super().__init__(size_hint=(0.96, 0.92), **kwargs)
        self.screen = screen
        state = screen.session.state
        players = screen.players
        outer = BoxLayout(orientation="vertical", padding=dp(10), spacing=dp(6))
        # narrow number and Edit columns, so the players' columns hold a long name
        header = BoxLayout(size_hint_y=None, height=dp(40), spacing=dp(4))
        header.add_widget(TableLabel(text="#", font_size="18sp", size_hint_x=None, width=dp(40), halign="center"))
        for name in players:
            header.add_widget(TableLabel(text=name, font_size="18sp", halign="center"))
        header.add_widget(TableLabel(text="", size_hint_x=None, width=dp(80)))
        outer.add_widget(header)
        from kivy.uix.scrollview import ScrollView

        scroll = ScrollView(do_scroll_x=False)
        rows = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(6))
        rows.bind(minimum_height=rows.setter("height"))
        for number, (points, totals) in enumerate(zip(state.round_scores, state.totals_by_round), start=1):
            row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(4))
            row.add_widget(TableLabel(text=str(number), font_size="20sp", size_hint_x=None, width=dp(40),
                                      halign="center"))
            for name in players:
                row.add_widget(TableLabel(text=f"+{points[name]}  = {totals[name]}", font_size="18sp",
                                          halign="center"))
            edit = TableButton(text="Edit", size_hint_x=None, width=dp(80))
            edit.round_number = number
            edit.bind(on_release=lambda btn: self.edit(btn.round_number))
            row.add_widget(edit)
            rows.add_widget(row)
        if not state.rounds:
            rows.add_widget(TableLabel(text="No rounds yet.", size_hint_y=None, height=dp(48)))
        scroll.add_widget(rows)
        outer.add_widget(scroll)
        close = TableButton(text="Close", size_hint_y=None, height=dp(64))
        close.bind(on_release=lambda *_: self.dismiss())
        outer.add_widget(close)
        self.add_widget(outer)

    def edit(self, number: int):
        self.dismiss()
        self.screen.start_edit(number)
        App.get_running_app().notify(f"Correcting round {number}: change the taps, then save it.")
