"""What the Slapjack table shows, as plain data: the screen draws it and decides nothing.

Every message belongs to the card on top: a verdict, the engine's notices and the table's
own notes go when the table moves past their card (a card taken back, presses that were no
slap), so nothing from an earlier card comes back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.cards import SUIT_SYMBOLS
from companion.stats import histogram

_CARD_CODE = re.compile(r"\b(10|[2-9AJQK])([SHDC])\b")


def with_symbols(text: str) -> str:
    """Card codes in the engine's words shown with their suit symbols: "JH covered" -> "J♥ covered"."""
    return _CARD_CODE.sub(lambda m: m.group(1) + SUIT_SYMBOLS[m.group(2)], text)


def card_words(code: str | None) -> str:
    return with_symbols(code) if code else ""


@dataclass(frozen=True)
class SeatView:
    name: str
    count_text: str
    status: str        # "LAST CHANCE", "OUT", "2 wrong", ""
    current: bool      # their turn (or, after the game, a winner)
    out: bool


@dataclass(frozen=True)
class ResultRow:
    name: str
    cells: tuple[str, ...]
    counts: tuple[int, ...]   # the histogram of their reaction times (empty: none)


@dataclass(frozen=True)
class SlapjackView:
    mode: str
    seats: tuple[SeatView, ...]
    top: str                  # the card shown big ("" for none)
    card_dim: bool            # the card shown was won: it is no longer on the pile
    pile_text: str
    count_text: str
    turn_text: str
    turn_player: str | None   # whose colour the turn line wears (None: the panel's)
    turn_go: bool             # the slap-off's "Go!": the turn line lights up
    verdict_text: str
    verdict_kind: str         # "win", "wrong", "tie", ""
    notice_text: str
    aside_text: str
    held_text: str            # card pad: presses waiting for their card
    landing_text: str         # camera: presses waiting for it to name the card, who was first
    slapped_card_text: str    # "On the 9♣": the waiting presses were on the card showing
    go_text: str
    unsure: tuple[str, ...]   # "which card?": the cards a feed could not tell apart
    finished: bool
    can_undo: bool
    paused: bool
    calm: bool
    calm_waiting: bool
    verdict_waiting: bool     # judge only: Good or Wrong?
    winner_text: str          # after the game: how it ended
    results: tuple[ResultRow, ...]


def build_view(table) -> SlapjackView:
    """What the screen draws, from the engine's view and the table's way to play, each way
    building its own part (companion/games/slapjack/strategies.py)."""
    s = table.game_view()
    way = table.way
    finished = bool(s.finished)
    seats = []
    for name in table.players:
        count, status, out = way.seat_words(s, name)
        seats.append(SeatView(name, count, status, name == s.turn or (finished and name in s.winners), out))
    race = s.race
    # After a pile is won the Jack stays in view, dimmed, until the next card covers the table.
    top = s.top or (race.card if race else None) or ""
    pile, count_text = way.pile_words(s)
    current = way.showing_current(s)
    verdict = with_symbols(race.text) if current and race else ""
    kind = ("" if not current or race is None else "tie" if race.tie and not race.winner else
            "win" if race.winner else "wrong" if race.wrong else "")
    held = way.held_text() if not finished else ""
    calm_waiting = way.calm_waiting()
    turn_text, turn_player, go = _turn_words(table, s, held, calm_waiting)
    results, winner_text = _results(table, s) if finished else ((), "")
    return SlapjackView(
        mode=table.mode, seats=tuple(seats), top=top, card_dim=not s.top and bool(top), pile_text=pile,
        count_text=count_text, turn_text=turn_text, turn_player=turn_player, turn_go=go,
        verdict_text=verdict, verdict_kind=kind,
        notice_text=with_symbols("\n".join(s.notices)) if current else "",
        aside_text=table.aside_text(), held_text=held,
        landing_text=way.landing_text() if not finished else "",
        slapped_card_text=f"On the {card_words(s.top)}" if held and s.top else "",
        go_text=table.go_text, unsure=tuple(way.unsure[0]) if way.unsure else (),
        finished=finished, can_undo=table.session.can_undo and way.can_undo(),
        paused=way.paused, calm=table.calm, calm_waiting=calm_waiting,
        verdict_waiting=way.waiting_verdict(), winner_text=winner_text, results=results)


def _and(names) -> str:
    return " and ".join(names)


def _turn_words(table, s, held: str, calm_waiting: bool) -> tuple[str, str | None, bool]:
    """The turn line: its words, whose colour it wears, and whether it is the slap-off's "Go!"."""
    names = s.winners
    if s.finished:
        if names:
            return f"{_and(names)} {'share the win' if len(names) > 1 else 'wins'}!", names[0], False
        return "Game over", None, False
    if table.slapoff is not None or s.pending == "slapoff":
        tied = table.slapoff.tied if table.slapoff is not None else table.tied()
        go = table.go_text
        return "Slap-off: " + _and(tied) + (f" \u2014 {go}" if go else ""), None, go == "Go!"
    return table.way.turn_words(s, held, calm_waiting)


def _results(table, s) -> tuple[tuple[ResultRow, ...], str]:
    rows = []
    for name in table.players:
        tally = s.tallies[name]
        times = tally.reactions_ms
        rows.append(ResultRow(name, (str(tally.slaps_won), str(tally.wrong_slaps),
                                     f"{tally.average_ms:.0f} ms" if times else "\u2014",
                                     f"{tally.best_ms:.0f} ms" if times else "\u2014"),
                              tuple(histogram(times)) if times else ()))
    how = {"card count": f"most cards after {s.cards_turned} cards", "table": "the table ended the game",
           "last player in": "the last player in, holding all 52 cards"}.get(s.ended or "", "")
    return tuple(rows), how
