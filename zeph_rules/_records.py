"""``NamedTuple`` for the modules every ``filter`` run imports, without ``typing`` or ``collections``.

The ``filter`` command starts a Python process per tool call.  Importing
``typing`` costs such a process about 2.5 ms and its first ``NamedTuple``
class another millisecond; importing ``collections`` for its ``namedtuple``
costs 3.3 ms here (``itertools``, ``keyword``, ``operator``, ``reprlib``).
Type checkers see ``typing.NamedTuple`` itself.  At run time ``NamedTuple`` is
a base whose metaclass builds the class as ``collections.namedtuple`` does
(a tuple subclass with slots, the C field getters of the built-in
``_collections`` module, ``_make``, ``_replace``, ``_asdict``, ``_fields``,
``_field_defaults``, ``__match_args__``, ``__getnewargs__``, the same repr),
with the annotated fields, the assigned defaults, and the body's methods,
properties and docstring, as ``typing`` does.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple  # noqa: PLC0414 - the explicit re-export type checkers need
else:
    #: namedtuple's own field getter (C, from a module built into the interpreter), else a property
    try:
        from _collections import _tuplegetter as _field_getter
    except ImportError:  # another implementation
        from operator import itemgetter as _itemgetter

        def _field_getter(index, doc):
            return property(_itemgetter(index), doc=doc)

    #: names a record body may not assign (they would break the tuple), as in ``typing``
    _RESERVED = frozenset({"__new__", "__init__", "__slots__", "__getnewargs__", "_fields", "_field_defaults",
                           "_make", "_replace", "_asdict", "_source"})
    #: what a class body always holds and the namedtuple sets itself
    _OWN = frozenset({"__module__", "__qualname__", "__annotations__", "__doc__", "__orig_bases__"})

    def _record_class(name, fields, defaults, module):
        """Build what ``collections.namedtuple(name, fields, defaults=defaults, module=module)`` builds."""
        for field in fields:  # a keyword fails in the compile below, as in namedtuple
            if not field.isidentifier() or field.startswith("_"):
                raise ValueError(f"Field names cannot start with an underscore or be other than identifiers: {field!r}")
        if len(set(fields)) != len(fields):
            raise ValueError(f"duplicate field name in {name}")
        arguments = ", ".join(fields)
        # a real signature (not *args), as namedtuple's: positional and keyword calls, and
        # missing or unknown arguments raise namedtuple's TypeErrors
        namespace = {"_tuple_new": tuple.__new__, "__builtins__": {}, "__name__": f"namedtuple_{name}"}
        new = eval(f"lambda _cls, {arguments}: _tuple_new(_cls, ({arguments}{',' if fields else ''}))", namespace)  # noqa: S307
        new.__name__ = "__new__"
        new.__doc__ = f"Create new instance of {name}({arguments})"
        if defaults:
            new.__defaults__ = defaults
        field_defaults = dict(zip(fields[len(fields) - len(defaults):], defaults))
        shown = ", ".join(f"{field}=%r" for field in fields)

        @classmethod
        def _make(cls, iterable):
            result = tuple.__new__(cls, iterable)
            if len(result) != len(fields):
                raise TypeError(f"Expected {len(fields)} arguments, got {len(result)}")
            return result

        def _replace(self, /, **changes):
            result = self._make(map(changes.pop, fields, self))
            if changes:
                raise ValueError(f"Got unexpected field names: {list(changes)!r}")
            return result

        def __repr__(self):
            return self.__class__.__name__ + f"({shown})" % self

        def _asdict(self):
            return dict(zip(self._fields, self))

        def __getnewargs__(self):
            return tuple(self)

        body = {
            "__doc__": f"{name}({arguments})", "__slots__": (), "_fields": fields, "_field_defaults": field_defaults,
            "__new__": new, "_make": _make, "_replace": _replace, "__repr__": __repr__, "_asdict": _asdict,
            "__getnewargs__": __getnewargs__, "__match_args__": fields,
        }
        for index, field in enumerate(fields):
            body[field] = _field_getter(index, f"Alias for field number {index}")
        for method in (new, _replace, __repr__, _asdict, __getnewargs__, _make.__func__):
            method.__qualname__ = f"{name}.{method.__name__}"
        record = type(name, (tuple,), body)
        record.__module__ = module if module is not None else "__main__"
        return record


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
            record = _record_class(name, fields, tuple(defaults), namespace.get("__module__"))
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
