"""Pure-Python twin of the top-k cosine search: the readable reference for ``_topk_c``.

The exact contract, which both twins follow to the bit:

* Every vector is float32.  The matrix is float32 already; the query is
  converted with ``array('f', query)`` (round to nearest).  A product of two
  float32 values is exact in double precision, which is what makes the
  compiled twin's SIMD and FMA give the very same bits as the loop below.
* A dot product (and a squared norm) is the sum of the products in double
  precision, added in index order starting from ``0.0``: no pairwise or
  compensated summation (so never ``sum()``, which compensates from Python
  3.12 on).
* ``norm = sqrt(squared norm)``; ``score = dot / (query_norm * row_norm)``,
  not clamped to [-1, 1]; a row or a query with a zero norm scores ``0.0``.
* Non-finite values (NaN, ±inf) are refused, in the matrix and in the query,
  so every score is finite and the order is total.
* Results are ordered by ``(-score, row index)``: ties keep the lower index.

``prepare_matrix`` does the per-matrix work once: it checks the matrix,
computes the row norms and stores the rows interleaved in blocks of
``BLOCK`` rows (``blocks[((b * dim) + i) * BLOCK + r]`` is value ``i`` of row
``b * BLOCK + r``, zero rows pad the last block), the layout a SIMD kernel
reads one cache line at a time.
"""

from __future__ import annotations

import heapq
import math
from array import array
from collections.abc import Sequence
from typing import NamedTuple, Union

#: rows per interleaved block of ``TopKMatrix.blocks``
BLOCK = 8

Query = Union[bytes, "array[float]", Sequence[float]]


class TopKMatrix(NamedTuple):
    """A float32 matrix prepared for ``topk_cosine`` (plain, immutable values)."""

    n: int  # rows
    dim: int  # values per row
    norms: bytes  # n float64 row norms, native byte order
    blocks: bytes  # float32 rows interleaved BLOCK at a time, native byte order


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    """Return the dot product, summed in index order (the contract's order)."""
    total = 0.0
    for x, y in zip(a, b):
        total += x * y
    return total


def _check_matrix(matrix: object, dim: object) -> int:
    """Validate the arguments of ``prepare_matrix``; return the number of rows."""
    if not isinstance(matrix, bytes):
        raise TypeError(f"matrix must be bytes (row-major float32), not {type(matrix).__name__}")
    if not isinstance(dim, int):
        raise TypeError(f"dim must be an int, not {type(dim).__name__}")
    if dim <= 0:
        raise ValueError("dim must be > 0")
    if len(matrix) % (4 * dim):
        raise ValueError(f"matrix has {len(matrix)} bytes, not a multiple of 4 * dim = {4 * dim}")
    return len(matrix) // (4 * dim)


def prepare_matrix(matrix: bytes, dim: int) -> TopKMatrix:
    """Check a row-major float32 matrix and precompute what every query needs."""
    n = _check_matrix(matrix, dim)
    values = memoryview(matrix).cast("f")
    norms = array("d")
    for row in range(n):
        squared = _dot(values[row * dim : (row + 1) * dim], values[row * dim : (row + 1) * dim])
        # finite values cannot overflow a double sum of float32 squares, so this catches NaN and inf
        if not math.isfinite(squared):
            raise ValueError("matrix must contain only finite values")
        norms.append(math.sqrt(squared))
    n_blocks = -(-n // BLOCK)
    row_bytes = 4 * dim
    blocks = array("f", bytes(4 * n_blocks * BLOCK * dim))
    for lane in range(BLOCK):
        # lane r of every block holds rows r, r + BLOCK, r + 2 * BLOCK, ... one after the other
        rows = b"".join(matrix[row * row_bytes : (row + 1) * row_bytes] for row in range(lane, n, BLOCK))
        blocks[lane :: BLOCK] = array("f", rows + bytes(n_blocks * row_bytes - len(rows)))
    return TopKMatrix(n, dim, norms.tobytes(), blocks.tobytes())


def _check_query(query: object, prepared: object, k: object) -> array[float]:
    """Validate the arguments of ``topk_cosine``; return the query as float32."""
    if not isinstance(prepared, TopKMatrix):
        raise TypeError("prepared must be a TopKMatrix (see prepare_matrix)")
    n, dim = prepared.n, prepared.dim
    if (not isinstance(n, int) or not isinstance(dim, int) or n < 0 or dim <= 0
            or not isinstance(prepared.norms, bytes) or not isinstance(prepared.blocks, bytes)
            or len(prepared.norms) != 8 * n or len(prepared.blocks) != 4 * dim * BLOCK * -(-n // BLOCK)):
        raise ValueError("prepared is inconsistent; build it with prepare_matrix")
    if not isinstance(k, int):
        raise TypeError(f"k must be an int, not {type(k).__name__}")
    if k < 0:
        raise ValueError("k must be >= 0")
    values = query if isinstance(query, array) and query.typecode == "f" else array("f", query)  # type: ignore[call-overload]
    if len(values) != dim:
        raise ValueError(f"query has {len(values)} values, expected dim = {dim}")
    return values


def topk_cosine(query: Query, prepared: TopKMatrix, k: int) -> list[tuple[int, float]]:
    """Return the ``k`` rows most similar to ``query`` as ``(row, score)``, best first."""
    values = _check_query(query, prepared, k)
    squared = _dot(values, values)
    if not math.isfinite(squared):
        raise ValueError("query must contain only finite values")
    query_norm = math.sqrt(squared)
    dim = prepared.dim
    norms = memoryview(prepared.norms).cast("d")
    blocks = memoryview(prepared.blocks).cast("f")
    ranked = []
    for row in range(prepared.n):
        start = (row // BLOCK) * BLOCK * dim + row % BLOCK
        row_norm = norms[row]
        if query_norm == 0.0 or row_norm == 0.0:
            score = 0.0
        else:
            score = _dot(values, blocks[start : start + BLOCK * dim : BLOCK]) / (query_norm * row_norm)
        ranked.append((-score, row))
    return [(row, -negated) for negated, row in heapq.nsmallest(k, ranked)]
