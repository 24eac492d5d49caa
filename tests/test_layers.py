"""The one-way rule (ARCHITECTURE.md): ui -> hardware -> companion, never back.

companion/ is pure Python: no kivy, gpiozero or serial, and nothing from ui or hardware.
hardware/ may use gpiozero and serial, and companion, but never ui or kivy.
Imports are read with the ast module, so every form counts: ``import a.b``, ``from a import b``,
relative imports that climb out of the package, imports inside functions, and
``importlib.import_module("...")`` / ``__import__("...")`` with a written-out name.
"""

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "companion": {"kivy", "gpiozero", "serial", "ui", "hardware"},
    "hardware": {"ui", "kivy"},
}


def module_name(root: Path, path: Path) -> tuple[list[str], bool]:
    """The dotted name of a file as parts, and whether it is a package's __init__."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        return parts[:-1], True
    return parts, False


def imported_names(root: Path, path: Path) -> list[tuple[int, str]]:
    """Every module a file may import, as absolute dotted names, with the line it is on."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    parts, is_package = module_name(root, path)
    package = parts if is_package else parts[:-1]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            # Each dot past the first climbs one package; climbing out of the top leaves
            # a top-level name ("from ...ui import app" in companion/games/x.py is ui.app).
            climb = node.level - 1
            base = package[: len(package) - climb] if node.level and climb < len(package) else []
            target = base + (node.module.split(".") if node.module else [])
            if target:
                found.append((node.lineno, ".".join(target)))
            # "from .. import ui" imports the module ui; so may "from x import y".
            found += [(node.lineno, ".".join(target + [alias.name])) for alias in node.names if alias.name != "*"]
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in ("import_module", "__import__") and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.append((node.lineno, first.value))
    return found


def violations(root: Path) -> list[str]:
    out = []
    for layer, banned in FORBIDDEN.items():
        folder = root / layer
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*.py")):
            for line, name in imported_names(root, path):
                top = name.split(".")[0]
                if top in banned:
                    out.append(f"{path.relative_to(root)}:{line} imports {name}")
    return out


def test_companion_and_hardware_keep_to_their_layer():
    files = list((REPO / "companion").rglob("*.py"))
    assert len(files) >= 5, "the companion package is where it should be"
    problems = violations(REPO)
    assert problems == [], "imports against the one-way rule:\n" + "\n".join(problems)


def test_every_file_parses():
    for layer in FORBIDDEN:
        for path in (REPO / layer).rglob("*.py"):
            ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


# The checker must itself catch every form of a bad import, or the test above proves nothing.

BAD_TREE = {
    "companion/__init__.py": "",
    "companion/plain.py": "import kivy\n",
    "companion/dotted.py": "import kivy.core.window as w\n",
    "companion/from_.py": "from gpiozero import Button\n",
    "companion/serial_.py": "import os, serial\n",
    "companion/inside.py": "def f():\n    if True:\n        from serial.tools import list_ports\n",
    "companion/games/__init__.py": "",
    "companion/games/climb.py": "from ...ui import app\n",  # companion.games -> companion -> top: ui.app
    "companion/games/climb_bare.py": "from ... import hardware\n",
    "companion/up.py": "from .. import ui\n",
    "companion/dynamic.py": "import importlib\nimportlib.import_module('kivy.app')\n__import__('gpiozero')\n",
    "companion/hw.py": "from hardware.pads import Pads\n",
    "hardware/__init__.py": "",
    "hardware/pads.py": "import gpiozero\nimport serial\nfrom companion import cards\n",  # all allowed
    "hardware/ui_.py": "from ui.theme import COLOURS\n",
    "hardware/kivy_.py": "class A:\n    def m(self):\n        import kivy.clock\n",
    "hardware/sub/__init__.py": "",
    "hardware/sub/climb.py": "from ...ui import app\n",
}

GOOD_TREE = {
    "companion/__init__.py": "",
    "companion/cards.py": "import json\nfrom . import errors\nfrom .errors import GameError\n",
    "companion/errors.py": "",
    "companion/games/__init__.py": "",
    "companion/games/jacks.py": "from ..cards import parse_card\nfrom .. import engine\nimport importlib\n"
                                "importlib.import_module(name)\n",
    # names that only look like the banned ones
    "companion/ui_text.py": "import serialize_helpers\nfrom companion.ui_words import x\nimport kivyish\n",
    "hardware/__init__.py": "",
    "hardware/pads.py": "import gpiozero\nfrom serial.tools import list_ports\nfrom companion.engine import Game\n"
                        "from . import mock\nfrom .mock import MockPads\n",
}


def make_tree(root: Path, files: dict) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_checker_catches_every_kind_of_bad_import(tmp_path):
    make_tree(tmp_path, BAD_TREE)
    found = violations(tmp_path)
    flagged = {line.split(":")[0] for line in found}
    expected = {name for name in BAD_TREE if name.endswith(".py") and BAD_TREE[name]
                and name != "hardware/pads.py"}
    expected.discard("companion/__init__.py")
    assert flagged == {str(Path(n)) for n in expected}, found
    assert "companion/games/climb.py:1 imports ui.app" in [f.replace("\\", "/") for f in found]
    assert "companion/inside.py:3 imports serial.tools" in [f.replace("\\", "/") for f in found]
    assert "companion/dynamic.py:2 imports kivy.app" in [f.replace("\\", "/") for f in found]


def test_the_checker_passes_good_imports(tmp_path):
    make_tree(tmp_path, GOOD_TREE)
    assert violations(tmp_path) == []


# And at run time: importing every companion module pulls in none of the device or screen code.

PROBE = textwrap.dedent("""
    import importlib, json, pkgutil, sys
    import companion
    names = ["companion"]
    for info in pkgutil.walk_packages(companion.__path__, "companion."):
        importlib.import_module(info.name)
        names.append(info.name)
    loaded = sorted(n for n in sys.modules if n.split(".")[0] in {"kivy", "gpiozero", "serial", "ui", "hardware"})
    print(json.dumps({"imported": names, "loaded": loaded}))
""")


def test_importing_companion_loads_no_kivy_gpiozero_or_serial():
    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    for needed in ("companion.cards", "companion.engine", "companion.games.jacks", "companion.store",
                   "companion.session", "companion.config", "companion.cli"):
        assert needed in report["imported"]
    assert report["loaded"] == [], f"companion pulled in {report['loaded']}"


@pytest.mark.parametrize("name", ["kivy", "gpiozero", "serial"])
def test_the_probe_would_see_a_forbidden_module(name, tmp_path):
    """The run-time check reads sys.modules; show it does see such a module once imported."""
    probe = PROBE.replace("import companion\n", f"import companion\nimport {name}\n", 1)
    assert probe != PROBE
    env = dict(os.environ, KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1", KIVY_HOME=str(tmp_path))
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, timeout=120,
                            env=env)
    assert result.returncode == 0, f"{name} is a dependency of the app and should import: {result.stderr}"
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert name in report["loaded"]
