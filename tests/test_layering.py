"""The layering of the house, read from the sources: who may include or import whom.

C++ (docs/architecture.md, "Layers"): the core includes only itself; the bots only the core; a
game folder only the core and itself, except its register.cpp, which plugs the game into the
type-erased adapter; the adapter sits above the core and the bots and includes no game; the
bindings see only the core's type-erased AnyGame/AnyState and its vocabulary. Python: pictures
(rivals.render) never import the reference, and the reference imports nothing of the package but
itself and its data.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import rivals

ROOT = Path(__file__).resolve().parents[1]
# Every part of the engine is one folder cpp/rivals/<part>/, headers and sources together.
INCLUDE = ROOT / "cpp" / "rivals"
INCLUDE_LINE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.MULTILINE)
CORE, BOTS, ADAPTER = "core", "bots", "adapter"


def includes(path: Path) -> list[str]:
    return INCLUDE_LINE.findall(path.read_text(encoding="utf-8"))


def layer_of(included: str) -> str | None:
    """The folder under rivals/ an include names (``rivals/core/json.h`` -> ``core``), or None
    for the standard library, nanobind and a binding file's own headers."""
    parts = included.split("/")
    return parts[1] if len(parts) >= 3 and parts[0] == "rivals" else None


def game_folders() -> list[str]:
    return sorted(
        p.name for p in INCLUDE.iterdir() if p.is_dir() and p.name not in (CORE, BOTS, ADAPTER)
    )


def sources(*folders: Path) -> Iterator[Path]:
    for folder in folders:
        yield from sorted(p for p in folder.rglob("*") if p.suffix in (".h", ".cpp"))


def violations(
    paths: Iterator[Path], allowed: set[str], exempt: dict[str, set[str]]
) -> tuple[int, list[str]]:
    """How many rivals/ includes the files hold, and those outside ``allowed`` (plus, for a file
    named in ``exempt``, the layers listed there)."""
    seen, wrong = 0, []
    for path in paths:
        for included in includes(path):
            layer = layer_of(included)
            if layer is None:
                continue
            seen += 1
            if layer not in allowed | exempt.get(path.name, set()):
                wrong.append(f"{path.relative_to(ROOT)} includes {included}")
    return seen, wrong


def test_the_game_folders_are_the_games() -> None:
    assert game_folders() == rivals.games()
    assert [p.name for p in (ROOT / "cpp").iterdir()] == ["rivals"]
    registered = sorted(p.parent.name for p in INCLUDE.glob("*/register.cpp"))
    assert registered == rivals.games()


def test_the_core_includes_only_itself() -> None:
    seen, wrong = violations(sources(INCLUDE / CORE), {CORE}, {})
    assert seen > 20 and not wrong, wrong


def test_the_bots_include_only_the_core() -> None:
    seen, wrong = violations(sources(INCLUDE / BOTS), {CORE, BOTS}, {})
    assert seen > 10 and not wrong, wrong


def test_the_adapter_includes_the_core_and_the_bots_and_no_game() -> None:
    seen, wrong = violations(sources(INCLUDE / ADAPTER), {CORE, BOTS, ADAPTER}, {})
    assert seen > 5 and not wrong, wrong


@pytest.mark.parametrize("game", game_folders())
def test_a_game_includes_the_core_and_itself(game: str) -> None:
    """Only register.cpp, which instantiates the adapter for the game, reaches above the core."""
    seen, wrong = violations(sources(INCLUDE / game), {CORE, game}, {"register.cpp": {ADAPTER}})
    assert seen > 5 and not wrong, wrong
    register = INCLUDE / game / "register.cpp"
    assert "rivals/adapter/registration.h" in includes(register)
    assert f"RIVALS_REGISTER_GAME({game}, " in register.read_text(encoding="utf-8")


def test_the_bindings_see_only_the_core() -> None:
    seen, wrong = violations(sources(ROOT / "bindings"), {CORE}, {})
    assert seen > 5 and not wrong, wrong


def test_the_check_catches_a_wrong_include(tmp_path: Path) -> None:
    bad = tmp_path / "bad.h"
    bad.write_text(
        '#include <vector>\n#include "convert.h"\n  #  include "rivals/sekigahara/solver.h"\n'
    )
    assert includes(bad) == ["vector", "convert.h", "rivals/sekigahara/solver.h"]
    assert [layer_of(name) for name in includes(bad)] == [None, None, "sekigahara"]


# --------------------------------------------------------------------------------------------
# Python
# --------------------------------------------------------------------------------------------

PACKAGE = ROOT / "python" / "rivals"


def imported_modules(path: Path, text: str | None = None) -> list[str]:
    """Every module the file at ``path`` (holding ``text``, else what it holds) imports, relative
    imports resolved against its package."""
    # A module's package is its folder, and so is an __init__.py's.
    package = ".".join(path.relative_to(PACKAGE.parent).parts[:-1])
    out = []
    source = path.read_text(encoding="utf-8") if text is None else text
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            # ``from rivals import reference`` imports the module rivals.reference.
            out += [module, *(f"{module}.{alias.name}" for alias in node.names)]
    return out


def python_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def is_within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


BOXES = PACKAGE / "boxes"


def part_files(part: str) -> list[Path]:
    """The module ``part`` of every game's box (``rivals/boxes/<game>/<part>.py``)."""
    return sorted(BOXES.glob(f"*/{part}.py"))


def is_reference(module: str) -> bool:
    return is_within(module, "rivals.reference") or (
        module.startswith("rivals.boxes.") and module.split(".")[3:4] == ["reference"]
    )


def test_pictures_never_import_the_reference() -> None:
    files = python_files(PACKAGE / "render") + part_files("terminal") + part_files("svg")
    imports = {path: imported_modules(path) for path in files}
    assert len(files) > 15 and sum(map(len, imports.values())) > 20
    wrong = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path, modules in imports.items()
        for module in modules
        if is_reference(module)
        # The modules kept for the old names (rivals/render/<game>.py) name their new homes.
        and not path.read_text(encoding="utf-8").startswith('"""Importable here as before')
    ]
    assert not wrong, wrong


def test_the_reference_imports_only_itself_and_its_data() -> None:
    """The reference's own modules, each game's, and the finder of the games' boxes, which it
    uses; none imports the engine (tests/test_oracle_alone.py runs them without it)."""
    files = [*python_files(PACKAGE / "reference"), *part_files("reference"), BOXES / "__init__.py"]
    imports = {path: imported_modules(path) for path in files}
    own = [m for modules in imports.values() for m in modules if is_reference(m)]
    assert len(files) > 10 and len(own) > 5
    wrong = [
        f"{path.relative_to(ROOT)} imports {module}"
        for path, modules in imports.items()
        for module in modules
        if is_within(module, "rivals")
        and not is_reference(module)
        and not is_within(module, "rivals.data")
        and module not in ("rivals", "rivals.boxes")
    ]
    assert not wrong, wrong


def test_the_reference_check_knows_a_box_s_reference() -> None:
    assert is_reference("rivals.boxes.sekigahara.reference")
    assert is_reference("rivals.reference._base")
    assert not is_reference("rivals.boxes.sekigahara.svg")
    assert not is_reference("rivals.boxes")


def test_the_import_reader_resolves_what_the_rules_look_for() -> None:
    text = "from rivals import reference\nfrom ...reference.battlecards import Card\n"
    text += "import rivals._core\n"
    modules = imported_modules(PACKAGE / "render" / "svg" / "rosenkoenig.py", text)
    assert "rivals.reference" in modules
    assert "rivals.reference.battlecards" in modules
    assert "rivals._core" in modules
    inside = imported_modules(PACKAGE / "reference" / "__init__.py", "from . import _data\n")
    assert inside == ["rivals.reference", "rivals.reference._data"]
