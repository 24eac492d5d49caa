"""The live part of a game at the table, between the engine and the screen: timers, races,
dealing, waiting for a card, the lights, and the words to show. No Kivy and no devices here:
a controller is handed its clock (``now()``) and its scheduler (``schedule(delay, fn)``, which
returns a handle with ``cancel()``), so it runs the same under a test's fake clock as on the
table's.

Cards reach a controller through card feeds that all look alike: ``on_card(card, landed_at)``,
or ``on_unsure(candidates, landed_at)`` when a feed cannot tell which card it saw.
"""

from .jacks import JacksTable
from .slapjack import SlapjackTable
from .slapjack_view import SeatView, SlapjackView
from .ways import JUDGE, MODES, REAL, SCREEN, feed_for, mode_of, pads_for, timed_feed

__all__ = ["JacksTable", "SlapjackTable", "SlapjackView", "SeatView", "MODES", "REAL", "JUDGE", "SCREEN", "feed_for",
           "mode_of", "pads_for", "timed_feed"]
