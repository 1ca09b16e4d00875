"""The shell blocklist: checks that run before everything else and cannot be switched off.

Entries are IR rules of group ``blocklist`` (built-in ones come from
``builtin_rules/blocklist.toml`` through the ordinary loader).  Their condition
is a cheap necessary test on one normalised command (``command.program in
[...]``); the ``check`` named in the payload then looks at the arguments the
way the program reads them.  ``shellnorm.analyse`` supplies the commands, so
quoting, wrappers and nested scripts are already undone here.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .evaluate import Subject, holds
from .ir import Rule
from .shellnorm import (
    HOME,
    UNKNOWN,
    Analysis,
    Event,
    Segment,
    ShellConfig,
    WrapperSpec,
    analyse,
    normalise_path,
)

BLOCKLIST = "blocklist"
#: A check only the engine performs: a program or script not known statically.
DYNAMIC_RULE = "blocklist.dynamic"
DYNAMIC_SOURCE = "<builtin>/shellnorm"

_BLOCK_DEVICE = re.compile(
    r"^/dev/(?:sd[a-z]+\d*|hd[a-z]+\d*|vd[a-z]+\d*|xvd[a-z]+\d*|nvme\d+(?:n\d+)?(?:p\d+)?|mmcblk\d+(?:p\d+)?|"
    r"r?disk\d+(?:s\d+)*|dm-\d+|md\d+|mapper/.+|loop\d+|sr\d+|fd\d+|root|disk/by-[a-z]+/.+|mtdblock\d+|zd\d+|"
    r"bcache\d+|mem|kmem|port|nbd\d+|rbd\d+|ubi\d+.*|sg\d+)$"
)
_DEVICE_WRITERS = frozenset({"shred", "wipe", "blkdiscard", "badblocks", "scrub"})
_COPIERS = frozenset({"cp", "mv", "install", "ddrescue", "pv", "tee", "cat"})
_DELETERS = frozenset({"rm", "shred", "unlink", "srm", "rmdir"})
_FIND_FILTERS = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-newer",
                           "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-size", "-user", "-group", "-empty",
                           "-lname", "-ilname", "-perm", "-inum", "-samefile", "-links"})
_NET_TOOLS = frozenset({"nc", "ncat", "netcat", "socat", "telnet"})
_FORK_BOMB = re.compile(
    r"(?:function\s+)?(?P<name>[^\s(){};|&<>'\"]+)\s*\(\s*\)\s*\{(?P<body>[^}]*)\}"
    r"|function\s+(?P<name2>[^\s(){};|&<>'\"]+)\s*\{(?P<body2>[^}]*)\}"
)
_FORK_LOOPS = re.compile(r"fork\s*(?:while|until|\|\|)\s*fork|while\s*(?:true|1|True)\s*[:;]?\s*(?:do)?\s*[^\n]{0,40}?fork\s*\(|os\.fork\(\)\s*(?:and|or|while)", re.IGNORECASE)


@dataclass(frozen=True)
class Hit:
    """One blocklist finding: the rule, its effect and a sentence about the command."""

    rule_id: str
    effect: str  # deny | ask
    source: str
    reason: str
    command: str


@dataclass(frozen=True)
class BlocklistResult:
    """What the blocklist found in one command line."""

    analysis: Analysis
    hits: tuple[Hit, ...]
    considered: tuple[tuple[str, str, bool, str], ...]  # (rule id, source, matched, why) for the trace

    @property
    def decision(self) -> str | None:
        """deny, ask, or None when nothing was found."""
        if any(h.effect == "deny" for h in self.hits):
            return "deny"
        return "ask" if self.hits else None

    @property
    def first(self) -> Hit | None:
        for effect in ("deny", "ask"):
            for hit in self.hits:
                if hit.effect == effect:
                    return hit
        return None


class Blocklist:
    """The compiled blocklist of one graph: shell config, entries and their checks."""

    def __init__(self, rules: tuple[Rule, ...], settings: Mapping[str, Any], group: Any = None) -> None:
        disabled = set(settings.get("blocklist.disable", ()))
        allow_network = settings.get("blocklist.allow_network", True) is not False
        kept = []
        for rule in rules:
            payload = dict(rule.payload)
            if rule.id in disabled:
                continue
            if payload.get("family") == "network" and allow_network:
                continue
            kept.append(rule)
        self.rules: tuple[Rule, ...] = tuple(kept)
        self.payloads = {r.order: dict(r.payload) for r in kept}
        self.group = group  # GroupIndex of the blocklist, for candidate lookup
        self.kept_orders = frozenset(r.order for r in kept)
        wrappers: dict[str, WrapperSpec] = {}
        for name, spec in settings.get("blocklist.wrappers", ()):
            wrappers[name.casefold()] = WrapperSpec(
                value_options=frozenset(spec.get("value_options", ())), positionals=int(spec.get("positionals", 0)),
                script_options=frozenset(spec.get("script_options", ())), no_exec_options=frozenset(spec.get("no_exec_options", ())),
                joins_script=bool(spec.get("joins_script")), reads_stdin_args=bool(spec.get("reads_stdin_args")),
                applet=bool(spec.get("applet")),
            )
        # privilege tools wrap the command they run: peel them so `sudo rm -rf /` is still
        # seen as rm when the privilege entry is disabled (the entry still sees them as wrappers)
        for name, options in (("sudo", ("-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "--user", "--group")),
                              ("doas", ("-u", "-C")), ("pkexec", ("--user",)), ("run0", ("-u", "--user")),
                              ("su", ("-s", "--shell", "-g", "-G"))):
            wrappers.setdefault(name, WrapperSpec(value_options=frozenset(options), script_options=frozenset({"-c", "--command"}) if name == "su" else frozenset(),
                                                  positionals=0))
        known = sorted({p.casefold() for r in kept for p in dict(r.payload).get("programs", ())})

        def names(key: str) -> frozenset[str]:
            return frozenset(p.casefold() for p in settings.get(f"blocklist.{key}", ()))

        self.config = ShellConfig(wrappers=wrappers, shells=names("shells"), interpreters=names("interpreters"),
                                  downloaders=names("downloaders"), decoders=names("decoders"), known_programs=tuple(known))
        self.script_rules = tuple(r for r in kept if dict(r.payload).get("check") in ("fork_bomb", "download_exec"))
        self.check = functools.lru_cache(maxsize=4096)(self._check)

    # ------------------------------------------------------------ the check

    def _check(self, command: str) -> BlocklistResult:
        """Analyse a command line and return every blocklist finding (memoised per line)."""
        analysis = analyse(command, self.config)
        hits: list[Hit] = []
        considered: dict[str, tuple[str, str, bool, str]] = {}
        for segment in analysis.segments:
            subject = _segment_subject(segment)
            for rule in self._candidates(subject, segment):
                payload = self.payloads[rule.order]
                check = _CHECKS.get(payload.get("check", ""))
                if check is None:
                    continue
                # the condition was only a prefilter (wrappers count as programs); the check decides
                why = check(payload, segment)
                source = str(rule.span)
                if why:
                    hits.append(Hit(rule.id, rule.effect, source, f"{why} (`{segment.shown}`)" if segment.shown else why, segment.shown))
                    considered[rule.id] = (rule.id, source, True, f"`{segment.shown}` {why}")
                elif rule.id not in considered:
                    considered[rule.id] = (rule.id, source, False, f"`{segment.shown}`: {_why_not(payload)}")
        for rule in self.script_rules:
            payload = self.payloads[rule.order]
            source = str(rule.span)
            if payload["check"] == "fork_bomb":
                found = next((s for s in analysis.scripts if _is_fork_bomb(s)), None)
                if found is not None:
                    hits.append(Hit(rule.id, rule.effect, source, payload.get("reason") or "defines a fork bomb", found))
                considered[rule.id] = (rule.id, source, found is not None, "defines a self-spawning function" if found else "no function spawns itself")
            else:
                event = next((e for e in analysis.events if e.kind == "download_exec"), None)
                if event is not None:
                    hits.append(Hit(rule.id, rule.effect, source, f"{payload.get('reason') or 'runs downloaded code'}: it {event.detail}", command))
                considered[rule.id] = (rule.id, source, event is not None, event.detail if event else "no download reaches a shell or interpreter")
        dynamic = [e for e in analysis.events if e.kind == "dynamic"]
        if dynamic:
            hits.append(Hit(DYNAMIC_RULE, "ask", DYNAMIC_SOURCE, f"{dynamic[0].detail}, so it cannot be checked before it runs", command))
        considered[DYNAMIC_RULE] = (DYNAMIC_RULE, DYNAMIC_SOURCE, bool(dynamic), dynamic[0].detail if dynamic else "every program is known statically")
        return BlocklistResult(analysis, tuple(hits), tuple(considered.values()))

    def _candidates(self, subject: Subject, segment: Segment) -> list[Rule]:
        """Rules whose cheap condition might hold for ``segment`` (wrappers count as programs)."""
        group = self.group
        if group is None:
            found = list(self.rules)
        else:
            found = [r for r in group.candidates(subject) if r.order in self.kept_orders]
            for wrapper in segment.wrappers:
                extra = group.candidates(_segment_subject(segment, wrapper))
                found.extend(r for r in extra if r.order in self.kept_orders and r not in found)
            found.sort(key=lambda r: r.order)
        out = []
        for rule in found:
            check = self.payloads[rule.order].get("check")
            if check in ("fork_bomb", "download_exec"):
                continue
            if check in ("pattern", "regex"):
                if holds(rule.condition, subject):
                    out.append(rule)
                continue
            out.append(rule)
        return out


def _segment_subject(segment: Segment, program: str | None = None) -> Subject:
    text = segment.text
    return Subject(tool="bash", command=text, command_full=text, program=program or segment.program, input=text)


# ------------------------------------------------------------ checks (payload, segment) -> reason or None


def _programs(payload: Mapping[str, Any], segment: Segment) -> str | None:
    names = {p.casefold() for p in payload.get("programs", ())}
    prefixes = tuple(p.casefold() for p in payload.get("program_prefixes", ()))
    for name in (segment.program, *segment.wrappers):
        if name in names or (prefixes and name.startswith(prefixes)):
            return name
    return None


def _check_program(payload: Mapping[str, Any], segment: Segment) -> str | None:
    name = _programs(payload, segment)
    return (payload.get("reason") or f"runs `{name}`") if name else None


def _operands(args: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """Split arguments into options and operands (everything after ``--`` is an operand)."""
    options: list[str] = []
    operands: list[str] = []
    rest = False
    for arg in args:
        if rest or not arg.startswith("-") or arg == "-":
            operands.append(arg)
        elif arg == "--":
            rest = True
        else:
            options.append(arg)
    return options, operands


def _check_subcommand(payload: Mapping[str, Any], segment: Segment) -> str | None:
    if segment.program not in {p.casefold() for p in payload.get("programs", ())}:
        return None
    _, operands = _operands(segment.argv[1:])
    wanted = set(payload.get("subcommands", ()))
    if operands and operands[0] in wanted:
        return payload.get("reason") or f"runs `{segment.program} {operands[0]}`"
    return None


def _is_recursive(options: list[str]) -> bool:
    for option in options:
        if option in ("--recursive", "-recursive"):
            return True
        if not option.startswith("--") and ("r" in option[1:] or "R" in option[1:]):
            return True
    return False


@functools.lru_cache(maxsize=256)
def _target_set(targets: tuple[str, ...]) -> frozenset[str]:
    return frozenset(normalise_path(HOME + t[1:] if t.startswith("~") else t) for t in targets) | {"/"}


def _critical(value: str, targets: frozenset[str]) -> str | None:
    """Return why a path operand is critical (the root, home, a system dir, a glob over one), or None."""
    if UNKNOWN in value:
        return None
    path = normalise_path(value)
    if not path.startswith("/"):
        return None  # relative to a directory we do not know
    if path in targets:
        return _display(path)
    if path.startswith("/~/..") or value.startswith(HOME + "/.."):
        return "~/.."
    parent, _, base = path.rpartition("/")
    parent = parent or "/"
    if base and any(c in base for c in "*?[") and parent in targets:
        return _display(f"{parent.rstrip('/')}/{base}")
    return None


def _display(path: str) -> str:
    return "~" + path[2:] if path.startswith("/~") else path


def _check_recursive_delete(payload: Mapping[str, Any], segment: Segment) -> str | None:
    if _programs(payload, segment) is None or segment.program not in {p.casefold() for p in payload.get("programs", ())}:
        return None
    options, operands = _operands(segment.argv[1:])
    if not _is_recursive(options) and segment.program == "rm":
        return None
    targets = _target_set(tuple(payload.get("targets", ())))
    for operand in operands:
        found = _critical(operand, targets)
        if found:
            return f"recursively removes `{found}`"
    return None


def _check_recursive_mode(payload: Mapping[str, Any], segment: Segment) -> str | None:
    if segment.program not in {p.casefold() for p in payload.get("programs", ())}:
        return None
    options, operands = _operands(segment.argv[1:])
    if not _is_recursive(options):
        return None
    targets = _target_set(tuple(payload.get("targets", ())))
    for operand in operands:
        found = _critical(operand, targets)
        if found:
            return f"recursively changes `{found}` with `{segment.program}`"
    return None


def _is_device(value: str) -> bool:
    return UNKNOWN not in value and bool(_BLOCK_DEVICE.match(normalise_path(value)))


def _check_device_write(payload: Mapping[str, Any], segment: Segment) -> str | None:
    for op, target in segment.redirects:
        if ">" in op and _is_device(target):
            return f"redirects output onto the block device `{target}`"
    program = segment.program
    args = segment.argv[1:]
    if program == "dd":
        for arg in args:
            if arg.startswith("of=") and _is_device(arg[3:]):
                return f"`dd` writes onto the block device `{arg[3:]}`"
    elif program in _DEVICE_WRITERS:
        _, operands = _operands(args)
        for operand in operands:
            if _is_device(operand):
                return f"`{program}` overwrites the block device `{operand}`"
    elif program in _COPIERS:
        _, operands = _operands(args)
        outputs = operands if program == "tee" else operands[-1:] if len(operands) >= 2 else []
        for operand in outputs:
            if _is_device(operand):
                return f"`{program}` writes onto the block device `{operand}`"
    return None


def _check_find_delete(payload: Mapping[str, Any], segment: Segment) -> str | None:
    if segment.program != "find":
        return None
    args = list(segment.argv[1:])
    starts: list[str] = []
    i = 0
    while i < len(args) and args[i] in ("-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3", "-D"):
        i += 2 if args[i] == "-D" else 1
    while i < len(args) and not args[i].startswith(("-", "(", "!", ")")):
        starts.append(args[i])
        i += 1
    expression = args[i:]
    if any(word in _FIND_FILTERS for word in expression):
        return None  # a targeted clean-up (`-name '*.pyc' -delete`), not a wipe
    deletes = "-delete" in expression
    for j, word in enumerate(expression):
        if word in ("-exec", "-execdir", "-ok", "-okdir") and j + 1 < len(expression):
            inner = expression[j + 1].rsplit("/", 1)[-1].casefold()
            if inner in _DELETERS:
                deletes = True
    if not deletes:
        return None
    targets = _target_set(tuple(payload.get("targets", ())))
    for start in starts or ["."]:
        found = _critical(start, targets)
        if found:
            return f"deletes what `find` finds under `{found}`"
    return None


def _check_reverse_shell(payload: Mapping[str, Any], segment: Segment) -> str | None:
    """A shell wired to a socket: ``nc -e /bin/sh``, ``bash -i >& /dev/tcp/h/p``, ``socat exec:sh``."""
    program = segment.program
    args = segment.argv[1:]
    if program in _NET_TOOLS:
        for i, arg in enumerate(args):
            if arg in ("-e", "-c", "--exec", "--sh-exec", "--lua-exec") or (arg.startswith("-") and not arg.startswith("--") and arg[-1:] in "ec" and len(arg) > 2 and "e" in arg[1:]):
                return payload.get("reason") or f"connects a program to the network with `{program} {arg}`"
            if program == "socat" and re.match(r"(?i)(exec|system):", arg):
                return payload.get("reason") or "connects a program to the network with `socat`"
    for op, target in segment.redirects:
        if re.match(r"^/dev/(tcp|udp)/", target):
            return payload.get("reason") or f"connects a command to the network through `{target}`"
    return None


def _check_match(payload: Mapping[str, Any], segment: Segment) -> str | None:
    return payload.get("reason") or "matches a blocklist pattern"


_CHECKS: dict[str, Callable[[Mapping[str, Any], Segment], str | None]] = {
    "program": _check_program,
    "subcommand": _check_subcommand,
    "recursive_delete": _check_recursive_delete,
    "recursive_mode": _check_recursive_mode,
    "device_write": _check_device_write,
    "find_delete": _check_find_delete,
    "reverse_shell": _check_reverse_shell,
    "pattern": _check_match,
    "regex": _check_match,
}


def _why_not(payload: Mapping[str, Any]) -> str:
    check = payload.get("check")
    return {
        "subcommand": f"its first operand is not one of {', '.join(payload.get('subcommands', ()))}",
        "recursive_delete": "it does not recursively remove a protected path",
        "recursive_mode": "it does not recursively change a protected path",
        "device_write": "it writes to no block device",
        "find_delete": "it deletes nothing under a protected path",
        "reverse_shell": "it connects no shell to the network",
        "program": "its program is not on the list",
    }.get(str(check), "the check did not hold")


def _is_fork_bomb(script: str) -> bool:
    """Return whether a script defines a function that spawns itself twice or in the background."""
    if _FORK_LOOPS.search(script):
        return True
    for found in _FORK_BOMB.finditer(script):
        name = found.group("name") or found.group("name2")
        body = found.group("body") if found.group("name") else found.group("body2")
        if not name or body is None:
            continue
        call = re.compile(r"(?:^|[\s;|&({])" + re.escape(name) + r"(?=$|[\s;|&)}])")
        calls = len(call.findall(" " + body))
        if calls >= 2 or (calls >= 1 and "&" in body.replace("&&", "")):
            return True
    return False


def explain_event(event: Event) -> str:
    return event.detail


__all__ = ["BLOCKLIST", "DYNAMIC_RULE", "Blocklist", "BlocklistResult", "Hit"]
