"""The bench, ``python -m tools.bench`` from a checkout (``jack-companion bench`` hands over to it):
``__main__`` (the command line), ``run`` (the run), ``probe`` (the app in a child process,
reporting what reached the screen), ``bare`` (bare Kivy, for comparison), ``race_judge`` (the
judge's accuracy), ``engines`` (the rules with no screen), ``camera`` (the pile watcher); each
game's recipe is in its own folder (``ui/games/<game>/bench.py``, helpers in ``ui/tools/recipes.py``)."""
