"""``python -m rivals.cmake_dir`` prints the folder of the engine's CMake package, for
``cmake -DCMAKE_PREFIX_PATH=...`` (see docs/embedding.md)."""

from __future__ import annotations

from pathlib import Path


def cmake_dir() -> str:
    """The folder holding rivalsConfig.cmake: find_package(rivals CONFIG) gives rivals::engine."""
    return str(Path(__file__).resolve().parent / "cmake")


if __name__ == "__main__":
    print(cmake_dir())
