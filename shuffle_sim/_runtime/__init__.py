"""Private plumbing: numba presets, import-on-use faces, helper processes, quick exit."""
