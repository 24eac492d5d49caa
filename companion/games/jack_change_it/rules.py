"""Jack Change It: a shedding game for 2 to 10 players with two decks (docs/rules.md, "Jack Change It").

The companion never sees a hand. It knows each player's card count from the deal (7 each,
+1 per lift, +N per pick-up, -1 per card played), the stock and pile counts, the top card,
the suit in play, the direction, whose turn it is and what they owe, and it refuses a play
the rules forbid with the reason in words.

>>> from companion.engine import Game
>>> game = Game({"game": "jack-change-it", "players": ["Ann", "Ben", "Cat"], "start": "7H"})
>>> _ = game.push({"type": "play", "cards": ["2H"]})
>>> _ = game.push({"type": "play", "cards": ["2S"]})
>>> game.summary()["prompt"]
'Cat: pick up 4, or play a 2'
>>> game.push({"type": "lift"})
Traceback (most recent call last):
...
companion.errors.IllegalAction: Cat can't lift a card now: pick up 4 first, or play a 2
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from collections import Counter

from companion.cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS, Card, CardError, full_deck, parse_card
from companion.rules import Outcome, Rules
from companion.games.jack_change_it.view import JackChangeItView, Options, Owed
from companion.errors import BadHeader, IllegalAction

DECK_SIZE = 104  # two decks
HAND_SIZE = 7
MIN_PLAYERS, MAX_PLAYERS = 2, 10
OPTIONS = {"queens_reverse": True, "jacks_wild": False}
ACE_PICKUP = 5
TWO_PICKUP = 2
ACE_AND_TWO = ("AH", "2H")  # the only two-card play, in the order it lands (2H on top)
CANCEL = "5H"

TWOS = "twos"  # owed by a chain of 2s: a 2 passes it on
ACE = "ace"  # owed by the Ace of Hearts: only the 5 of Hearts stops it

RANK_WORDS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
_SUIT_INPUT = {**{s: s for s in SUITS}, **{sym: s for s, sym in SUIT_SYMBOLS.items()},
               **{name.upper(): s for s, name in SUIT_NAMES.items()}}


def rank_word(rank: str) -> str:
    """``"Ace"``, ``"7"``..."""
    return RANK_WORDS.get(rank, rank)


def a_rank(rank: str) -> str:
    """The rank with its article, as a child would say it: ``"a 7"``, ``"an 8"``, ``"an Ace"``."""
    return ("an " if rank in ("A", "8") else "a ") + rank_word(rank)


def card_words(card: Card | str) -> str:
    """``"the 8 of Clubs"``.

    >>> card_words("AH")
    'the Ace of Hearts'
    """
    card = parse_card(card) if isinstance(card, str) else card
    return f"the {rank_word(card.rank)} of {SUIT_NAMES[card.suit]}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class JackChangeItState:
    players: tuple[str, ...]
    queens_reverse: bool
    jacks_wild: bool
    hands: tuple[int, ...]  # card counts, in seat order
    stock: int
    pile: tuple[str, ...]  # bottom to top; exact, since every card on it was seen going on
    suit: str  # the suit in play: the top card's, or the one a Jack named
    named_suit: str | None = None  # set while a played Jack is on top
    turn: int | None = 0  # seat index; None once somebody has won
    direction: int = 1  # +1 clockwise (seat order), -1 anticlockwise
    owed: int = 0  # cards the player whose turn it is must pick up
    owed_kind: str | None = None  # TWOS or ACE
    winner: int | None = None
    turned_over: bool = False  # the last action turned the pile over as the new stock
    forgiven: int = 0  # cards the last action should have taken but none were left
    last: str = ""  # what the last action did, in words

    @property
    def top(self) -> str:
        return self.pile[-1]

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def queens_active(self) -> bool:
        """Queens reverse only with 3 or more players, and only with the option on."""
        return self.queens_reverse and len(self.players) >= 3

    @property
    def total_cards(self) -> int:
        """Hands + stock + pile: always 104 (a forgiven card was never taken)."""
        return sum(self.hands) + self.stock + len(self.pile)

    def player(self, seat: int) -> str:
        return self.players[seat]

    def next_seat(self, steps: int = 1, direction: int | None = None) -> int:
        return (self.turn + steps * (direction or self.direction)) % len(self.players)


def is_trick(state: JackChangeItState, card: Card) -> bool:
    """A card nobody may finish on: 2, 8, J, AH, and Q where Queens reverse (5H never)."""
    if card.rank in ("2", "8", "J") or str(card) == "AH":
        return True
    return card.rank == "Q" and state.queens_active


def matches(state: JackChangeItState, card: Card) -> bool:
    """Does ``card`` go on the pile when nothing is owed? Suit in play or top card's rank.

    After a Jack the top card is that Jack, so "the named suit or a Jack" is the same test.
    """
    if card.rank == "J" and state.jacks_wild:
        return True
    return card.suit == state.suit or card.rank == parse_card(state.top).rank


def legal_plays_hint(state: JackChangeItState) -> str:
    """What may go on the pile now, in words (the companion cannot know who holds it).

    >>> from companion.engine import Game
    >>> legal_plays_hint(Game({"game": "jack-change-it", "players": ["A", "B"], "start": "7H"}).state)
    'Hearts or a 7'
    """
    if state.finished:
        return ""
    if state.owed_kind == TWOS:
        return "a 2"
    if state.owed_kind == ACE:
        return card_words(CANCEL)
    suit = SUIT_NAMES[state.suit]
    rank = parse_card(state.top).rank
    if state.jacks_wild and rank != "J":
        return f"{suit}, {a_rank(rank)} or any Jack"
    return f"{suit} or {a_rank(rank)}"


def owed_prompt(state: JackChangeItState) -> str:
    """``"pick up 4, or play a 2"`` while something is owed."""
    return f"pick up {state.owed}, or play {legal_plays_hint(state)}"


def prompt(state: JackChangeItState) -> str:
    """One line for the player whose turn it is: ``"Ben: pick up 4, or play a 2"``."""
    if state.finished:
        return f"{state.player(state.winner)} wins!"
    name = state.player(state.turn)
    if state.owed:
        return f"{name}: {owed_prompt(state)}"
    return f"{name}: play {legal_plays_hint(state)}, or lift a card"


def read_suit(value: object) -> str | None:
    """A suit as a log or the UI may give it: ``"S"``, ``"s"``, ``"♠"``, ``"Spades"``; None if absent."""
    if value is None:
        return None
    if isinstance(value, str) and value.strip().upper() in _SUIT_INPUT:
        return _SUIT_INPUT[value.strip().upper()]
    raise IllegalAction(f"{value!r} is not a suit: say S, H, D or C (Spades, Hearts, Diamonds or Clubs)")


def read_cards(cards: object) -> list[Card]:
    if isinstance(cards, str):
        cards = [cards]
    if not isinstance(cards, list) or not cards:
        raise IllegalAction('say which card was played, e.g. {"type": "play", "cards": ["8C"]}')
    out = []
    for text in cards:
        try:
            out.append(parse_card(text))
        except CardError as exc:
            raise IllegalAction(str(exc)) from None
    return out


def play_reason(state: JackChangeItState, cards: list[Card], suit: str | None) -> str | None:
    """Why this play is refused, in words, or None if the rules allow it."""
    if state.finished:
        return f"The game is over: {state.player(state.winner)} won"
    name = state.player(state.turn)
    codes = [str(c) for c in cards]
    if len(cards) > 2 or (len(cards) == 2 and tuple(codes) != ACE_AND_TWO):
        if sorted(codes) == sorted(ACE_AND_TWO):
            return f"Put {card_words('AH')} down first, then {card_words('2H')} on top"
        return f"Play one card at a time: only {card_words('AH')} and {card_words('2H')} go down together"
    for code in set(codes):
        if state.pile.count(code) + codes.count(code) > 2:
            return (f"Both {card_words(code)[4:]} are already in the pile, and there are only two: "
                    f"check the card, or undo the play that was entered wrong")
    if len(cards) > state.hands[state.turn]:
        return f"{name} has only 1 card, so can't play 2 at once"
    first, last = cards[0], cards[-1]
    if state.owed_kind == TWOS and first.rank != "2":
        return f"{name} must pick up {state.owed} or play a 2"
    if state.owed_kind == ACE and str(first) != CANCEL:
        return f"The Ace of Hearts can't be passed on: {name} must pick up {state.owed} or play the 5 of Hearts"
    if not state.owed and not matches(state, first):
        if state.named_suit:
            why = f"{_cap(card_words(first))} doesn't go: the Jack changed the suit to {SUIT_NAMES[state.named_suit]}"
        else:
            why = f"{_cap(card_words(first))} doesn't go on {card_words(state.top)}"
        if len(cards) == 2:
            why += ", so the 2 of Hearts can't go with it"
        return f"{why} - play {legal_plays_hint(state)}, or lift a card"
    if len(cards) == state.hands[state.turn] and is_trick(state, last):
        instead = f"pick up {state.owed}" if state.owed else "lift a card"
        return f"You can't finish on a trick card: {instead} instead"
    if last.rank == "J":
        if suit is None:
            others = [SUIT_NAMES[s] for s in SUITS if s != state.suit]
            return f"Say which suit the Jack changes it to: {', '.join(others[:-1])} or {others[-1]}"
        if suit == state.suit:
            others = [SUIT_NAMES[s] for s in SUITS if s != state.suit]
            return (f"A Jack must change the suit: pick {', '.join(others[:-1])} or {others[-1]}, "
                    f"not {SUIT_NAMES[suit]}")
    elif suit is not None:
        return "Only a Jack changes the suit"
    return None


def play_problem(state: JackChangeItState, cards: list[str] | str, suit: object = None) -> str | None:
    """The reason a play would be refused, or None if it is allowed. For the UI, before it asks.

    >>> from companion.engine import Game
    >>> state = Game({"game": "jack-change-it", "players": ["A", "B"], "start": "7H"}).state
    >>> play_problem(state, ["JH"], "H")
    'A Jack must change the suit: pick Spades, Diamonds or Clubs, not Hearts'
    >>> play_problem(state, ["JH"], "S") is None
    True
    """
    try:
        return play_reason(state, read_cards(cards), read_suit(suit))
    except IllegalAction as exc:
        return str(exc)


def _draw(state: JackChangeItState, count: int) -> tuple[int, int, tuple[str, ...], bool]:
    """Take ``count`` cards from the stock: (taken, stock, pile, turned over).

    The moment the stock is empty the pile but its top card becomes the new stock; if
    even that is empty, the missing cards are forgiven (docs/rules.md).
    """
    stock, pile, turned, taken = state.stock, state.pile, False, 0

    def turn_over():
        nonlocal stock, pile, turned
        if stock == 0 and len(pile) > 1:
            stock, pile, turned = len(pile) - 1, pile[-1:], True

    for _ in range(count):
        turn_over()  # the stock ran dry earlier, with nothing under the top card then
        if stock == 0:
            break
        stock -= 1
        taken += 1
    turn_over()
    return taken, stock, pile, turned


class JackChangeItRules(Rules):
    name = "jack-change-it"
    title = "Jack Change It"

    def start(self, header: dict) -> JackChangeItState:
        players = header["players"]
        if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
            raise BadHeader(f"Jack Change It is played by {MIN_PLAYERS} to {MAX_PLAYERS} players; "
                            f"this game has {len(players)}")
        options = header.get("options") or {}
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise BadHeader(f"unknown option {unknown[0]!r} for Jack Change It "
                            f"(its options are \"queens_reverse\" and \"jacks_wild\")")
        values = dict(OPTIONS)
        for key, value in options.items():
            if not isinstance(value, bool):
                raise BadHeader(f"the option {key!r} must be true or false, not {value!r}")
            values[key] = value
        if "start" not in header:
            raise BadHeader('the header needs "start", the first card turned up on the pile, e.g. "7H"')
        try:
            start = parse_card(header["start"])
        except CardError as exc:
            raise BadHeader(f"the start card: {exc}") from None
        return JackChangeItState(
            players=tuple(players),
            queens_reverse=values["queens_reverse"],
            jacks_wild=values["jacks_wild"],
            hands=(HAND_SIZE,) * len(players),
            stock=DECK_SIZE - HAND_SIZE * len(players) - 1,
            pile=(str(start),),
            suit=start.suit,  # the start card has no effect, even a trick card (docs/rules.md)
            last=f"{_cap(card_words(start))} starts the pile",
        )

    def apply(self, state: JackChangeItState, action: dict) -> JackChangeItState:
        kind = action.get("type")
        if kind not in ("play", "lift", "pickup"):
            raise IllegalAction(f"unknown action type {kind!r} for Jack Change It "
                                f"(it has \"play\", \"lift\" and \"pickup\")")
        if state.finished:
            raise IllegalAction(f"The game is over: {state.player(state.winner)} won")
        if kind == "play":
            return self._play(state, read_cards(action.get("cards")), read_suit(action.get("suit")))
        name = state.player(state.turn)
        if kind == "lift":
            if state.owed:
                raise IllegalAction(f"{name} can't lift a card now: pick up {state.owed} first, "
                                    f"or play {legal_plays_hint(state)}")
            return self._take(state, 1, f"{name} lifted a card")
        if not state.owed:
            raise IllegalAction(f"{name} has nothing to pick up: play {legal_plays_hint(state)}, or lift a card")
        return self._take(state, state.owed, f"{name} picked up {state.owed}")

    def _take(self, state: JackChangeItState, count: int, said: str) -> JackChangeItState:
        taken, stock, pile, turned = _draw(state, count)
        hands = list(state.hands)
        hands[state.turn] += taken
        if taken < count:
            said += f" ({count - taken} forgiven: no cards left)" if taken else " (forgiven: no cards left)"
        return replace(state, hands=tuple(hands), stock=stock, pile=pile, turn=state.next_seat(),
                       owed=0, owed_kind=None, turned_over=turned, forgiven=count - taken, last=said)

    def _play(self, state: JackChangeItState, cards: list[Card], suit: str | None) -> JackChangeItState:
        reason = play_reason(state, cards, suit)
        if reason:
            raise IllegalAction(reason)
        name = state.player(state.turn)
        codes = tuple(str(c) for c in cards)
        top = cards[-1]
        hands = list(state.hands)
        hands[state.turn] -= len(cards)
        said = f"{name} played {' and '.join(codes)}"
        common = dict(hands=tuple(hands), pile=state.pile + codes, turned_over=False, forgiven=0)
        if hands[state.turn] == 0:
            return replace(state, **common, suit=top.suit, named_suit=None, turn=None, owed=0,
                           owed_kind=None, winner=state.turn, last=f"{said} and wins!")
        owed, kind = 0, None
        if codes == ACE_AND_TWO:
            owed, kind = ACE_PICKUP + TWO_PICKUP, ACE
        elif codes[0] == "AH":
            owed, kind = ACE_PICKUP, ACE
        elif top.rank == "2":
            owed, kind = (state.owed if state.owed_kind == TWOS else 0) + TWO_PICKUP, TWOS
        elif codes[0] == CANCEL and state.owed_kind == ACE:
            said += " and stopped the pick-up"
        direction = state.direction
        if top.rank == "Q" and state.queens_active:
            direction = -direction
            said += ": play goes the other way"
        steps = 2 if top.rank == "8" else 1  # with 2 players that is the player of the 8 again
        if steps == 2:
            said += f": {state.player(state.next_seat(1, direction))} misses a turn"
        if top.rank == "J":
            said += f" and changed the suit to {SUIT_NAMES[suit]}"
        return replace(state, **common, suit=suit if top.rank == "J" else top.suit,
                       named_suit=suit if top.rank == "J" else None, direction=direction,
                       turn=state.next_seat(steps, direction), owed=owed, owed_kind=kind, last=said)

    # What the UI asks before it acts.
    def legal_plays_hint(self, state: JackChangeItState) -> str:
        return legal_plays_hint(state)

    def play_problem(self, state: JackChangeItState, cards: list[str] | str, suit: object = None) -> str | None:
        return play_problem(state, cards, suit)

    def prompt(self, state: JackChangeItState) -> str:
        return prompt(state)

    def view(self, state: JackChangeItState) -> JackChangeItView:
        turn = None if state.turn is None else state.player(state.turn)
        return JackChangeItView(
            game=self.name,
            players=tuple(state.players),
            options=Options(state.queens_reverse, state.jacks_wild),
            turn=turn,
            direction="clockwise" if state.direction == 1 else "anticlockwise",
            suit=state.suit,
            named_suit=state.named_suit,
            top=state.top,
            owed=Owed(turn, state.owed) if state.owed else None,
            owed_kind=state.owed_kind,
            hand_sizes=dict(zip(state.players, state.hands)),
            last_card=tuple(p for p, n in zip(state.players, state.hands) if n == 1),
            stock=state.stock,
            pile=len(state.pile),
            turn_over_pile=state.turned_over,
            forgiven=state.forgiven,
            actions=() if state.finished else ("play", "pickup" if state.owed else "lift"),
            hint=legal_plays_hint(state),
            prompt=prompt(state),
            last=state.last,
            finished=state.finished,
            winner=None if state.winner is None else state.player(state.winner),
        )

    def describe(self, state: JackChangeItState) -> list[str]:
        direction = "clockwise" if state.direction == 1 else "anticlockwise"
        suit = SUIT_NAMES[state.suit] + (" (named by the Jack)" if state.named_suit else "")
        lines = [
            f"Jack Change It: {', '.join(state.players)} ({direction})",
            f"Top card {state.top}, suit in play {suit}",
            f"Stock {state.stock}, pile {len(state.pile)}"
            + ("  (the pile was turned over as the new stock)" if state.turned_over else ""),
        ]
        for p, n in zip(state.players, state.hands):
            lines.append(f"  {p:<12} {n:>3} card{'s' if n != 1 else ''}" + ("  last card!" if n == 1 else ""))
        lines.append(f"Last: {state.last}")
        lines.append(prompt(state))
        return lines

    def finished(self, state: JackChangeItState) -> bool:
        return state.finished

    def outcome(self, state: JackChangeItState) -> Outcome | None:
        """docs/rules.md, "Jack Change It": the first player out of cards wins."""
        if not state.finished:
            return None
        return Outcome((state.player(state.winner),), "first out of cards")

    # --- what may be played ------------------------------------------------------------

    copies = 2   # two decks

    def current_player(self, state: JackChangeItState) -> str | None:
        return None if state.finished else state.player(state.turn)

    def legal_actions(self, state: JackChangeItState) -> list[dict]:
        """Each play the rules allow (a Jack once for each suit it may name; the Ace and 2 of
        Hearts together), then the lift or the pick-up owed. The card is the player's choice from
        a hand the companion cannot see: every card not known to be twice in the pile is offered."""
        if state.finished:
            return []
        actions = [action for cards in _PLAYS for action in _legal_plays(state, cards)]
        actions.append({"type": "pickup" if state.owed else "lift"})
        return actions

    def plays_of(self, state: JackChangeItState, card: str) -> list[dict]:
        """The legal plays that lay ``card`` first (its part of :meth:`legal_actions`): a Jack once
        for each suit it may name, the Ace of Hearts alone and with the 2 of Hearts on top. What a
        screen offers once that card is tapped; empty when the card does not go now.

        >>> from companion.engine import Game
        >>> state = Game({"game": "jack-change-it", "players": ["A", "B"], "start": "7H"}).state
        >>> [play.get("suit") for play in JackChangeItRules().plays_of(state, "JH")]
        ['S', 'D', 'C']
        >>> JackChangeItRules().plays_of(state, "JS")
        []
        """
        if state.finished:
            return []
        first = parse_card(card)
        return [action for cards in _PLAYS if cards[0] == first for action in _legal_plays(state, cards)]

    def draw_action(self, state: JackChangeItState) -> dict | None:
        """The one action that is not a play (its part of :meth:`legal_actions`): the pick-up of
        what is owed, else the lift of a card; None once the game is over."""
        return next((action for action in self.legal_actions(state) if action["type"] != "play"), None)

    def cards_out(self, state: JackChangeItState) -> dict[str, int]:
        return dict(Counter(state.pile))

    def example_header(self, players: int | None, rng) -> dict:
        count = players or rng.randint(MIN_PLAYERS, MAX_PLAYERS)
        return {"game": self.name, "players": [f"P{i + 1}" for i in range(count)],
                "start": str(rng.choice(full_deck())),
                "options": {"queens_reverse": rng.random() < 0.7, "jacks_wild": rng.random() < 0.3}}


# Every play there is: each card alone, and the Ace and 2 of Hearts together.
_PLAYS = tuple((card,) for card in full_deck()) + (tuple(parse_card(c) for c in ACE_AND_TWO),)


def _legal_plays(state: JackChangeItState, cards: tuple[Card, ...]) -> list[dict]:
    """``cards`` as the actions the rules take now: none, one, or a Jack's one a suit it may name."""
    suits = [s for s in SUITS if s != state.suit] if cards[-1].rank == "J" else [None]
    return [{"type": "play", "cards": [str(c) for c in cards], **({"suit": suit} if suit else {})}
            for suit in suits if play_reason(state, list(cards), suit) is None]
