"""The standard library's regex parser and its constants, whatever the Python version calls them.

Python 3.11 moved ``sre_parse`` and ``sre_constants`` to ``re._parser`` and
``re._constants`` and made importing the old names warn (an error under the
test suite's ``filterwarnings = error``).  The code that reads parsed regexes
imports them from here, when first needed.

Type checkers see typeshed's stubs of the old modules, which describe the same
code: ``re._parser`` has no stub, and whether a checker resolves it depends on
what else it analyses (``lark`` imports it), so an ignore there would be needed
in one run and unused in the next.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing ``typing`` costs a short-lived process (see _records)
if TYPE_CHECKING:
    import sre_constants
    import sre_parse
else:
    try:
        from re import _constants as sre_constants
        from re import _parser as sre_parse
    except ImportError:  # pragma: no cover - Python < 3.11
        import sre_constants
        import sre_parse

__all__ = ["sre_constants", "sre_parse"]
