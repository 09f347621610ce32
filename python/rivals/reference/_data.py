"""A game's data parameter (card set, map) read as ``docs/formats.md`` describes it.

The value is ``None`` (the game's shipped document), the name of a shipped document
(``"battlecards_commanders"``), any other string (a path to a file) or a dict (the document
itself). A file is read only when it is a regular file of at most ``MAX_BYTES`` bytes, and its
text must be strict JSON: UTF-8, no key twice in one object, no NaN or Infinity, at most
``MAX_DEPTH`` nested arrays and objects. Every key and string of a document has at most
``MAX_TEXT`` bytes and no control character, direction control or U+FFFE/U+FFFF. A file that is
not a data file is never quoted.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from importlib import resources
from typing import Any

MAX_BYTES = 4 * 1024 * 1024
MAX_DEPTH = 32
MAX_TEXT = 1000
NOT_DATA = "is not a readable data file (a data file is one JSON object in UTF-8, at most 4 MiB)"
TOO_LARGE = "is larger than the 4 MiB a data file may have"


# The shipped documents: card sets and maps, and the games' networks.
_FOLDERS = ("", "networks")


def _shipped_files() -> dict[str, Any]:
    files = {}
    for folder in _FOLDERS:
        place = resources.files("rivals.data")
        if folder:
            place = place.joinpath(folder)
        if place.is_dir():
            for p in place.iterdir():
                if p.name.endswith(".json"):
                    files[p.name[: -len(".json")]] = p
    return files


def shipped_names() -> list[str]:
    return sorted(_shipped_files())


def _is_control(char: str) -> bool:
    return ord(char) < 0x20 or 0x7F <= ord(char) <= 0x9F


# Direction overrides, embeddings and isolates reorder the text around a name wherever it is shown.
_DIRECTION_CONTROLS = frozenset([*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
# XML, and so SVG, cannot hold these two.
_NONCHARACTERS = frozenset([0xFFFE, 0xFFFF])


def quoted(text: str) -> str:
    """Text as a message shows it: quoted, control characters escaped, cut after 200 bytes."""
    out = []
    size = 0
    for char in text:
        if size >= 200:
            out.append("...")
            break
        size += len(char.encode("utf-8", "surrogatepass"))
        if char in "'\\":
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\x{ord(char):02x}")
        elif _is_control(char):
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return "'" + "".join(out) + "'"


def _text_problem(text: str) -> str | None:
    if len(text.encode("utf-8")) > MAX_TEXT:
        return f"has more than {MAX_TEXT} bytes"
    for char in text:
        if _is_control(char):
            return f"has a control character (U+{ord(char):04X})"
        if ord(char) in _DIRECTION_CONTROLS:
            return f"has a direction control character (U+{ord(char):04X})"
        if ord(char) in _NONCHARACTERS:
            return f"has a noncharacter (U+{ord(char):04X})"
    return None


def _check_texts(node: Any, path: str, source: str) -> None:
    """Every key and string passes ``_text_problem``; ``path`` is where ``node`` is."""
    where = path or "the document"
    if isinstance(node, str):
        problem = _text_problem(node)
        if problem:
            raise ValueError(f"{source}: {where} {problem}")
    elif isinstance(node, list):
        for index, item in enumerate(node):
            _check_texts(item, f"{path}[{index}]", source)
    elif isinstance(node, dict):
        for key, item in node.items():
            problem = _text_problem(key)
            if problem:
                raise ValueError(f"{source}: {where} has a key that {problem}")
            _check_texts(item, f"{path}.{key}" if path else key, source)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f'the key "{key[:40]}" appears twice in one object')
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def depth(value: Any) -> int:
    """Nesting of arrays and objects; raises ValueError for a string that is not UTF-8."""
    if isinstance(value, str):
        value.encode("utf-8")  # a lone surrogate from a \\ud800 escape fails here
        return 0
    if not isinstance(value, (dict, list)):
        return 0
    items = value.items() if isinstance(value, dict) else enumerate(value)
    deepest = 0
    for key, item in items:
        if isinstance(key, str):
            key.encode("utf-8")
        deepest = max(deepest, depth(item))
    return deepest + 1


def parse(text: str) -> Any:
    """Strict JSON; raises ValueError."""
    try:
        value = json.loads(text, object_pairs_hook=_object, parse_constant=_constant)
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_DEPTH} arrays and objects") from None
    try:
        nesting = depth(value)
    except UnicodeEncodeError:
        raise ValueError("a string that is not UTF-8 (a lone surrogate)") from None
    if nesting > MAX_DEPTH:
        raise ValueError(f"nested deeper than {MAX_DEPTH} arrays and objects")
    return value


def read_file(path: str, source: str) -> bytes:
    """The bytes of the file at ``path`` if it may be read as a data file; else ValueError."""
    if "\0" in path:
        raise ValueError(f"{source}: a path must not contain a NUL character")
    if not path:
        raise ValueError(f"{source}: an empty path names no file")
    flags = os.O_RDONLY
    for name in ("O_NONBLOCK", "O_CLOEXEC", "O_NOCTTY", "O_BINARY"):
        flags |= getattr(os, name, 0)
    try:
        # Without blocking: a FIFO with no writer would otherwise wait for ever.
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        raise ValueError(f"{source}: no such file") from None
    except OSError as error:
        if os.path.isdir(path):
            raise ValueError(f"{source}: is a directory") from None
        if error.errno == errno.ENXIO:
            raise ValueError(f"{source}: is not a regular file") from None
        raise ValueError(f"{source}: {NOT_DATA}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ValueError(f"{source}: is a directory")
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{source}: is not a regular file")
        if info.st_size > MAX_BYTES:
            raise ValueError(f"{source}: {TOO_LARGE}")
        chunks = []
        size = 0
        while size <= MAX_BYTES:
            try:
                chunk = os.read(fd, MAX_BYTES + 1 - size)
            except OSError:
                raise ValueError(f"{source}: {NOT_DATA}") from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > MAX_BYTES:
        raise ValueError(f"{source}: {TOO_LARGE}")
    return b"".join(chunks)


def _shipped(prefix: str, label: str, name: str) -> tuple[Any, str]:
    text = _shipped_files()[name].read_text("utf-8")
    return parse(text), f"{prefix}shipped {label} {quoted(name)}"


def read_data(game: str, label: str, value: Any, default: str) -> tuple[Any, str]:
    """``(document, source)``: the document of a data parameter's value and how messages name it
    (``"sekigahara: cards file 'x.json'"``). ``label`` names the parameter (``"expansions[2]"``).
    """
    prefix = f"{game}: "
    if value is None:
        return _shipped(prefix, label, default)
    if isinstance(value, str):
        if value in shipped_names():
            return _shipped(prefix, label, value)
        source = f"{prefix}{label} file {quoted(value)}"
        raw = read_file(value, source)
        if not raw.lstrip(b" \t\r\n").startswith(b"{"):
            raise ValueError(f"{source}: {NOT_DATA}")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(
                f"{source}: is not valid JSON (not UTF-8 at byte {error.start})"
            ) from None
        try:
            document = parse(text)
        except ValueError as error:
            raise ValueError(f"{source}: is not valid JSON ({error})") from None
        _check_texts(document, "", source)
        return document, source
    if isinstance(value, dict):
        source = f"{prefix}{label} object"
        try:
            nesting = depth(value)
        except UnicodeEncodeError:
            raise ValueError(f"{source}: a string that is not UTF-8 (a lone surrogate)") from None
        if nesting > MAX_DEPTH:
            raise ValueError(f"{source}: is nested deeper than {MAX_DEPTH} arrays and objects")
        _check_texts(value, "", source)
        return value, source
    raise ValueError(
        f"{prefix}parameter {label} must be null (the shipped default), a shipped name "
        f"({', '.join(shipped_names())}), a path to a file or the document itself, "
        f"got {type(value).__name__}"
    )
