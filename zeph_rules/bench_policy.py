"""Decision benchmarks: ``decide`` with 10 to 10,000 permission and policy rules.

``decide.graph.rules=N`` times the compiled graph, once per implementation of
the hot paths; ``decide.naive.rules=N`` times the reference engine, which scans
every rule in order.  Both see the same generated rule file (N permission rules
for ``bash`` and N policy rules) and the same queries.

What is cached, and what is not:

* per graph, built once at first use: the index tables in plain form, every
  rule's condition as clauses with its glob / regex compiled, prefix tries in
  radix form; per tool name, the tool's permission tables, rule ranks and
  the ready verdict ``(effect, stage, rule id)`` of every permission and
  policy rule;
* per command line (``(tool, text)``, bounded LRU): the parse, the shell
  normalisation, the blocklist's findings, the call's subjects, the files its
  commands read (with a sandbox) and whether only permissions and policy can
  have an opinion on it, which depend on the text alone;
* per call, never cached: the candidate lookup in the permission and policy
  indexes (the casefold of each value included: it is reused within a call,
  never across calls), the evaluation of every candidate rule in order, the
  stage logic and the ``Decision``.  No decision is memoised.  The decision's
  sentences (source, reason, trace, why-not) are written when first read, by
  running the lists again with the candidates tried kept, so the timed loop,
  which reads only ``decision``, does not write them.

``decide.graph.cold.rules=N`` clears the per-line memos before every call, so
it is the figure for never-seen command lines.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .bench import (
    BenchResult,
    _result,
    _time_rounds,
    generate_permission_toml,
    generate_queries,
)

if TYPE_CHECKING:
    from .engine.graph import MatcherGraph
    from .engine.ruleset import RuleSet

_PROGRAMS = ["git", "cargo", "npm", "docker", "kubectl", "terraform", "make", "pytest", "go", "pip"]


def generate_policy_toml(count: int, seed: int = 5) -> str:
    """Return a rule file with ``count`` bash permission rules and ``count`` policy rules."""
    rng = random.Random(seed)
    lines = [generate_permission_toml(count), "[tools.policy]", 'default_effect = "ask"']
    for i in range(count - 1):
        program = _PROGRAMS[i % len(_PROGRAMS)]
        shape = i % 4
        effect = rng.choice(["allow", "ask", "deny"])
        lines += ["[[tools.policy.rules]]", f'id = "policy-{i}"', f'effect = "{effect}"']
        if shape == 0:
            lines += ['tool = "bash"', f"when = 'command ^= \"{program} task-{i}\"'"]
        elif shape == 1:
            lines += [f"when = 'tool == \"bash\" and command.program == \"{program}-{i}\"'"]
        elif shape == 2:
            lines += ['tool = "write"', f'paths = ["/srv/app-{i}/**"]']
        else:
            lines += ['tool = "bash"', f"args_match = 'deploy-{i}\\b'"]
    lines += ["[[tools.policy.rules]]", 'id = "policy-catch-all"', 'effect = "allow"', 'tool = "bash"']
    return "\n".join(lines) + "\n"


def compile_policy_rules(count: int) -> tuple[RuleSet, MatcherGraph]:
    """Parse, desugar and compile the generated rule file with the built-in blocklist."""
    from .engine.compiler import compile_rules
    from .engine.desugar import desugar
    from .engine.loader import BUILTIN_DIR
    from .engine.source import parse_toml_text, read_rule_file

    sources = [read_rule_file(BUILTIN_DIR / "blocklist.toml", "<builtin>/blocklist.toml"),
               parse_toml_text(generate_policy_toml(count), f"generated-policy-{count}.toml")]
    ruleset = desugar(sources)
    return ruleset, compile_rules(ruleset)


def policy_queries(count: int) -> list[str]:
    """Commands that hit early, late and no rules (plus a compound one)."""
    return generate_queries(count) + ["cd /tmp/project && cargo test 2>&1 | tail -40"]


def bench_decide(counts: Sequence[int], implementations: Sequence[str], rounds: int) -> list[BenchResult]:
    """Time ``decide`` through the graph (per implementation, warm and cold) and the naive reference."""
    from . import _speedups
    from .engine.commands import parse_command
    from .engine.policy import PolicyEngine

    results = []
    for count in counts:
        _, graph = compile_policy_rules(count)
        queries = policy_queries(count)
        for implementation in implementations:
            _speedups.select(implementation)
            engine = PolicyEngine(graph)
            for query in queries:
                engine.decide("bash", query)

            def run_graph() -> None:
                for query in queries:
                    engine.decide("bash", query)

            results.append(_result(f"decide.graph.rules={count}", implementation, "us", _time_rounds(run_graph, len(queries), rounds)))

            def run_cold() -> None:
                for query in queries:  # a never-seen line: no parse, analysis or plan is reused
                    parse_command.cache_clear()
                    engine.blocklist.check.cache_clear()
                    engine._plan.cache_clear()
                    engine.decide("bash", query)

            results.append(_result(f"decide.graph.cold.rules={count}", implementation, "us",
                                   _time_rounds(run_cold, len(queries), max(3, rounds // 2))))
        naive = PolicyEngine(graph, reference=True)
        for query in queries:
            naive.decide("bash", query)

        def run_naive() -> None:
            for query in queries:
                naive.decide("bash", query)

        results.append(_result(f"decide.naive.rules={count}", "python", "us",
                               _time_rounds(run_naive, len(queries), max(3, rounds // (1 + count // 1000)))))
    return results
