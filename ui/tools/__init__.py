"""Measuring and picturing the app, apart from its screens: ``jack-companion bench`` (``bench/``),
``jack-companion screenshots`` (``screenshots.py`` and each game's ``scenes/``), and the driver
that taps the app as a finger would (``driver.py``). The app never imports this package."""
