"""The error of an unusable court file or court parameter."""


class CourtError(ValueError):
    """A court file that cannot be used; the message names the file, the key and the value."""
