"""The project's exceptions: every error a caller can meet is one of these."""


class AzulError(Exception):
    """Base class of every error raised by the project."""


class IllegalMoveError(AzulError, ValueError):
    """An action that is not legal in this position, or a move string that cannot be read."""


class PositionError(AzulError, ValueError):
    """A position document that is malformed or describes an impossible position."""


class OptionError(AzulError, ValueError):
    """An unknown game, an unknown option or an option with a bad value."""


class RecordError(AzulError, ValueError):
    """A game record that cannot be read or does not replay."""
