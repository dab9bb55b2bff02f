"""The error of a noise model, skill preset or random draw that cannot be used."""


class NoiseError(ValueError):
    """A noise model or skill preset that cannot be used; the message names the key and the value."""
