# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled top-k cosine search; the twin of ``_topk_py`` (same names, results, errors).

See ``_topk_py`` for the exact contract.  The kernel walks ``BLOCK`` (8) rows
at once: one double accumulator per row, each summed in index order, so the
bits are the pure twin's; 8 rows side by side are one AVX-512 register of
doubles or two AVX2 ones.  On x86-64 Linux with GCC the kernel is cloned for
AVX-512 / AVX2 / baseline and picked at load time (``target_clones``); an
AVX-512 clone may fuse multiply and add, which changes nothing because every
product of two float32 values is exact in double precision.
"""

from array import array

from cpython cimport array as carray
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from libc.math cimport isfinite, sqrt
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

# argument checks are shared with the pure twin so both raise exactly the same errors
from ._topk_py import BLOCK as _PY_BLOCK, TopKMatrix, _check_query


cdef extern from *:
    """
    #define ZEPH_BLOCK 8
    #if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && __GNUC__ >= 8
    #define ZEPH_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
    #else
    #define ZEPH_CLONES
    #endif

    /* The dot products of G consecutive blocks: G * 8 independent sums in flight hide
       the latency of the adds (each sum still runs in index order). */
    #define ZEPH_DOTS_GROUP(G)                                                              \
        do {                                                                                \
            double acc[G][ZEPH_BLOCK] = {{0.0}};                                            \
            const float *p = blocks + b * dim * ZEPH_BLOCK;                                 \
            for (Py_ssize_t i = 0; i < dim; i++) {                                          \
                double qi = q[i];                                                           \
                for (int g = 0; g < G; g++)                                                 \
                    for (int r = 0; r < ZEPH_BLOCK; r++)                                    \
                        acc[g][r] += qi * (double)p[(g * dim + i) * ZEPH_BLOCK + r];        \
            }                                                                               \
            for (int g = 0; g < G; g++)                                                     \
                for (int r = 0; r < ZEPH_BLOCK; r++) out[(b + g) * ZEPH_BLOCK + r] = acc[g][r]; \
            b += G;                                                                         \
        } while (0)

    /* out[b * 8 + r] = sum over i, in order, of q[i] * row (b * 8 + r)[i], for blocks [0, nb). */
    ZEPH_CLONES
    static void zeph_block_dots(const float *blocks, const double *q, Py_ssize_t dim, Py_ssize_t nb, double *out) {
        Py_ssize_t b = 0;
        while (nb - b >= 4) ZEPH_DOTS_GROUP(4);
        while (nb - b >= 2) ZEPH_DOTS_GROUP(2);
        while (nb - b >= 1) ZEPH_DOTS_GROUP(1);
    }

    /* out[b * 8 + r] = squared norm of row b * 8 + r, summed in index order. */
    ZEPH_CLONES
    static void zeph_block_squares(const float *blocks, Py_ssize_t dim, Py_ssize_t nb, double *out) {
        Py_ssize_t b, i;
        int r;
        for (b = 0; b < nb; b++) {
            const float *p = blocks + b * dim * ZEPH_BLOCK;
            double acc[ZEPH_BLOCK] = {0.0};
            for (i = 0; i < dim; i++)
                for (r = 0; r < ZEPH_BLOCK; r++) {
                    double v = (double)p[i * ZEPH_BLOCK + r];
                    acc[r] += v * v;
                }
            for (r = 0; r < ZEPH_BLOCK; r++) out[b * ZEPH_BLOCK + r] = acc[r];
        }
    }
    """
    enum: ZEPH_BLOCK
    void zeph_block_dots(const float *blocks, const double *q, Py_ssize_t dim, Py_ssize_t nb, double *out) noexcept nogil
    void zeph_block_squares(const float *blocks, Py_ssize_t dim, Py_ssize_t nb, double *out) noexcept nogil


if _PY_BLOCK != ZEPH_BLOCK:
    raise ImportError("_topk_c was built for another block size than _topk_py; rebuild it")


cdef Py_ssize_t _check_matrix(object matrix, object dim) except -1:
    if not isinstance(matrix, bytes):
        raise TypeError(f"matrix must be bytes (row-major float32), not {type(matrix).__name__}")
    if not isinstance(dim, int):
        raise TypeError(f"dim must be an int, not {type(dim).__name__}")
    if dim <= 0:
        raise ValueError("dim must be > 0")
    if len(matrix) % (4 * dim):
        raise ValueError(f"matrix has {len(matrix)} bytes, not a multiple of 4 * dim = {4 * dim}")
    return len(matrix) // (4 * dim)


def prepare_matrix(matrix, dim):
    """Check a row-major float32 matrix and precompute what every query needs."""
    cdef Py_ssize_t n = _check_matrix(matrix, dim)
    cdef Py_ssize_t d = dim
    cdef Py_ssize_t n_blocks = (n + ZEPH_BLOCK - 1) // ZEPH_BLOCK
    cdef Py_ssize_t row, i, base
    cdef const float *values = <const float *> PyBytes_AS_STRING(matrix)
    cdef bytes blocks = PyBytes_FromStringAndSize(NULL, 4 * n_blocks * ZEPH_BLOCK * d)
    cdef bytes norms = PyBytes_FromStringAndSize(NULL, 8 * n)
    cdef float *out = <float *> PyBytes_AS_STRING(blocks)
    cdef double *norm = <double *> PyBytes_AS_STRING(norms)
    cdef double *squares = <double *> malloc(max(n_blocks, 1) * ZEPH_BLOCK * sizeof(double))
    if squares == NULL:
        raise MemoryError()
    try:
        with nogil:
            memset(out, 0, 4 * n_blocks * ZEPH_BLOCK * d)  # the padding rows of the last block
            for row in range(n):
                base = (row // ZEPH_BLOCK) * ZEPH_BLOCK * d + row % ZEPH_BLOCK
                for i in range(d):
                    out[base + i * ZEPH_BLOCK] = values[row * d + i]
            zeph_block_squares(out, d, n_blocks, squares)
        for row in range(n):
            # finite values cannot overflow a double sum of float32 squares, so this catches NaN and inf
            if not isfinite(squares[row]):
                raise ValueError("matrix must contain only finite values")
            norm[row] = sqrt(squares[row])
    finally:
        free(squares)
    return TopKMatrix(n, dim, norms, blocks)


cdef inline bint _better(double score_a, Py_ssize_t row_a, double score_b, Py_ssize_t row_b) noexcept nogil:
    """The order of the results: higher score first, then lower row."""
    return score_a > score_b or (score_a == score_b and row_a < row_b)


cdef void _sift_down(double *score, Py_ssize_t *rows, Py_ssize_t size, Py_ssize_t at) noexcept nogil:
    """Restore the heap below ``at``; the root is the worst kept result."""
    cdef Py_ssize_t child, worst
    cdef double s
    cdef Py_ssize_t r
    while True:
        worst = at
        child = 2 * at + 1
        if child < size and _better(score[worst], rows[worst], score[child], rows[child]):
            worst = child
        if child + 1 < size and _better(score[worst], rows[worst], score[child + 1], rows[child + 1]):
            worst = child + 1
        if worst == at:
            return
        s = score[at]; score[at] = score[worst]; score[worst] = s
        r = rows[at]; rows[at] = rows[worst]; rows[worst] = r
        at = worst


def topk_cosine(query, prepared, k):
    """Return the ``k`` rows most similar to ``query`` as ``(row, score)``, best first."""
    cdef carray.array values = _check_query(query, prepared, k)
    cdef Py_ssize_t n = prepared.n, dim = prepared.dim
    cdef Py_ssize_t keep = k if k < n else n
    cdef Py_ssize_t n_blocks = (n + ZEPH_BLOCK - 1) // ZEPH_BLOCK
    cdef const float *q32 = values.data.as_floats
    cdef bytes norms_bytes = prepared.norms
    cdef bytes blocks_bytes = prepared.blocks
    cdef const double *norms = <const double *> PyBytes_AS_STRING(norms_bytes)
    cdef const float *blocks = <const float *> PyBytes_AS_STRING(blocks_bytes)
    cdef double squared = 0.0, query_norm, score, s
    cdef Py_ssize_t i, row, size = 0, at, parent, r
    for i in range(dim):
        squared += <double> q32[i] * <double> q32[i]
    if not isfinite(squared):
        raise ValueError("query must contain only finite values")
    query_norm = sqrt(squared)
    if keep == 0:
        return []

    # one allocation: the query in double, every dot product, and the heap
    cdef char *memory = <char *> malloc((dim + n_blocks * ZEPH_BLOCK + keep) * sizeof(double) + keep * sizeof(Py_ssize_t))
    if memory == NULL:
        raise MemoryError()
    cdef double *q = <double *> memory
    cdef double *dots = q + dim
    cdef double *heap_score = dots + n_blocks * ZEPH_BLOCK
    cdef Py_ssize_t *heap_row = <Py_ssize_t *> (heap_score + keep)
    cdef list result
    try:
        with nogil:
            for i in range(dim):
                q[i] = q32[i]
            if query_norm != 0.0:
                zeph_block_dots(blocks, q, dim, n_blocks, dots)
            for row in range(n):
                if query_norm == 0.0 or norms[row] == 0.0:
                    score = 0.0
                else:
                    score = dots[row] / (query_norm * norms[row])
                if size < keep:
                    # sift up: rows arrive in index order, so a tie never beats a kept row
                    at = size
                    size += 1
                    while at > 0:
                        parent = (at - 1) // 2
                        if not _better(heap_score[parent], heap_row[parent], score, row):
                            break
                        heap_score[at] = heap_score[parent]
                        heap_row[at] = heap_row[parent]
                        at = parent
                    heap_score[at] = score
                    heap_row[at] = row
                elif _better(score, row, heap_score[0], heap_row[0]):
                    heap_score[0] = score
                    heap_row[0] = row
                    _sift_down(heap_score, heap_row, size, 0)
        # popping the worst first fills the result from the back
        result = [None] * size
        while size > 0:
            result[size - 1] = (heap_row[0], heap_score[0])
            size -= 1
            heap_score[0] = heap_score[size]
            heap_row[0] = heap_row[size]
            _sift_down(heap_score, heap_row, size, 0)
        return result
    finally:
        free(memory)
