"""Records: the planner's value types (report sections, rows, results), declared like dataclasses.

    @record
    class Feed:
        name: str
        breaker_a: float = 0.0
        outlets: dict[str, int] = field(default_factory=dict)

``@record`` behaves as ``@dataclass(frozen=True, slots=True)`` and ``@record(frozen=False)``
as ``@dataclass(slots=True)``: the same declaration (annotations in order, defaults,
``dataclasses.field`` with ``default_factory``, ``metadata``, ``compare``, ``repr``), an
``__init__`` taking the fields by position or keyword, slots, equality by value over the
compared fields, a hash when frozen (FrozenInstanceError on assignment), a repr, pickling and
copying. ``fields(cls)`` lists a record's fields (``dataclasses.Field`` objects, ``name`` set)
and ``replace(obj, **changes)`` makes a changed copy.

Why not ``dataclasses``: on Python 3.11 a dataclass generates and compiles six methods each
time the program starts (about 0.8 ms a class here); the report's records cost some 40 ms of
the desktop app's start. A record compiles its ``__init__`` when the class is made (a class's
fields are only known at run time), its ``__eq__`` and ``__hash__`` the first time they are
used (as fast as a dataclass's then), and shares the rest, written once below. The code is
made from the class's own field names, which must be identifiers. ``tests/planner/test_records.py``
holds it to the dataclass behaviour it replaces.
"""

from __future__ import annotations

import keyword
import reprlib
from dataclasses import MISSING, Field, FrozenInstanceError, field
from typing import Any

__all__ = ["record", "field", "fields", "replace", "FrozenInstanceError"]

_FIELDS = "__record_fields__"
_SKIP = {"__dict__", "__weakref__"}


def record(cls: type | None = None, /, *, frozen: bool = True):
    """Make ``cls`` a record (see the module's docstring); usable bare or as ``record(frozen=False)``."""
    if cls is None:
        return lambda c: _make(c, frozen)
    return _make(cls, frozen)


def fields(cls_or_obj: Any) -> tuple[Field, ...]:
    """The fields of a record class or instance, in ``__init__`` order."""
    try:
        return getattr(cls_or_obj, _FIELDS)
    except AttributeError:
        raise TypeError(f"{cls_or_obj!r} is not a record") from None


def replace(obj: Any, /, **changes: Any) -> Any:
    """A copy of the record ``obj`` with ``changes`` (field name -> new value)."""
    values = {f.name: getattr(obj, f.name) for f in fields(obj)}
    unknown = set(changes) - set(values)
    if unknown:
        raise TypeError(f"{type(obj).__qualname__} has no field {', '.join(sorted(unknown))}")
    values.update(changes)
    return type(obj)(**values)


def _is_classvar(annotation: Any) -> bool:
    text = annotation if isinstance(annotation, str) else repr(getattr(annotation, "__origin__", annotation))
    return text.startswith(("ClassVar", "typing.ClassVar"))


def _make(cls: type, frozen: bool) -> type:
    own = {name: ann for name, ann in cls.__dict__.get("__annotations__", {}).items() if not _is_classvar(ann)}
    collected: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for f in base.__dict__.get(_FIELDS, ()):
            collected[f.name] = f
    for name, annotation in own.items():
        if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
            raise TypeError(f"{cls.__qualname__}: {name!r} is not a field name")  # the code below is made from names
        spec = cls.__dict__.get(name, MISSING)
        default = spec.default if isinstance(spec, Field) else spec
        if default is not MISSING and type(default).__hash__ is None:
            raise ValueError(f"{cls.__qualname__}.{name}: a mutable default ({type(default).__name__}) would be "
                             "shared by every record; use field(default_factory=...)")
        f = spec if isinstance(spec, Field) else field(default=spec)
        f.name, f.type = name, annotation
        collected[name] = f
    specs = tuple(collected.values())

    namespace = {k: v for k, v in cls.__dict__.items() if k not in own and k not in _SKIP}
    namespace["__slots__"] = tuple(own)
    namespace[_FIELDS] = specs
    namespace["__match_args__"] = tuple(f.name for f in specs)
    namespace["__init__"] = _init(cls.__qualname__, specs, frozen)
    for name, method in _SHARED.items():
        namespace.setdefault(name, method)
    if frozen:
        for name, method in _FROZEN.items():
            if name in cls.__dict__:
                raise TypeError(f"cannot overwrite {name} in frozen record {cls.__qualname__}")
            namespace[name] = method
        if cls.__dict__.get("__hash__") is None:  # None: Python's mark for "defines __eq__ only"
            namespace["__hash__"] = _hash
    elif "__hash__" not in cls.__dict__:
        namespace["__hash__"] = None  # equal by value and mutable: unhashable, as a dataclass
    made = type(cls)(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made


def _init(qualname: str, specs: tuple[Field, ...], frozen: bool):
    env: dict[str, Any] = {"__record_set": object.__setattr__, "__record_missing": MISSING}
    params, body, seen_default = [], [], None
    for i, f in enumerate(specs):
        value = f.name
        if f.default is not MISSING:
            env[f"__record_default_{i}"] = f.default
            params.append(f"{f.name}=__record_default_{i}")
            seen_default = f.name
        elif f.default_factory is not MISSING:
            env[f"__record_factory_{i}"] = f.default_factory
            params.append(f"{f.name}=__record_missing")
            value = f"__record_factory_{i}() if {f.name} is __record_missing else {f.name}"
            seen_default = f.name
        elif seen_default is not None:
            raise TypeError(f"{qualname}: field {f.name} without a default follows {seen_default}, which has one")
        else:
            params.append(f.name)
        body.append(f"    __record_set(self, {f.name!r}, {value})" if frozen else f"    self.{f.name} = {value}")
    text = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(text, env)  # noqa: S102 - the text is made above from the class's own field names
    init = env["__init__"]
    init.__qualname__ = f"{qualname}.__init__"
    return init


def _eq(self, other):
    # The first comparison of a class compiles its own __eq__ (as fast as a dataclass's) and installs it.
    return _specialise(type(self), "__eq__", _eq)(self, other)


def _hash(self):
    return _specialise(type(self), "__hash__", _hash)(self)


def _specialise(cls: type, name: str, generic):
    # installed on the record that holds the generic method (a subclass's own __eq__ calling
    # super().__eq__ stays), over that record's fields, as a dataclass's would be
    cls = next(c for c in cls.__mro__ if c.__dict__.get(name) is generic)
    own = tuple(f"self.{f.name}," for f in getattr(cls, _FIELDS) if f.compare)
    mine, theirs = "(" + "".join(own) + ")", "(" + "".join(own).replace("self.", "other.") + ")"
    if name == "__eq__":
        text = (f"def __eq__(self, other):\n    if other.__class__ is self.__class__:\n"
                f"        return {mine} == {theirs}\n    return NotImplemented\n")
    else:
        text = f"def __hash__(self):\n    return hash({mine})\n"
    env: dict[str, Any] = {}
    exec(text, env)  # noqa: S102 - made from the class's own field names
    method = env[name]
    method.__qualname__ = f"{cls.__qualname__}.{name}"
    type.__setattr__(cls, name, method)
    return method


@reprlib.recursive_repr()
def _repr(self):
    parts = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in getattr(self, _FIELDS) if f.repr)
    return f"{type(self).__qualname__}({parts})"


def _getstate(self):
    return tuple(getattr(self, f.name) for f in getattr(self, _FIELDS))


def _setstate(self, state):
    for f, value in zip(getattr(self, _FIELDS), state):
        object.__setattr__(self, f.name, value)


def _frozen_setattr(self, name, value):
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self, name):
    raise FrozenInstanceError(f"cannot delete field {name!r}")


_SHARED = {"__eq__": _eq, "__repr__": _repr, "__getstate__": _getstate, "__setstate__": _setstate}
_FROZEN = {"__setattr__": _frozen_setattr, "__delattr__": _frozen_delattr}
