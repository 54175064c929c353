# C types for bestfirst.py in the compiled build (Cython's augmenting declarations), as
# board.pxd for board.py: the promise a C type, its score a C function.

from engine.solver.board cimport Board

# The codes it imports and its own, as C values read as constants (board.pxd).
cdef Py_ssize_t DEAL, STRIDE, BURIED
cdef bytes RANKS, SUITS

cdef class Promise:
    cdef public bytes founds, blocking, after
    cdef public bint needs, wraps
    cdef public Py_ssize_t cells, columns, start

    cpdef Py_ssize_t placed(self, Board board)
    cpdef Py_ssize_t score(self, Board board)
