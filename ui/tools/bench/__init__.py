"""``jack-companion bench``: ``run`` (the command), ``probe`` (the app in a child process, reporting
what reached the screen), ``bare`` (bare Kivy, for comparison), ``race_judge`` (the judge's
accuracy), ``engines`` (the rules with no screen), and each game's ``recipes``."""
