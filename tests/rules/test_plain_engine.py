"""The rules engine keeps no state between calls: nothing at module level that a call could change."""

from __future__ import annotations

import __future__
import dataclasses
import enum
import functools
import importlib
import inspect
import pkgutil
import re
import types
from typing import Any

import companion.rules

IMMUTABLE = (int, float, str, bytes, bool, type(None), enum.Enum, re.Pattern, types.MappingProxyType, range)


def _immutable(value: Any) -> bool:
    if isinstance(value, (tuple, frozenset)):
        return all(_immutable(v) for v in value)
    if isinstance(value, types.MappingProxyType):
        return all(_immutable(k) and _immutable(v) for k, v in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return bool(type(value).__dataclass_params__.frozen)
    return (isinstance(value, IMMUTABLE) or isinstance(value, type) or inspect.isfunction(value)
            or inspect.isbuiltin(value))


def _module_state(module: types.ModuleType) -> list[str]:
    """The names of ``module``'s own globals that hold mutable values (a cache of a call with arguments too)."""
    found = []
    for name, value in vars(module).items():
        if (name.startswith("__") or inspect.ismodule(value) or inspect.isclass(value)
                or isinstance(value, __future__._Feature)):
            continue
        if isinstance(value, functools._lru_cache_wrapper):
            if inspect.signature(value.__wrapped__).parameters:
                found.append(f"{name} (a cache keyed by its arguments)")
            continue  # a cached loader of the packaged data: one constant value
        if inspect.isfunction(value) or inspect.isbuiltin(value) or _is_typing(value):
            continue
        if not _immutable(value):
            found.append(f"{name} ({type(value).__name__})")
    return found


def _is_typing(value: Any) -> bool:
    return type(value).__module__ in ("typing", "types") and not isinstance(value, types.MappingProxyType)


def test_no_module_of_the_rules_holds_mutable_state():
    modules = [importlib.import_module(f"companion.rules.{info.name}")
               for info in pkgutil.iter_modules(companion.rules.__path__)]
    state = {m.__name__: names for m in modules if (names := _module_state(m))}
    assert state == {}


def test_the_check_sees_a_module_level_table():
    module = types.ModuleType("example")
    module.CACHE = {}
    module.LIMITS = (1, 2)
    module.SEEN = [1]
    assert _module_state(module) == ["CACHE (dict)", "SEEN (list)"]
