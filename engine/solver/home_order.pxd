# C types for home_order.py in the compiled build (Cython's augmenting declarations), as
# board.pxd for board.py: the walk that looks for a circle in C.

from engine.solver.board cimport Board

cdef class HomeOrder:
    cdef public bytes columns, builds, following, rank
    cdef public bytearray after, marks, stack

    cpdef bint hopeless(self, Board board)
