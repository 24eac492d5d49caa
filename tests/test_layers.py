"""The one-way rule (ARCHITECTURE.md): ui -> hardware -> companion, never back; and no cycles.

companion/ is pure Python: no kivy, gpiozero, serial, OpenCV or ONNX Runtime, and nothing from ui
or hardware.
hardware/ may use gpiozero and serial, and companion, but never ui or kivy.
tools/ (the bench) runs from a checkout and is not in the wheel: nothing in the wheel's packages
imports it (``jack-companion bench`` starts it as a program, by its module's name).
Imports are read with the ast module, so every form counts: ``import a.b``, ``from a import b``,
relative imports that climb out of the package, imports inside functions, and
``importlib.import_module("...")`` / ``__import__("...")`` with a written-out name.

No module of companion/, hardware/, ui/ or tools/ imports itself back through others: every import
statement counts, wherever it is (inside a function, under ``if TYPE_CHECKING``), and so does
a package's ``__init__`` importing its submodules, or a submodule importing a sibling.
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

CYCLE_FREE = ("companion", "hardware", "ui", "tools")

FORBIDDEN = {
    "companion": {"kivy", "gpiozero", "serial", "cv2", "onnxruntime", "ui", "hardware", "tools"},
    "hardware": {"ui", "kivy", "tools"},
    "ui": {"tools"},
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


def local_modules(root: Path, packages=CYCLE_FREE) -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package by its own name: its __init__)."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            found[".".join(module_name(root, path)[0])] = path
    return found


def import_edges(root: Path, packages=CYCLE_FREE) -> dict[str, dict[str, list[str]]]:
    """module -> {module it imports: ["file:line", ...]}, among the packages' own modules.

    ``from p import x`` is an edge to ``p.x`` when that is a module, else to ``p``; ``import
    p.q.r`` to the longest of those names that is a module (and to nothing outside them)."""
    modules = local_modules(root, packages)

    def known(dotted: str) -> str | None:
        parts = dotted.split(".")
        while parts and ".".join(parts) not in modules:
            parts.pop()
        return ".".join(parts) if parts else None

    graph: dict[str, dict[str, list[str]]] = {name: {} for name in modules}
    for name, path in modules.items():
        parts, is_package = module_name(root, path)
        package = parts if is_package else parts[:-1]
        where = str(path.relative_to(root)).replace("\\", "/")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [known(alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                climb = node.level - 1
                base = package[: len(package) - climb] if node.level and climb < len(package) else []
                source = ".".join(base + (node.module.split(".") if node.module else []))
                for alias in node.names:
                    submodule = f"{source}.{alias.name}" if source else alias.name
                    targets.append(submodule if submodule in modules else known(source) if source else None)
            elif isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                if called in ("import_module", "__import__") and node.args:
                    first = node.args[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        targets = [known(first.value)]
            for target in targets:
                if target is not None:
                    graph[name].setdefault(target, []).append(f"{where}:{node.lineno}")
    return graph


def import_cycles(graph: dict[str, dict]) -> list[frozenset[str]]:
    """The strongly connected components that are cycles (Tarjan's algorithm, without
    recursion): two or more modules that reach one another, or a module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph[node]:
                    cycles.append(frozenset(component))
    return cycles


def describe_cycle(graph: dict[str, dict[str, list[str]]], cycle: frozenset[str]) -> str:
    """The cycle's modules, and the imports between them with the lines they are on."""
    lines = [" <-> ".join(sorted(cycle))]
    for module in sorted(cycle):
        for target, places in sorted(graph[module].items()):
            if target in cycle:
                lines.append(f"    {module} -> {target}  ({', '.join(places)})")
    return "\n".join(lines)


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


def test_no_import_cycles():
    graph = import_edges(REPO)
    assert {"companion.engine", "hardware.pads", "ui.app"} <= graph.keys(), "the packages are where they should be"
    cycles = import_cycles(graph)
    assert cycles == [], "import cycles (lazy imports count):\n" + "\n".join(describe_cycle(graph, c) for c in cycles)


def wheel_packages(root: Path) -> list[str]:
    """The packages pyproject.toml puts in the wheel, found as setuptools' ``packages.find`` finds
    them: every folder with an ``__init__.py`` whose dotted name matches ``include`` and not ``exclude``."""
    import tomllib
    from fnmatch import fnmatchcase

    find = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]["find"]
    names = [".".join(init.parent.relative_to(root).parts) for top in root.iterdir()
             if top.is_dir() and not top.name.startswith(".") for init in top.rglob("__init__.py")]
    return sorted(name for name in names if any(fnmatchcase(name, p) for p in find.get("include", ["*"]))
                  and not any(fnmatchcase(name, p) for p in find.get("exclude", [])))


def test_the_wheel_leaves_tools_out_and_nothing_in_it_imports_tools():
    packages = wheel_packages(REPO)
    assert {"companion", "hardware", "ui", "ui.tools"} <= set(packages)
    assert (REPO / "tools" / "bench" / "__init__.py").exists(), "the bench is where it should be"
    assert not [name for name in packages if name.split(".")[0] == "tools"], packages
    assert {name.split(".")[0] for name in packages} <= set(FORBIDDEN), "each of the wheel's packages has its rule"
    assert all("tools" in banned for banned in FORBIDDEN.values())


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
    "hardware/bench.py": "from tools.bench import run\n",
    "ui/__init__.py": "",
    "ui/launcher.py": "def cmd_bench():\n    from tools.bench.run import main\n",
    "ui/dynamic.py": "import importlib\nimportlib.import_module('tools.bench')\n",
}

GOOD_TREE = {
    "companion/__init__.py": "",
    "companion/cards.py": "import json\nfrom . import errors\nfrom .errors import GameError\n",
    "companion/errors.py": "",
    "companion/games/__init__.py": "",
    "companion/games/jacks/rules.py": "from ..cards import parse_card\nfrom .. import engine\nimport importlib\n"
                                "importlib.import_module(name)\n",
    # names that only look like the banned ones
    "companion/ui_text.py": "import serialize_helpers\nfrom companion.ui_words import x\nimport kivyish\n",
    "hardware/__init__.py": "",
    "hardware/pads.py": "import gpiozero\nfrom serial.tools import list_ports\nfrom companion.engine import Game\n"
                        "from . import mock\nfrom .mock import MockPads\n",
    # ui's own tools, and names that only look like the bench's
    "ui/__init__.py": "",
    "ui/games/slapjack/bench.py": "from ui.tools.recipes import NAMES\nfrom functools import partial\n",
    "ui/launcher.py": "import itertools\nCOMMAND = ['-m', 'tools.bench']\n",
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
    assert "ui/launcher.py:2 imports tools.bench.run" in [f.replace("\\", "/") for f in found]


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
    for needed in ("companion.cards", "companion.engine", "companion.games.jacks.rules", "companion.store",
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


# The cycle check must see every kind of cycle, or the test above proves nothing.

CYCLE_TREE = {
    # a lazy import inside a method closes the loop
    "companion/__init__.py": "",
    "companion/engine.py": "from .games import GAMES\n",
    "companion/games/__init__.py": "class A:\n    def m(self):\n        from ..engine import Rules\n",
    # a package's __init__ importing its submodule, which imports a name from the package
    "hardware/__init__.py": "from .pads import open_pads\n",
    "hardware/pads.py": "from hardware import DEFAULTS\n",
    # three siblings in a ring, one of them only under TYPE_CHECKING, one by importlib
    "ui/__init__.py": "",
    "ui/a.py": "import ui.b\n",
    "ui/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import c\n",
    "ui/c.py": "import importlib\nimportlib.import_module('ui.a')\n",
    # a module importing itself
    "ui/me.py": "from ui import me\n",
}

NO_CYCLE_TREE = {
    # __init__ imports a submodule that imports a sibling (not the package): no cycle
    "hardware/__init__.py": "from . import pads\n",
    "hardware/pads.py": "from . import hub\nfrom .lights import PadLights\n",
    "hardware/hub.py": "from .lights import PadLights\nfrom companion import cards\n",
    "hardware/lights.py": "import threading\n",
    "companion/__init__.py": "",
    "companion/cards.py": "def f():\n    import json\n",
    "ui/__init__.py": "",
    "ui/app.py": "from hardware.pads import open_pads\nfrom kivy.app import App\n",
}


def test_the_cycle_check_finds_every_kind_of_cycle(tmp_path):
    make_tree(tmp_path, CYCLE_TREE)
    graph = import_edges(tmp_path)
    assert sorted(sorted(c) for c in import_cycles(graph)) == [
        ["companion.engine", "companion.games"], ["hardware", "hardware.pads"],
        ["ui.a", "ui.b", "ui.c"], ["ui.me"]]
    report = describe_cycle(graph, frozenset({"companion.engine", "companion.games"}))
    assert report.splitlines() == ["companion.engine <-> companion.games",
                                   "    companion.engine -> companion.games  (companion/engine.py:1)",
                                   "    companion.games -> companion.engine  (companion/games/__init__.py:3)"]


def test_the_cycle_check_passes_a_tree_without_cycles(tmp_path):
    make_tree(tmp_path, NO_CYCLE_TREE)
    graph = import_edges(tmp_path)
    assert graph["hardware"] == {"hardware.pads": ["hardware/__init__.py:1"]}
    assert set(graph["hardware.pads"]) == {"hardware.hub", "hardware.lights"}
    assert import_cycles(graph) == []
