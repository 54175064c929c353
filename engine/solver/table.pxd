# C types for table.py in the compiled build (Cython's augmenting declarations): the
# fingerprints' constants and slots as C integers, the table a C type.

cdef unsigned long long MASK64, M1, M2, S1, S2, F1, F2
cdef unsigned long long mix(unsigned long long h)

cdef class Table:
    cdef public Py_ssize_t bits, count, mask, most
    cdef public bytearray slots

    cpdef bint add(self, bytearray buf, Py_ssize_t n)
    cdef bint put(self, unsigned long long h1, unsigned long long h2)
    cdef void grow(self)
    cdef void make(self, Py_ssize_t bits)
