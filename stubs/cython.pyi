# Cython's pure-Python mode, as far as the engine uses it (engine/rules.py): to the type
# checker its C types are the Python types they hold.
Py_ssize_t = int
bint = bool
