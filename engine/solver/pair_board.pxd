# C types for pair_board.py in the compiled build (Cython's augmenting declarations), as
# board.pxd for board.py: a pair board and a beaten board C types extending the board, their
# listings in C.

from engine.solver.board cimport Board

# The codes it imports and its own, as C values read as constants (board.pxd).
cdef Py_ssize_t ANY_CODE, BASE_CODE, DEAL, EXTRA, KING_CODE, STRIDE, TO_TABLEAU, NONE
cdef bytes RANKS, HIGH

cdef class PairBoard(Board):
    cdef public Py_ssize_t total, foundation
    cdef public bint shift
    cdef public bytes removable, over1, over2, rank
    cdef public bytearray free
    cdef public dict decoded

    cpdef object move_of(self, Py_ssize_t m)
    cpdef list moves(self, bytes sources=*)
    cpdef bint useful(self, Py_ssize_t m)
    cpdef bint costless(self, Py_ssize_t m)
    cpdef void play(self, Py_ssize_t m)
    cdef void deal(self)
    cpdef Py_ssize_t way_back(self, Py_ssize_t m)


cdef class Partners:
    cdef public Py_ssize_t total, count, foundation, stack
    cdef public bytes related, on_table, of_rank, rank
    cdef public bytearray where, piles, adj

    cpdef bint hopeless(self, Board board)
    cdef bint buried(self, Board board)
    cdef bint unmatched(self, Py_ssize_t r)


cdef class BeatenBoard(Board):
    cdef public Py_ssize_t foundation
    cdef public bytes beaten, high, suit

    cdef bint beats(self, Py_ssize_t src, Py_ssize_t card)
    cpdef list moves(self, bytes sources=*)
    cpdef bint costless(self, Py_ssize_t m)
    cdef bint won(self)


cdef class LastDeal:
    cdef public Py_ssize_t stock, piles
    cdef public bytes others, capacity, high, suit

    cpdef bint hopeless(self, Board board)
    cdef bint dead(self, unsigned char *cards, Py_ssize_t base)
