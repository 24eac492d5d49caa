"""One-Eyed Jack: rows of five chips on a 10x10 board of cards (docs/rules.md, "One-Eyed Jack").

Players hold real cards; the companion is the board. Each action says which card was played
and where; the rules place or remove the chip, find rows, lock their chips, count the stock
and call the winner (or the draw). The companion never sees a hand, so it cannot know whether
a player who passes could have played; it trusts a pass.

Sides are numbered from 0 in seating order: with 2 or 3 players each player is a side; with
4, players 0 and 2 are side 0 and players 1 and 3 are side 1 (``player % sides``).

>>> from companion.engine import Game
>>> game = Game({"game": "one-eyed-jack", "players": ["Ann", "Ben"], "options": {}})
>>> _ = game.push({"type": "play", "card": "7S", "at": [1, 2]})
>>> s = game.summary()
>>> s["board"][1], s["turn"], s["stock"]
('..0.......', 'Ben', 89)
>>> targets(game.state, "7S")
[(6, 6)]
>>> game.push({"type": "play", "card": "JS", "remove": [0, 0]})
Traceback (most recent call last):
...
companion.errors.IllegalAction: Corners are free spaces: there is no chip on them to remove
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property

from collections import Counter

from companion.cards import CardError, full_deck, parse_card
from companion.rules import Outcome, Rules
from companion.games.one_eyed_jack.view import OneEyedJackView
from companion.errors import BadHeader, IllegalAction
from companion.games.one_eyed_jack import board as board_
from companion.games.one_eyed_jack.board import (CORNERS, JACKS, ONE_EYED, PLAYABLE_SPACES, SIZE, TWO_EYED, Space, card_at,
                                  index, spaces_of)

DECK = 104  # two packs without Jokers
HAND_SIZES = {2: 7, 3: 6, 4: 5}


@dataclass(frozen=True)
class RowLine:
    """One line that counts as a row (or two): the side, its spaces in order, and how many rows."""

    side: int
    spaces: tuple[Space, ...]
    count: int  # 1 for 5 to 9 in a line, 2 for a full line of 10


def sides_for(players: int) -> int:
    """How many sides play: four players are two teams, partners opposite (docs/rules.md).

    >>> [sides_for(n) for n in (2, 3, 4)]
    [2, 3, 2]
    """
    return 2 if players == 4 else players


def side_of_seat(seat: int, players: int) -> int:
    """The side of the player in ``seat`` (from 0) at a table of ``players``."""
    return seat % sides_for(players)


def find_rows(board: tuple[int | None, ...], sides: int) -> tuple[RowLine, ...]:
    """Every row on ``board`` (100 spaces, row by row, each a side or None).

    A row is an unbroken run of one side's spaces along a line, free corners counting for
    every side; a run of 5 to 9 is 1 row and a full line of 10 is 2. Runs are maximal, so a
    chip that lengthens a row from 5 to 6 leaves it 1 row. Two runs of 5 cannot share a line
    of 10 (they would need 11 spaces), so a line never holds two separate rows of one side.
    The rows come line by line (board_.LINES' order), then side by side.
    """
    return tuple(row for line in range(len(board_.LINES)) for row in _rows_on_line(board, line, sides))


def _rows_on_line(board: tuple[int | None, ...], line: int, sides: int) -> list[RowLine]:
    spaces = board_.LINES[line]
    return [RowLine(side, spaces[first:past], board_.rows_in_run(past - first))
            for side in range(sides) for first, past in board_.side_runs(board, line, side)]


def rows_after_change(rows: tuple[RowLine, ...], board: tuple[int | None, ...], space: Space,
                      sides: int) -> tuple[RowLine, ...]:
    """``find_rows(board, sides)`` when ``rows`` were the rows before only ``space`` changed:
    only the lines through that space are looked at again (the same rows, in the same order)."""
    through = board_.LINES_THROUGH[index(space)]
    kept = [row for row in rows if board_.LINE_OF_PAIR[row.spaces[0], row.spaces[1]] not in through]
    fresh = [row for line in through for row in _rows_on_line(board, line, sides)]
    if not fresh and len(kept) == len(rows):
        return rows
    return tuple(sorted(kept + fresh, key=_row_order))


def _row_order(row: RowLine) -> tuple[int, int, Space]:
    return board_.LINE_OF_PAIR[row.spaces[0], row.spaces[1]], row.side, row.spaces[0]


@dataclass(frozen=True)
class OneEyedJackState:
    players: tuple[str, ...]
    board: tuple[int | None, ...]  # 100 spaces, row by row: the side whose chip is there, or None
    turn: int = 0  # index of the player to move (or who moved last, once finished)
    stock: int = 0
    discards: int = 0  # cards in the discard pile since the stock was last rebuilt
    discarded: tuple[str, ...] = ()  # those cards: a card with all its copies here is in no hand
    rebuilt: bool = False  # the stock has already been rebuilt from the discards once
    reshuffle: bool = False  # the last action emptied the stock and the discards became the new one
    swapped: bool = False  # the player to move has swapped a dead card this turn
    passes: int = 0  # passes in a row
    row_lines: tuple[RowLine, ...] = ()
    winner: int | None = None  # a side
    draw: str | None = None  # "passes" or "stock" when the game ended in a draw

    @property
    def sides(self) -> int:
        return sides_for(len(self.players))

    @property
    def teams(self) -> bool:
        return len(self.players) == 4

    @property
    def hand_size(self) -> int:
        return HAND_SIZES[len(self.players)]

    @property
    def rows_to_win(self) -> int:
        return 1 if len(self.players) == 3 else 2

    def side_of(self, player: int) -> int:
        return side_of_seat(player, len(self.players))

    def members(self, side: int) -> list[str]:
        return [p for i, p in enumerate(self.players) if self.side_of(i) == side]

    @property
    def turn_side(self) -> int:
        return self.side_of(self.turn)

    def chip(self, space: Space) -> int | None:
        return self.board[index(space)]

    @cached_property
    def locked(self) -> frozenset[Space]:
        """Every chip in a line that counts as a row (corners are not chips, so not listed)."""
        return frozenset(s for line in self.row_lines for s in line.spaces if s not in CORNERS)

    @property
    def row_counts(self) -> dict[int, int]:
        counts = {side: 0 for side in range(self.sides)}
        for line in self.row_lines:
            counts[line.side] += line.count
        return counts

    @property
    def finished(self) -> bool:
        return self.winner is not None or self.draw is not None


def _card(text: str) -> str:
    return str(parse_card(text))


def removable(state: OneEyedJackState) -> list[Space]:
    """The chips a one-eyed Jack of the player to move may take: another side's, not in a row."""
    side = state.turn_side
    return [s for s in PLAYABLE_SPACES
            if state.chip(s) is not None and state.chip(s) != side and s not in state.locked]


def is_dead(state: OneEyedJackState, card: str) -> bool:
    """Both spaces of ``card`` hold chips. A Jack has no spaces, so it is never dead."""
    spaces = spaces_of(_card(card))
    return bool(spaces) and all(state.chip(s) is not None for s in spaces)


def targets(state: OneEyedJackState, card: str) -> list[Space]:
    """Where ``card`` can go now: its open spaces; any open non-corner space for JC/JD; the
    chips JS/JH may remove. Empty once the game is over."""
    if state.finished or all_copies_out(state, card):
        return []
    code = _card(card)
    if code in ONE_EYED:
        return removable(state)
    spaces = PLAYABLE_SPACES if code in TWO_EYED else spaces_of(code)
    return [s for s in spaces if state.chip(s) is None]


COPIES = 2   # two decks: every card twice (docs/rules.md, "One-Eyed Jack")


def all_copies_out(state: OneEyedJackState, card: str) -> bool:
    """Both copies of ``card`` are on the discard pile (each played card is: its chip is on the
    board), so nobody can hold it: the rules refuse it as a play or a swap, and it is never offered."""
    return state.discarded.count(_card(card)) >= COPIES


def copies_out_reason(card: str, doing: str = "played") -> str:
    code = _card(card)
    return (f"{code} can't be {doing}: both copies of {code} are already played or discarded "
            f"(two decks hold every card twice)")


def can_play(state: OneEyedJackState, card: str) -> bool:
    return bool(targets(state, card))


def cards_for_space(state: OneEyedJackState, row: int, col: int) -> list[str]:
    """The cards that could be played on this space now: the card it shows and the two-eyed
    Jacks if it is open, the one-eyed Jacks if it holds a chip they may remove."""
    space = (row, col)
    if state.finished or space in CORNERS:
        return []
    if state.chip(space) is None:
        cards = [card_at(row, col), *TWO_EYED]
    elif space in removable(state):
        cards = list(ONE_EYED)
    else:
        return []
    return [c for c in cards if not all_copies_out(state, c)]


def new_game(players: list[str] | tuple[str, ...]) -> OneEyedJackState:
    return OneEyedJackState(tuple(players), (None,) * (SIZE * SIZE),
                            stock=DECK - HAND_SIZES[len(players)] * len(players))


class OneEyedJackRules(Rules):
    name = "one-eyed-jack"
    title = "One-Eyed Jack"

    def start(self, header: dict) -> OneEyedJackState:
        players = header["players"]
        if len(players) not in HAND_SIZES:
            raise BadHeader("One-Eyed Jack is played by 2 or 3 players, or 4 in two teams; "
                            f"this game has {len(players)}")
        options = header.get("options") or {}
        if options:
            raise BadHeader(f"unknown option {sorted(options)[0]!r}: One-Eyed Jack has no options")
        return new_game(players)

    # --- reading an action -------------------------------------------------------------

    def _read_card(self, action: dict) -> str:
        if "card" not in action:
            raise IllegalAction('say which card was played, e.g. "card": "7S"')
        try:
            card = _card(action["card"])
        except CardError as exc:
            raise IllegalAction(str(exc)) from None
        return card

    def _read_space(self, action: dict, key: str) -> Space:
        value = action.get(key)
        if (not isinstance(value, (list, tuple)) or len(value) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
                or not board_.on_board(*value)):
            raise IllegalAction(f'"{key}" must be [row, column], two numbers from 0 to {SIZE - 1} '
                                "(row 0 is the top, column 0 the left)")
        return (value[0], value[1])

    # --- the turn ----------------------------------------------------------------------

    def apply(self, state: OneEyedJackState, action: dict) -> OneEyedJackState:
        kind = action.get("type")
        if kind not in ("play", "swap", "pass"):
            raise IllegalAction(f'One-Eyed Jack has the actions "play", "swap" and "pass", not {kind!r}')
        if state.finished:
            raise IllegalAction("The game is over: nobody can play any more (undo to change the end)")
        if kind == "pass":
            return self._pass(state)
        if kind == "swap":
            return self._swap(state, action)
        return self._play(state, action)

    def _pass(self, state: OneEyedJackState) -> OneEyedJackState:
        passes = state.passes + 1
        return dataclasses.replace(
            state, turn=(state.turn + 1) % len(state.players), swapped=False, reshuffle=False,
            passes=passes, draw="passes" if passes >= len(state.players) else None)

    def _swap(self, state: OneEyedJackState, action: dict) -> OneEyedJackState:
        if state.swapped:
            raise IllegalAction("Only one swap a turn")
        card = self._read_card(action)
        if all_copies_out(state, card):
            raise IllegalAction(copies_out_reason(card, "swapped"))
        if card in JACKS:
            raise IllegalAction("You can only swap a dead card (both its spaces have chips): "
                                f"{card} is a Jack, and a Jack has no spaces, so it is never dead")
        if not is_dead(state, card):
            raise IllegalAction("You can only swap a dead card (both its spaces have chips): "
                                f"{card} still has an open space")
        # The swap does not end the turn and does not break a run of passes: only a play does.
        return dataclasses.replace(state, swapped=True, **self._discard_and_draw(state, card))

    def _play(self, state: OneEyedJackState, action: dict) -> OneEyedJackState:
        card = self._read_card(action)
        if all_copies_out(state, card):
            raise IllegalAction(copies_out_reason(card))
        side = state.turn_side
        board = list(state.board)
        if card in ONE_EYED:
            if "at" in action:
                raise IllegalAction(f"{card} is a one-eyed Jack: it places no chip, it removes one. "
                                    'Say which chip with "remove": [row, column]')
            if not removable(state):
                raise IllegalAction(f"{card} can't be played: there is no chip it can remove")
            if "remove" not in action:
                raise IllegalAction(f'Say which chip {card} removes: "remove": [row, column]')
            space = self._read_space(action, "remove")
            if space in CORNERS:
                raise IllegalAction("Corners are free spaces: there is no chip on them to remove")
            owner = state.chip(space)
            if owner is None:
                raise IllegalAction("There is no chip on that space to remove")
            if owner == side:
                raise IllegalAction("You can't remove your partner's chip, or your own: "
                                    "a one-eyed Jack takes the other team's chips" if state.teams
                                    else "You can't remove your own chip")
            if space in state.locked:
                raise IllegalAction("You can't remove a chip that is part of a row")
            board[index(space)] = None
        else:
            if "remove" in action:
                raise IllegalAction(f"Only a one-eyed Jack (JS or JH) removes a chip: {card} puts a chip "
                                    + ("on any open space" if card in TWO_EYED else f"on a space showing {card}"))
            if "at" not in action:
                raise IllegalAction('Say where the chip goes: "at": [row, column]')
            space = self._read_space(action, "at")
            if space in CORNERS:
                raise IllegalAction("Corners are free spaces: nobody plays on them")
            shown = card_at(*space)
            if card not in TWO_EYED and shown != card:
                raise IllegalAction(f"{card} goes on a space showing {card}; that space shows {shown}")
            if state.chip(space) is not None:
                hint = (f" (both {card} spaces have chips, so {card} is a dead card: you may swap it)"
                        if card not in TWO_EYED and is_dead(state, card) else "")
                raise IllegalAction("That space is taken" + hint)
            board[index(space)] = side
        board_t = tuple(board)
        row_lines = rows_after_change(state.row_lines, board_t, space, state.sides)
        if sum(line.count for line in row_lines if line.side == side) >= state.rows_to_win:
            # The game ends as the chip goes down, so the winner draws no card: a win that takes
            # the stock's last card is still a win, not a draw.
            return dataclasses.replace(state, board=board_t, row_lines=row_lines, passes=0,
                                       winner=side, reshuffle=False, discards=state.discards + 1,
                                       discarded=state.discarded + (card,))
        drawn = self._discard_and_draw(state, card)
        if "draw" not in drawn:  # the game goes on: the next player's turn
            drawn.update(turn=(state.turn + 1) % len(state.players), swapped=False)
        # One new state per action (replace() is most of what a cheap action costs).
        return dataclasses.replace(state, board=board_t, row_lines=row_lines, passes=0, **drawn)

    def _discard_and_draw(self, state: OneEyedJackState, card: str) -> dict:
        """``card`` onto the discard pile, then one drawn from the stock: the fields that change
        (with "draw" among them only when the game ends, the stock having run out twice)."""
        discards, discarded = state.discards + 1, state.discarded + (card,)
        stock = state.stock - 1
        if stock > 0:
            return {"stock": stock, "discards": discards, "discarded": discarded, "reshuffle": False}
        if not state.rebuilt:
            # The stock's last card is drawn: the discards (this card too) become the new stock.
            return {"stock": discards, "discards": 0, "discarded": (), "rebuilt": True, "reshuffle": True}
        return {"stock": 0, "discards": discards, "discarded": discarded, "reshuffle": False, "draw": "stock"}

    # --- what the screen and replay show -----------------------------------------------

    def board_strings(self, state: OneEyedJackState) -> list[str]:
        def cell(r: int, c: int) -> str:
            if (r, c) in CORNERS:
                return "*"
            chip = state.board[r * SIZE + c]
            return "." if chip is None else str(chip)

        return ["".join(cell(r, c) for c in range(SIZE)) for r in range(SIZE)]

    def view(self, state: OneEyedJackState) -> OneEyedJackView:
        return OneEyedJackView(
            game=self.name,
            players=tuple(state.players),
            sides=tuple(tuple(state.members(side)) for side in range(state.sides)),
            player_sides={p: state.side_of(i) for i, p in enumerate(state.players)},
            turn=None if state.finished else state.players[state.turn],
            turn_side=None if state.finished else state.turn_side,
            board=tuple(self.board_strings(state)),
            locked=tuple(sorted(state.locked)),
            rows=dict(state.row_counts),
            rows_to_win=state.rows_to_win,
            row_lines=tuple(state.row_lines),
            winning_rows=tuple(line for line in state.row_lines if line.side == state.winner),
            hand_size=state.hand_size,
            stock=state.stock,
            discards=state.discards,
            stock_rebuilt=state.rebuilt,
            reshuffle=state.reshuffle,
            swapped_this_turn=state.swapped,
            passes_in_row=state.passes,
            finished=state.finished,
            winner=state.winner,
            winners=tuple(state.members(state.winner)) if state.winner is not None else (),
            draw=state.draw is not None,
            draw_reason=state.draw,
        )

    def _side_name(self, state: OneEyedJackState, side: int) -> str:
        return " & ".join(state.members(side))

    def describe(self, state: OneEyedJackState) -> list[str]:
        sides = " vs ".join(f"{self._side_name(state, s)} ({s})" for s in range(state.sides))
        lines = [f"One-Eyed Jack: {sides}"]
        lines += ["  " + " ".join(row) for row in self.board_strings(state)]
        counts = state.row_counts
        lines.append("Rows: " + ", ".join(f"{self._side_name(state, s)} {counts[s]}" for s in range(state.sides))
                     + f" ({state.rows_to_win} to win)")
        lines.append(f"Stock: {state.stock} cards, discard pile: {state.discards}")
        if state.reshuffle:
            lines.append("The stock ran out: shuffle the discards into a new stock")
        if state.winner is not None:
            who = self._side_name(state, state.winner)
            lines.append(f"Game over: {who} {'win' if state.teams else 'wins'} "
                         f"with {counts[state.winner]} row{'s' if counts[state.winner] != 1 else ''}")
        elif state.draw == "passes":
            lines.append("Game over: a draw, every player passed in a row")
        elif state.draw == "stock":
            lines.append("Game over: a draw, the stock ran out a second time")
        else:
            lines.append(f"Next: {state.players[state.turn]}"
                         + (" (has swapped a dead card this turn)" if state.swapped else ""))
        return lines

    def outcome(self, state: OneEyedJackState) -> Outcome | None:
        """docs/rules.md, "One-Eyed Jack": the first side to its rows wins (a team's players
        all win); every player passing in a row, or the stock running out twice, is a draw."""
        if state.winner is not None:
            rows = state.rows_to_win
            return Outcome(tuple(state.members(state.winner)), f"first to {rows} row{'s' if rows != 1 else ''}")
        if state.draw == "passes":
            return Outcome((), "every player passed in a row", draw=True)
        if state.draw == "stock":
            return Outcome((), "the stock ran out a second time", draw=True)
        return None

    def finished(self, state: OneEyedJackState) -> bool:
        return state.finished

    # --- what may be played ------------------------------------------------------------

    copies = COPIES

    def current_player(self, state: OneEyedJackState) -> str | None:
        return None if state.finished else state.players[state.turn]

    def legal_actions(self, state: OneEyedJackState) -> list[dict]:
        """A dead card's swap (once a turn), each card on each space it may take, and a pass
        (the companion never sees a hand, so it always takes the word that nobody can play).
        The card is the player's choice from a hand the companion cannot see: every card with
        a copy not yet known to be played is offered."""
        if state.finished:
            return []
        actions: list[dict] = []
        if not state.swapped:
            actions += [{"type": "swap", "card": card} for card in CARDS
                        if is_dead(state, card) and not all_copies_out(state, card)]
        for card in CARDS:
            actions += self.plays_of(state, card)
        actions.append({"type": "pass"})
        return actions

    def play_on(self, card: str, space: Space) -> dict:
        """The action that plays ``card`` on ``space``: a chip put there, or taken off by a
        one-eyed Jack. Whether it is legal is for :meth:`apply` to say."""
        return {"type": "play", "card": card, ("remove" if card in ONE_EYED else "at"): list(space)}

    def plays_of(self, state: OneEyedJackState, card: str) -> list[dict]:
        """The legal plays of one card now (its part of :meth:`legal_actions`): what a screen
        lights once that card is chosen."""
        if state.finished:
            return []
        return [self.play_on(card, space) for space in targets(state, card)]

    @staticmethod
    def space_of(action: dict) -> Space | None:
        """The space a play puts a chip on or takes one off."""
        where = action.get("at") or action.get("remove")
        return tuple(where) if where else None

    def cards_out(self, state: OneEyedJackState) -> dict[str, int]:
        return dict(Counter(state.discarded))

    def example_header(self, players: int | None, rng) -> dict:
        count = players or rng.choice(sorted(HAND_SIZES))
        return {"game": self.name, "players": [f"P{i + 1}" for i in range(count)], "options": {}}


CARDS = tuple(str(card) for card in full_deck())   # one of each card, in the deck's order
