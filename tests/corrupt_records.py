"""Ways to spoil one game's record in an arena's log, for the tests that resuming and tallying
refuse it (tests/test_arena.py through the Python API, tests/test_arena_cli.py through the CLI)."""

from __future__ import annotations

from typing import Any

# What both refuse alike; each test adds the cases only its way of writing the log can make.
CORRUPTIONS = [
    "tampered returns",
    "illegal action",
    "emptied actions",
    "null result",
    "null returns",
    "null actions",
]


def corrupt(record: dict[str, Any], how: str) -> None:
    """Spoils ``record`` in place as ``how`` says (a name from CORRUPTIONS or a test's own)."""
    result = record["result"]
    if how == "tampered returns":
        result["returns"] = [-r for r in result["returns"]]
    elif how == "illegal action":
        record["actions"][3]["action"] = 10**6
        del record["actions"][3]["text"]
    elif how == "emptied actions":
        record["actions"] = []
    elif how == "null result":
        record["result"] = None
    elif how == "null returns":
        result["returns"] = [None] * len(result["returns"])
    elif how == "null actions":
        record["actions"] = None
    elif how == "returns too short":
        result["returns"] = result["returns"][:1]
    elif how == "returns too long":
        result["returns"] = [*result["returns"], 0.0]
    elif how == "out of order":
        record["arena"]["index"] = 5
    elif how == "not JSON":
        record.clear()
    else:
        raise ValueError(f"no corruption {how!r}")
