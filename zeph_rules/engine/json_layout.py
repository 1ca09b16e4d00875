"""Pretty-printed JSON laid out again in fewer lines, with nothing but whitespace changed.

``ruff check --output-format json``, ``docker inspect``, ``pylint -f json``, ``python -m json.tool``,
``npm view --json`` and ``terraform validate -json`` print one value per line, indented: a location
``{"column": 5, "row": 12}`` takes four lines and a third of the bytes are indentation.  What a model
reads is the same document written as a person would: each array or object that fits on one line
at its indentation (``WIDTH`` columns) on that line, the others one item per line, two spaces deeper
per level.  Strings, numbers and keys are kept character for character (no escape is decoded, no
number reformatted, no key reordered), so the result parses to the same value, and a quoted line of
the original (``"code": "F401",``) is still a substring of one of its lines.  Nothing is cut, so no
marker: the stats line counts the lines saved.
"""

from __future__ import annotations

#: the widest line a container is joined onto (its indentation and key included)
WIDTH = 120
#: output of fewer lines than this is left as it is: laying out ten lines again saves nothing worth a
#: reader's surprise
MIN_LINES = 8
#: how far into the output, from either end, its first and last characters that are not whitespace are looked for
_EDGE_LOOK = 256
#: a JSON string literal, escapes and all (the pipeline narrows long ones inside a one-line document)
JSON_STRING = r'"(?:[^"\\]|\\.)*"'
#: deeper nesting than this is left as it is (each level is a frame of the layout's recursion)
MAX_DEPTH = 200


def relayout_json(text: str) -> str | None:
    """Return ``text``, one or more pretty-printed JSON documents, laid out again in fewer lines.

    None when ``text`` is not such documents (compact ones, a document with a line of anything else
    around it, invalid JSON) or when the layout would save no line.
    """
    # cheap refusals first, without copying megabytes: almost no command's output starts with a bracket
    ends = min(len(text), _EDGE_LOOK)
    if _edge(text, range(ends)) not in ("{", "[") or _edge(text, range(len(text) - 1, len(text) - 1 - ends, -1)) not in ("}", "]"):
        return None
    bare = text.strip()
    if bare.count("\n", 0, 4096) < MIN_LINES - 1:
        return None
    spans = _document_spans(bare)
    if spans is None:
        return None
    laid_out = "\n".join(_layout(bare[start:end]) for start, end in spans)
    if laid_out.count("\n") >= bare.count("\n") or len(laid_out) >= len(bare):
        return None
    # the text's own leading and trailing whitespace stays (a final newline above all)
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()) :]
    return lead + laid_out + trail


def _edge(text: str, positions: range) -> str:
    """The first character of ``text`` that is not whitespace, looking at ``positions`` in order ("" if none)."""
    for position in positions:
        if not text[position].isspace():
            return text[position]
    return ""


def _indent_step(document: str) -> str:
    """The indentation of one level: the document's own when a tab or up to two spaces, else two spaces.

    Go's ``json.MarshalIndent`` indents by a tab, which two spaces would lengthen; four spaces
    (``docker inspect``, ``json.tool``) shrink to two.
    """
    start = end = document.find("\n") + 1
    while end < len(document) and document[end] in " \t" and end - start < 8:
        end += 1
    first = document[start:end]
    return first if first == "\t" or first in (" ", "  ") else "  "


def _filled(items: list[str], indent: str) -> str:
    """``items`` (an array's numbers, strings, literals) as lines of up to ``WIDTH`` columns, each after ``indent``.

    Go's ``"Deps"``, ``npm view``'s versions, a tool's list of files: one per line would take a
    line each; as lines of text they still read as a list, comma after comma.
    """
    lines: list[str] = []
    line = ""
    last = len(items) - 1
    for number, item in enumerate(items):
        piece = item + "," if number < last else item
        if line and len(indent) + len(line) + 1 + len(piece) > WIDTH:
            lines.append(indent + line)
            line = piece
        else:
            line = f"{line} {piece}" if line else piece
    lines.append(indent + line)
    return "\n".join(lines)


def _document_spans(bare: str) -> list[tuple[int, int]] | None:
    """Return the (start, end) of each JSON array or object ``bare`` holds, one after another; None if it holds anything else."""
    import json  # here: the warm ``filter`` path of output that is no JSON never pays for it

    decoder = json.JSONDecoder()
    spans: list[tuple[int, int]] = []
    at = 0
    while at < len(bare):
        if bare[at] not in "{[":
            return None
        try:
            _, end = decoder.raw_decode(bare, at)
        except (ValueError, RecursionError):
            return None
        spans.append((at, end))
        at = end
        while at < len(bare) and bare[at] in " \t\r\n":
            at += 1
    return spans


def _layout(document: str) -> str:
    """Lay out one valid JSON array or object (see the module's docstring)."""
    import re

    # each token with the whitespace after it; the document is valid JSON, so these cover it all
    found: list[tuple[str, str]] = re.findall(rf'({JSON_STRING}|[\[\]{{}},:]|[^\s\[\]{{}},:"]+)(\s*)', document)
    tokens = [token for token, _ in found]
    # the whitespace between two tokens when they share a line: a line break goes (a space after a
    # comma), the spaces within a line stay as the printer wrote them (`"key": value`)
    gaps = [(" " if token == "," else "") if "\n" in space else space for token, space in found]
    # where each token starts in the one-line form of the whole document, and each container's close
    offsets = [0] * (len(tokens) + 1)
    closes: dict[int, int] = {}
    opened: list[int] = []
    holding = set()  # the containers that hold a container
    deepest = 0
    for index, token in enumerate(tokens):
        offsets[index + 1] = offsets[index] + len(token) + len(gaps[index])
        if token in "{[":
            if opened:
                holding.add(opened[-1])
            opened.append(index)
            deepest = max(deepest, len(opened))
        elif token in "}]":
            closes[opened.pop()] = index
    if deepest > MAX_DEPTH:
        return document
    step = _indent_step(document)
    out: list[str] = []

    def flat(start: int, end: int) -> str:
        """The tokens from ``start`` to ``end`` (inclusive) on one line."""
        return "".join(tokens[index] + gaps[index] for index in range(start, end)) + tokens[end]

    def container(start: int, indent: str, column: int) -> None:
        end = closes[start]
        if column + offsets[end] + len(tokens[end]) - offsets[start] <= WIDTH or end == start + 1:
            out.append(flat(start, end))
            return
        inner = indent + step
        if tokens[start] == "[" and start not in holding:
            out.append(tokens[start] + "\n" + _filled(tokens[start + 1 : end : 2], inner) + "\n" + indent + tokens[end])
            return
        out.append(tokens[start] + "\n" + inner)
        column = len(inner)
        index = start + 1
        while index < end:
            token = tokens[index]
            if token in "{[":
                container(index, inner, column)
                index = closes[index]  # what follows it in its item is a comma or the close
            elif token == ",":
                out.append(",\n" + inner)
                column = len(inner)
            else:
                piece = token + gaps[index] if tokens[index + 1] not in "}]," else token
                out.append(piece)
                column += len(piece)
            index += 1
        out.append("\n" + indent + tokens[end])

    container(0, "", 0)
    return "".join(out)


__all__ = ["JSON_STRING", "MAX_DEPTH", "MIN_LINES", "WIDTH", "relayout_json"]
