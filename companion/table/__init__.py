"""What every game's live part at the table shares, between the engine and the screen: timers
and the gathering of a race's presses. No Kivy and no devices here: a controller (a game's own
``table.py``, such as companion/games/slapjack/table.py) is handed its clock (``now()``) and its
scheduler (``schedule(delay, fn)``, which returns a handle with ``cancel()``), so it runs the
same under a test's fake clock as on the table's.

Cards reach a controller through card feeds that all look alike: ``on_card(card, landed_at)``,
or ``on_unsure(candidates, landed_at)`` when a feed cannot tell which card it saw.
"""
