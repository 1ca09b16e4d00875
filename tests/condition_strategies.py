"""Hypothesis strategies for generated rule conditions, shared by the graph and the decide-twin tests.

Each test module brings its own vocabulary (fields, words, globs, regexes); the
shapes of the conditions are the same everywhere.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from zeph_rules.engine.ir import And, Compare, Const, Expr, Not, Or, Regex


def conditions(fields: list[str], text: st.SearchStrategy[str], globs: st.SearchStrategy[str], regexes: list[str],
               equal_to: st.SearchStrategy[Any] | None = None) -> st.SearchStrategy[Expr]:
    """Return conditions over ``fields``: every comparison operator, nested in and / or / not."""
    field = st.sampled_from(fields)
    compare = st.one_of(
        st.builds(lambda f, v: Compare(f, "==", v), field, equal_to if equal_to is not None else text),
        st.builds(lambda f, v: Compare(f, "!=", v), field, text),
        st.builds(lambda f, v: Compare(f, "^=", v), field, text.filter(bool)),
        st.builds(lambda f, v: Compare(f, "$=", v), field, text),
        st.builds(lambda f, g: Compare(f, "~", g), field, globs),
        st.builds(lambda f, g: Compare(f, "~i", g), field, globs),
        st.builds(lambda f, r: Compare(f, "=~", Regex(r)), field, st.sampled_from(regexes)),
        st.builds(lambda f, r: Compare(f, "=~", Regex(r, "i")), field, st.sampled_from(regexes)),
        st.builds(lambda f, vs: Compare(f, "in", tuple(vs)), field, st.lists(text, max_size=3)),
        st.builds(lambda f: Compare(f, "truthy", None), field),
    )
    return st.recursive(
        st.one_of(compare, st.sampled_from([Const(True), Const(False)])),
        lambda inner: st.one_of(
            st.lists(inner, min_size=2, max_size=3).map(lambda xs: And(tuple(xs))),
            st.lists(inner, min_size=2, max_size=3).map(lambda xs: Or(tuple(xs))),
            inner.map(Not),
        ),
        max_leaves=6,
    )
