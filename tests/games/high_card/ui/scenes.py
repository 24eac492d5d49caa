"""High Card's screenshots: none yet."""


def scenes(app, driver) -> list:
    return []
