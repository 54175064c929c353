# C types for board.py in the compiled build (Cython's augmenting declarations): the board
# and its layout become C types, and the methods below C functions. The Python source runs
# without this file, unchanged (docs/solver.md "Compiled").

# The codes and sizes (moves, piles' kinds, units and fills, the journal's entries) as C
# values, so that the functions below read them as constants, not look them up by name.
cdef Py_ssize_t DEAL, EXTRA, STRIDE, TABLE, SEP
cdef Py_ssize_t FOUNDATION_CODE, STOCK_CODE, WASTE_CODE
cdef Py_ssize_t TOP_CODE, TAIL_CODE, WHOLE_CODE, FACEUP_CODE, PACKED_CODE
cdef Py_ssize_t ANY_CODE, NONE_CODE, KING_CODE, BASE_CODE, BELOW_BASE_CODE
cdef Py_ssize_t TO_NONE, TO_WASTE, TO_TABLEAU, TO_FOUNDATION
cdef Py_ssize_t CARDS, DOWN, VAR, REVERSE, HIDE
cdef Py_ssize_t FOUNDATIONS_GOAL, CLEAR_GOAL, RUNS_GOAL
cdef bytes RANKS, SUITS, UNDER

cdef class Layout:
    cdef public Py_ssize_t count, stock_pile, deals, draw, passes, goal, collect_to, collects
    cdef public Py_ssize_t keep
    cdef public bint endless, asks, plain, discard, brings
    cdef public tuple names
    cdef public object rules
    cdef public dict decoded
    cdef public bytes kind, unit, fill, capacity, limit, turning, build, tables, sources
    cdef public bytes foundations, wastes, tableau, rest, cleared, alone, sunk, dealt
    cdef public bytes fill_from, refiller, refilled, room, cells, canon
    cdef public list targets, lone, groups, sunk_groups, spaces


cdef class Board:
    cdef public Layout layout
    cdef public bytearray cards, size, down, order, keybuf, journal
    cdef public bytes has
    cdef public list vars, marks
    cdef public Py_ssize_t used
    cdef public bint ask

    cpdef bytes pack(self)
    cpdef void unpack(self, bytes packed)
    cpdef tuple legal(self)
    cdef bint won(self)
    cdef str asked(self, object moves)
    cpdef list moves(self, bytes sources=*)
    cdef Py_ssize_t run(self, Py_ssize_t p)
    cdef void collect(self)
    cdef Py_ssize_t carried(self, Py_ssize_t src, Py_ssize_t dst)
    cpdef bint can_deal(self)
    cpdef bint useful(self, Py_ssize_t m)
    cdef void entry(self, Py_ssize_t tag, Py_ssize_t a, Py_ssize_t b=*, Py_ssize_t c=*,
                    Py_ssize_t d=*, Py_ssize_t e=*, Py_ssize_t f=*)
    cdef void move_cards(self, Py_ssize_t src, Py_ssize_t dst, Py_ssize_t n,
                         Py_ssize_t flags=*)
    cdef void set_down(self, Py_ssize_t p, Py_ssize_t value)
    cdef void set_var(self, Py_ssize_t i, Py_ssize_t value)
    cpdef void play(self, Py_ssize_t m)
    cdef void turn_tops(self)
    cdef void deal(self)
    cpdef void bring(self, Py_ssize_t k)
    cdef void deal_round(self, bytes piles, Py_ssize_t keep)
    cpdef void undo(self)
    cpdef object key(self)
    cpdef object dealt_key(self)
    cdef Py_ssize_t write_key(self)
    cdef Py_ssize_t write_dealt_key(self)
    cpdef object move_of(self, Py_ssize_t m)
    cpdef Py_ssize_t score(self)
    cpdef bint costless(self, Py_ssize_t m)
    cpdef bint redeal_ahead(self)
    cpdef void ready(self)
    cpdef bytes exact(self, bint uncounted)
    cpdef bint is_won(self)
    cpdef Py_ssize_t way_back(self, Py_ssize_t m)
    cdef void sort_piles(self, Py_ssize_t start, Py_ssize_t end)
    cdef Py_ssize_t sink(self, Py_ssize_t p, Py_ssize_t n)
