# C types for gap_board.py in the compiled build (Cython's augmenting declarations), as
# board.pxd for board.py: a gap board a C type extending the board, its listing in C.

from engine.solver.board cimport Board

# The codes it imports and its own, as C values read as constants (board.pxd).
cdef Py_ssize_t EXTRA, STRIDE, KEPT, NONE

cdef class GapBoard(Board):
    cdef public Py_ssize_t cells, columns, start, redeals
    cdef public bytes after, before, rank, seed
    cdef public bytearray where
    cdef public bint competitive
    cdef public object redeal
    cdef public list kept

    cpdef object move_of(self, Py_ssize_t m)
    cpdef list moves(self, bytes sources=*)
    cpdef bint useful(self, Py_ssize_t m)
    cpdef bint redeal_ahead(self)
    cdef bint won(self)
    cpdef void play(self, Py_ssize_t m)
    cpdef void undo(self)
    cpdef void unpack(self, bytes packed)
    cpdef Py_ssize_t way_back(self, Py_ssize_t m)
