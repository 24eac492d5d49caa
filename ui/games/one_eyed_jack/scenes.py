"""One-Eyed Jack: set-up for two teams, a game mid-way with a card chosen and a row made,
two teams with a one-eyed Jack chosen, and a game won with two crossing rows."""

from companion.games.one_eyed_jack.board import card_at
from companion.session import Session

from ui.tools.scenes import DEMO_PLAYERS


def put(row: int, col: int, card: str | None = None) -> dict:
    return {"type": "play", "card": card or card_at(row, col), "at": [row, col]}


def alternate(*per_side: list) -> list[dict]:
    """Plays taken in turn from each side's list (with 4 players the sides alternate too)."""
    actions = []
    for i in range(max(len(spaces) for spaces in per_side)):
        actions += [put(*spaces[i]) for spaces in per_side if i < len(spaces)]
    return actions


# Ann makes a row across row 3; Ben builds a diagonal that Ann's row cuts.
MIDWAY = alternate([(3, 2), (3, 3), (3, 4), (3, 5), (3, 6), (2, 6), (1, 7)],
                   [(4, 4), (5, 5), (6, 6), (4, 3), (7, 7), (2, 2)])
# Ann & Cat down column 1; Ben & Dan up a diagonal from the free corner; Cat to play.
TEAMS = alternate([(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (7, 7), (8, 2)],
                  [(1, 8), (2, 7), (3, 6), (4, 5), (6, 6), (5, 5), (5, 3)])
# Ann's second row crosses her first at (3, 4): two rows, and the game.
WON = alternate([(3, 2), (3, 3), (3, 4), (3, 5), (3, 6), (1, 4), (2, 4), (4, 4), (5, 4)],
                [(8, 1), (8, 3), (8, 5), (8, 7), (6, 2), (6, 8), (1, 8), (9, 5)])


def _game(app, players: int, actions: list[dict]) -> Session:
    session = Session.start(app.store, {"game": "one-eyed-jack", "players": list(DEMO_PLAYERS[:players]),
                                        "options": {}})
    for action in actions:
        session.play(action)
    return session


def scenes(app, driver):
    midway = _game(app, 2, MIDWAY)
    teams = _game(app, 4, TEAMS)
    won = _game(app, 2, WON)

    def setup():
        screen = app.show("one-eyed-jack-setup")
        screen.chosen = []
        screen.prepare()
        driver.pump(2)
        driver.tap(screen.ids.count_buttons.children[0])  # "4 in two teams"
        for button in reversed(screen.ids.roster.children[-4:]):
            driver.tap(button)
        driver.tap(screen.ids.first_row.children[-1])  # Ann goes first

    def card_chosen():
        screen = app.open_session(Session.resume(app.store, midway.game_id))
        driver.pump(2)
        driver.tap(screen.rank_buttons["5"])
        driver.tap(screen.suit_buttons["D"])

    def one_eyed_jack():
        screen = app.open_session(Session.resume(app.store, teams.game_id))
        driver.pump(2)
        driver.tap(screen.rank_buttons["J"])
        driver.tap(screen.suit_buttons["H"])

    return [
        ("one-eyed-jack-setup", setup),
        ("one-eyed-jack-play", card_chosen),
        ("one-eyed-jack-teams", one_eyed_jack),
        ("one-eyed-jack-won", lambda: app.open_session(Session.resume(app.store, won.game_id))),
    ]
