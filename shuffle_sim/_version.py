"""The package version, in one place (the package face, the command line and result files read it)."""

__version__ = "0.1.0"
