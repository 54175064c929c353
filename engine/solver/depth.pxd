# C types for depth.py in the compiled build (Cython's augmenting declarations), as
# board.pxd for board.py: the move choice a C type, its methods C functions. The search
# itself (``DepthFirst``) stays a Python class: its loop's locals are typed.

from engine.solver.board cimport Board
from engine.solver.home_order cimport HomeOrder
from engine.solver.pair_board cimport LastDeal
from engine.solver.table cimport Table

# The codes it imports (moves, piles' kinds, move ranks) and the deck's bits as C values,
# read as constants (board.pxd).
cdef Py_ssize_t DEAL, EXTRA, FOUNDATION_CODE, STRIDE, MAX_DEALS
cdef Py_ssize_t EMPTIES, FROM_RESERVE, MOVE_RANKS, NONE, OTHER, REVEALS, TO_CELL, TO_FOUNDATION
cdef unsigned long long ALL

cdef class Choice:
    cdef public bint safe, follow, narrow, dropped, turns_over, talon, can_narrow
    cdef public bint costless, reshuffles, plain_deals
    cdef public Py_ssize_t open_pass, deal_rank
    cdef public object rules
    cdef public bytes regroups, one_way, in_talon, group_of, twin_of, open_foundations, side
    cdef public bytes to_cell, columns
    cdef public bytearray empty, ranked, found
    cdef public object succ
    cdef public object talon_sources
    cdef public list laid_on, rows, ranks
    cdef public object kings, partners
    cdef public LastDeal last_deal
    cdef public HomeOrder home_order

    cpdef list choose(self, Board board, object legal, bint after_deal)
    cpdef list ordered(self, Board board, object legal, bint after_deal)
    cpdef Py_ssize_t linked(self, Board board, object legal)
    cpdef bint stuck(self, Board board)
    cpdef object after_deal(self, Board board)
    cdef unsigned long long takes(self, Board board, Py_ssize_t f)
    cdef unsigned long long waste_takes(self, Board board, Py_ssize_t waste)
    cpdef list talon_moves(self, Board board)
    cpdef list dealt_moves(self, Board board)
    cdef bint sort_in(self, object chosen, Py_ssize_t k, object out, object after)
    cpdef list safe_moves(self, Board board, object legal)
    cdef bint is_safe(self, Board board, Py_ssize_t src, Py_ssize_t dst,
                      unsigned long long founded)
    cpdef unsigned long long followers(self, unsigned long long home,
                                       unsigned long long takes)


cpdef bint circled(bytearray on, bytearray under, bytes succ)
cpdef Py_ssize_t talon_deals(Py_ssize_t m)
cpdef Py_ssize_t talon_move(Py_ssize_t m)
