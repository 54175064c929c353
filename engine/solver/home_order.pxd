# C types for home_order.py in the compiled build (Cython's augmenting declarations), as
# board.pxd for board.py: the walk that looks for a circle in C.

from engine.solver.board cimport Board

# The codes it imports and its own, as C values read as constants (board.pxd).
cdef Py_ssize_t STRIDE, NONE, PARENTS

cdef class HomeOrder:
    cdef public bytes columns, build, parents, foundations, following, rank
    cdef public bint whole
    cdef public bytearray after, marks, stack, home

    cdef bint stays(self, Py_ssize_t over, Py_ssize_t under)
    cpdef bint hopeless(self, Board board)
