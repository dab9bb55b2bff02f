"""Private plumbing: numba presets and thread counts, import-on-use faces, helper processes, quick exit."""
