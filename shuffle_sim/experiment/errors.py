"""The error of an experiment that cannot be run, in a module of its own: the results folder and the
plots raise it without importing the experiment file's parser (and, through it, numba)."""


class ExperimentError(ValueError):
    """An experiment file that cannot be run; the message names the file, the key and the value."""
