# C types for steps.py in the compiled build (Cython's augmenting declarations): the step
# search's position a C type, its key and table C integers, its methods C functions. The
# Python source runs without this file, unchanged (docs/solver.md "Compiled").

cdef Py_ssize_t HOME, TURN, DRAW_HOME, DRAW_PLACE, REDEAL, NONE, DEPTH, WIDTH, CLOCK
cdef unsigned long long MASK64

cdef class Steps:
    cdef public object plan, progress
    cdef public Py_ssize_t ncols, nlocked, nkings, done, hidden_bits, ndeck, dlen, cur, draw
    cdef public Py_ssize_t deck_shift, off_shift, count, depth, positions
    cdef public unsigned long long vis, lock, home, dmask, hidden_key, size
    cdef public bint cycling, flag, follow, fits
    cdef const unsigned char[::1] tid, ptid, ktid, kings, suits
    cdef unsigned char[::1] nvis, nocc, seq, k, colof, heights, deck, orig, places
    cdef unsigned long long[::1] kids, weight, table
    cdef int[::1] steps, nsteps, next, played, undo1

    cpdef Py_ssize_t card_at(self, Py_ssize_t j)

    cdef void show(self, Py_ssize_t c, bint locked) noexcept
    cdef void hide(self, Py_ssize_t c) noexcept
    cdef void unlock(self, Py_ssize_t c) noexcept
    cdef void relock(self, Py_ssize_t c) noexcept
    cdef bint room(self, Py_ssize_t c) noexcept
    cdef bint free(self, Py_ssize_t c) noexcept
    cdef Py_ssize_t turn(self, Py_ssize_t i) noexcept
    cdef void unturn(self, Py_ssize_t i, Py_ssize_t old) noexcept
    cdef Py_ssize_t take(self, Py_ssize_t j) noexcept
    cdef void untake(self, Py_ssize_t j, Py_ssize_t old) noexcept
    cdef Py_ssize_t reachable(self) noexcept
    cdef unsigned long long offset(self) noexcept
    cdef unsigned long long key(self) noexcept
    cdef int add(self, unsigned long long key) except -1
    cdef int grow(self) except -1
    cdef bint safe(self, Py_ssize_t c) noexcept
    cdef Py_ssize_t next_home(self, Py_ssize_t s) noexcept
    cdef Py_ssize_t generate(self, Py_ssize_t d) noexcept
    cdef bint redeal_ok(self) noexcept
    cdef Py_ssize_t prune(self, Py_ssize_t d, Py_ssize_t n) noexcept
    cdef bint spoils(self, Py_ssize_t bk, Py_ssize_t bc, Py_ssize_t ak, Py_ssize_t ac) noexcept
    cdef void play(self, Py_ssize_t d, Py_ssize_t step) noexcept
    cdef void unplay(self, Py_ssize_t d) noexcept
    cpdef Py_ssize_t run(self, Py_ssize_t cap, double deadline)
