"""``NamedTuple`` for the modules every ``filter`` run imports, without importing ``typing``.

The ``filter`` command starts a Python process per tool call.  Importing
``typing`` costs such a process about 2.5 ms and its first ``NamedTuple``
class another millisecond; ``collections.namedtuple``, which ``typing`` builds
on, costs a tenth of that.  Type checkers see ``typing.NamedTuple`` itself.  At
run time ``NamedTuple`` is a base whose metaclass builds the class as
``typing`` does: a ``collections.namedtuple`` with the annotated fields, the
assigned defaults, and the body's methods, properties and docstring.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple  # noqa: PLC0414 - the explicit re-export type checkers need
else:
    #: names a record body may not assign (they would break the tuple), as in ``typing``
    _RESERVED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
                           "_make", "_replace", "_asdict", "_source"})
    #: what a class body always holds and the namedtuple sets itself
    _OWN = frozenset({"__module__", "__qualname__", "__annotations__", "__doc__", "__orig_bases__"})

    class _RecordMeta(type):
        def __new__(cls, name, bases, namespace):
            if not bases:  # NamedTuple itself
                return super().__new__(cls, name, bases, namespace)
            if bases != (NamedTuple,):
                raise TypeError("a record derives from NamedTuple alone")
            fields = tuple(namespace.get("__annotations__", {}))
            defaults = []
            for field in fields:
                if field in namespace:
                    defaults.append(namespace[field])
                elif defaults:
                    raise TypeError(f"non-default field {field!r} follows a default field in {name}")
            record = namedtuple(name, fields, defaults=defaults, module=namespace.get("__module__"))
            record.__qualname__ = namespace.get("__qualname__", name)
            record.__annotations__ = dict(namespace.get("__annotations__", {}))
            if namespace.get("__doc__"):
                record.__doc__ = namespace["__doc__"]
            for key, value in namespace.items():
                if key in _RESERVED:
                    raise AttributeError(f"cannot overwrite NamedTuple attribute {key}")
                if key not in _OWN and key not in fields:
                    setattr(record, key, value)
            return record

    class NamedTuple(metaclass=_RecordMeta):
        """Derive a record from this, as from ``typing.NamedTuple``."""
