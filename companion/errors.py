"""The errors a player or a file can cause, each carrying a message a person can read."""


class GameError(Exception):
    """Something about a game that the rules do not allow; ``str()`` is the reason in words."""


class IllegalAction(GameError):
    """An action the rules refuse. The game's state is left exactly as it was."""


class BadHeader(GameError):
    """A game header (game, players, options) that cannot start a game."""


class LogError(GameError):
    """A saved game that cannot be read: names the line (counted from 1) and the reason."""

    def __init__(self, line: int, reason: str):
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason
