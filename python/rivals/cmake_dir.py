"""``python -m rivals.cmake_dir`` prints the folder of the engine's CMake package, for
``cmake -DCMAKE_PREFIX_PATH=...`` (see docs/embedding.md)."""

from __future__ import annotations

from pathlib import Path

from rivals import _core


def cmake_dir() -> str:
    """The folder holding rivalsConfig.cmake: find_package(rivals CONFIG) gives rivals::engine.

    It is installed beside the compiled module, which in an editable install is not beside this
    file (that one stays in the source tree)."""
    return str(Path(_core.__file__).resolve().parent / "cmake")


if __name__ == "__main__":
    print(cmake_dir())
