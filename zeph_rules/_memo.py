"""``functools.lru_cache`` for the modules every ``filter`` run imports, without importing ``functools``.

Importing ``functools`` costs a short-lived process 1.8 ms here, and with
``collections`` (which it imports) 5 ms.  Type checkers see ``lru_cache``
itself.  At run time ``bounded_cache(maxsize)`` memoises on the call's
arguments in a dict, with ``cache_clear()`` and ``__wrapped__`` as
``lru_cache`` has them; a full cache drops its oldest entry (first in, first
out: the caches hold compiled patterns and their proofs, and filling one takes
a rule set far past any real one).
"""

from __future__ import annotations

__all__ = ["bounded_cache"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from functools import lru_cache as bounded_cache
else:
    _KEYWORDS = object()  # separates positional from keyword arguments in a key

    def bounded_cache(maxsize):
        def decorate(function):
            cache = {}

            def cached(*args, **kwargs):
                key = args if not kwargs else (*args, _KEYWORDS, *kwargs.items())
                try:
                    return cache[key]
                except KeyError:
                    pass
                value = function(*args, **kwargs)  # an exception is not cached, as in lru_cache
                if len(cache) >= maxsize:
                    try:
                        del cache[next(iter(cache))]
                    except (KeyError, RuntimeError, StopIteration):  # another thread changed it meanwhile
                        pass
                cache[key] = value
                return value

            cached.cache_clear = cache.clear
            cached.__wrapped__ = function
            for name in ("__module__", "__name__", "__qualname__", "__doc__"):
                setattr(cached, name, getattr(function, name))
            return cached

        return decorate
