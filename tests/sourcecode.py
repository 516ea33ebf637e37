"""Reading the project's own source for the tests that check its boundaries (which module imports what, which
attributes a sink reads): each file is parsed once a test process, however many tests ask. Only what the tests
read is kept (names and line numbers): a syntax tree of every file would be tens of megabytes for the process to
carry and to free at its exit."""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import NamedTuple


class Source(NamedTuple):
    """What a Python file imports and which attributes it reads. ``imports``: ``(module, name, line)`` for each
    name of ``from module import name``, and ``(module, "", line)`` for ``import module``; ``attributes``:
    ``(attribute, line)`` for each ``x.attribute`` in it."""

    imports: tuple[tuple[str, str, int], ...]
    attributes: tuple[tuple[str, int], ...]


@functools.cache
def source(path: Path) -> Source:
    """:class:`Source` of the Python file ``path`` (a function's own imports included). Raises OSError for a file
    that cannot be read, SyntaxError for one that is not Python."""
    imports: list[tuple[str, str, int]] = []
    attributes: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(Path(path).read_text("utf-8"))):
        if isinstance(node, ast.Import):
            imports += [(a.name, "", node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            imports += [(node.module, a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.Attribute):
            attributes.append((node.attr, node.lineno))
    return Source(tuple(imports), tuple(attributes))


def imported_modules(path: Path) -> set[str]:
    """The modules ``path`` imports anywhere in it: ``import a.b`` gives ``a.b``, ``from a.b import c`` gives
    ``a.b``; a relative import without a module gives nothing."""
    return {module for module, _name, _line in source(path).imports}
