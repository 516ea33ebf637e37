"""Reading the project's own source for the tests that check its boundaries (which module imports what, which
names a sink uses): each file is parsed and walked once a test process, however many tests ask."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.cache
def nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of the syntax tree of the Python file ``path`` (``ast.walk`` order). Raises OSError for a file
    that cannot be read, SyntaxError for one that is not Python."""
    return tuple(ast.walk(ast.parse(Path(path).read_text("utf-8"))))


def imported_modules(path: Path) -> set[str]:
    """The modules ``path`` imports anywhere in it (a function's own imports too): ``import a.b`` gives
    ``a.b``, ``from a.b import c`` gives ``a.b``; a relative import without a module gives nothing."""
    names: set[str] = set()
    for node in nodes(path):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names
