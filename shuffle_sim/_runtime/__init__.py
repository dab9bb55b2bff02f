"""Private plumbing: numba presets and thread counts, import-on-use faces, helper processes, quick exit.

==================  =======================================================================
module              what it does
==================  =======================================================================
``jit``             the numba decorator presets of the whole package
``threads``         shares of a batch on several threads, numba's thread count
``lazy``            a package face that imports on first use
``helper_process``  when to start a helper process, and how
``compile_ahead``   part of a command's compile in a second process, by its recorded plan
``numba_types``     numba argument types as JSON data and back (the plans' signatures)
``compile_log``     which kernels a process compiled, and for how long (numba's events)
``compile_notice``  a command that compiles says so once, with the time it expects
``quick_exit``      leaving a finished command-line process at once
==================  =======================================================================
"""
