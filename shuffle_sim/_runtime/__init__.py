"""Private plumbing: numba presets and thread counts, import-on-use faces, helper processes, quick exit.

``jit``
    the numba decorator presets of the whole package
``lazy``
    a package face that imports each name's module on first use
``threads``
    shares of a batch on several threads, and numba's thread count
``helper_process``
    helper processes (the plot helper, the compile helper): when to start one, and how
``compile_ahead``
    part of a kernel's first compile done in a second process
``quick_exit``
    leaving a finished command-line process at once
"""
