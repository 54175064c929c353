# C types for bestfirst.py in the compiled build (Cython's augmenting declarations), as
# board.pxd for board.py: the promise a C type, its score a C function.

from engine.solver.board cimport Board

cdef class Promise:
    cdef public bytes founds, blocking
    cdef public bint needs, wraps

    cpdef Py_ssize_t score(self, Board board)
