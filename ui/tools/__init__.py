"""Picturing the app, apart from its screens: ``jack-companion screenshots`` (``screenshots.py``
and the shared ``scenes/``, beside each game's own scenes), the driver that taps the app as a
finger would (``driver.py``, for the screenshots, the UI tests and the bench), and what each
game's bench recipe shares (``recipes.py``). The bench itself runs from a checkout
(``python -m tools.bench``, top-level ``tools/``) and is not in the wheel. The app never imports
this package."""
