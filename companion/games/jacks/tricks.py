"""One round of Jacks played trick by trick (docs/rules.md, "Jacks"): who is to play, who takes
each trick, who took each Jack, and what broke a rule.

The table plays real cards and the companion refuses nothing a real table did: a Jack on the
first trick, a revoke or a card seen twice is *said* (``RoundPlay.notes``), never refused.

>>> r = RoundPlay.led_by(("Ann", "Ben", "Cat", "Dan"), "Ann")
>>> for card in ("3H", "KH", "2H", "5S"):
...     r = r.play(card)
>>> r.tricks[-1].taker, r.to_play
('Ben', 'Ben')
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.cards import HIGH_ORDER, SUIT_NAMES, parse_card

TRICK_SIZE = 4
JACK_CODES = ("JS", "JH", "JC", "JD")
JACK_ON_FIRST_TRICK, REVOKE, SEEN_TWICE = "jack on first trick", "revoke", "seen twice"


@dataclass(frozen=True)
class Trick:
    number: int                        # from 1
    leader: str
    plays: tuple[tuple[str, str], ...]  # (player, card) in the order played

    @property
    def led_suit(self) -> str | None:
        return self.plays[0][1][-1] if self.plays else None

    @property
    def winning(self) -> tuple[str, str] | None:
        """The (player, card) taking the trick so far: the highest card of the led suit, A high."""
        led = [(p, c) for p, c in self.plays if c[-1] == self.led_suit]
        return max(led, key=lambda pc: HIGH_ORDER[pc[1][:-1]]) if led else None

    @property
    def complete(self) -> bool:
        return len(self.plays) == TRICK_SIZE

    @property
    def taker(self) -> str | None:
        return self.winning[0] if self.complete else None

    @property
    def jacks(self) -> tuple[str, ...]:
        return tuple(c for _, c in self.plays if c in JACK_CODES)



@dataclass(frozen=True)
class Note:
    """A rule the table broke, said on the screen and kept in ``replay --json``."""
    rule: str
    player: str
    tricks: tuple[int, ...]   # the trick(s) that show it: a revoke names both
    text: str



@dataclass(frozen=True)
class RoundPlay:
    players: tuple[str, ...]
    tricks: tuple[Trick, ...]                    # the trick in progress is the last, unless complete
    notes: tuple[Note, ...] = ()
    # (player, suit, trick number): a player who did not follow that suit in that trick
    voids: tuple[tuple[str, str, int], ...] = ()

    @classmethod
    def led_by(cls, players: tuple[str, ...], leader: str) -> "RoundPlay":
        return cls(tuple(players), (Trick(1, leader, ()),))

    @property
    def current(self) -> Trick:
        """The trick being played: a new one led by the last taker once a trick is complete."""
        last = self.tricks[-1]
        return Trick(last.number + 1, last.taker, ()) if last.complete else last

    @property
    def to_play(self) -> str:
        """In seating order from the trick's leader."""
        trick = self.current
        start = self.players.index(trick.leader)
        return self.players[(start + len(trick.plays)) % len(self.players)]

    @property
    def played(self) -> tuple[str, ...]:
        return tuple(c for t in self.tricks for _, c in t.plays)

    @property
    def jacks_taken(self) -> dict[str, str]:
        """Who took each Jack, from the completed tricks."""
        return {j: t.taker for t in self.tricks if t.complete for j in t.jacks}

    @property
    def all_jacks_taken(self) -> bool:
        """The round ends when all four Jacks have been played (and their tricks taken)."""
        return len(self.jacks_taken) == len(JACK_CODES)

    @property
    def last_trick(self) -> Trick | None:
        done = [t for t in self.tricks if t.complete]
        return done[-1] if done else None

    def play(self, code: str) -> "RoundPlay":
        """The next card in the middle, played by :attr:`to_play`; raises CardError for a non-card."""
        card = str(parse_card(code))
        player, trick = self.to_play, self.current
        tricks = self.tricks if trick is self.tricks[-1] else self.tricks + (trick,)
        notes, voids = list(self.notes), list(self.voids)
        if card in self.played:
            notes.append(Note(SEEN_TWICE, player, (trick.number,),
                              f"{_name(card)} was seen twice this round (a deck holds one of each card)"))
        if trick.number == 1 and card in JACK_CODES:
            notes.append(Note(JACK_ON_FIRST_TRICK, player, (1,),
                              f"{player} played {_name(card)} on the first trick: no Jack on the first trick"))
        suit = card[-1]
        for who, void, earlier in self.voids:
            if who == player and void == suit:
                notes.append(Note(REVOKE, player, (earlier, trick.number),
                                  f"{player} revoked: played no {SUIT_NAMES[suit][:-1]} to trick {earlier} "
                                  f"but played {_name(card)} in trick {trick.number}"))
                voids.remove((who, void, earlier))   # said once
        if trick.led_suit and suit != trick.led_suit and not any(
                w == player and s == trick.led_suit for w, s, _ in voids):
            voids.append((player, trick.led_suit, trick.number))
        played = Trick(trick.number, trick.leader, trick.plays + ((player, card),))
        return RoundPlay(self.players, tricks[:-1] + (played,), tuple(notes), tuple(voids))



def _name(card: str) -> str:
    return parse_card(card).symbol
