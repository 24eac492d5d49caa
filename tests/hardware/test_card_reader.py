"""The serial card feed: one card code per line, junk ignored, found again after an unplug."""

from __future__ import annotations

import os
import time

import pytest
from pad_fakes import wait_until

from companion.cards import Card
from hardware.card_reader import CardReader, open_card_reader
from hardware.device import CONNECTED, SEARCHING


class Pty:
    def __init__(self):
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)

    def close(self):
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def feed():
    holder = {"pty": Pty()}
    cards, unknown = [], []
    reader = CardReader(lambda: [holder["pty"].path] if holder["pty"] else [],
                        on_card=lambda card, t: cards.append((card, t)),
                        on_unknown=lambda text, t: unknown.append(text), retry=0.05)
    assert wait_until(lambda: reader.status == CONNECTED)
    yield reader, holder, cards, unknown
    reader.close()
    if holder["pty"]:
        holder["pty"].close()


def test_cards_arrive_with_their_arrival_time_and_junk_is_ignored(feed):
    reader, holder, cards, unknown = feed
    before = time.monotonic()
    os.write(holder["pty"].master, b"JS\r\n10h\nXYZ\n\xff\xfe\x01\n\x1b[2J\nqd\r\n\nT\xe2\x99\xa0\n")
    assert wait_until(lambda: len(cards) == 4)
    assert [card for card, _ in cards] == [Card("J", "S"), Card("10", "H"), Card("Q", "D"), Card("10", "S")]
    assert all(before <= t <= time.monotonic() for _, t in cards)
    assert unknown == ["XYZ"]
    assert reader.unknown == 1
    assert reader.noise == 2          # the binary line and the escape sequence


def test_a_reader_that_vanishes_mid_line_is_found_again(feed):
    reader, holder, cards, _ = feed
    os.write(holder["pty"].master, b"Q")             # unplugged half-way through "QS"
    time.sleep(0.05)
    holder["pty"].close()
    holder["pty"] = None
    assert wait_until(lambda: reader.status == SEARCHING)
    assert reader.status_text == "Card reader unplugged: looking for it\u2026"
    holder["pty"] = Pty()
    assert wait_until(lambda: reader.status == CONNECTED)
    os.write(holder["pty"].master, b"AH\n")
    assert wait_until(lambda: len(cards) == 1)
    assert cards[0][0] == Card("A", "H")             # not "QAH": the cut-off half was dropped
    assert reader.noise == 1


def test_a_loop_url_reader_reads_what_is_written():
    cards = []
    reader = CardReader("loop://", on_card=lambda card, t: cards.append(card), retry=0.05)
    try:
        assert wait_until(lambda: reader.status == CONNECTED)
        assert reader.link.write(b"KC\n2d\n")
        assert wait_until(lambda: len(cards) == 2)
        assert cards == [Card("K", "C"), Card("2", "D")]
    finally:
        reader.close()


def test_no_port_means_no_reader():
    assert open_card_reader({"card_reader": {"port": "", "baud": 9600}}, on_card=print) is None
