"""The engine's exceptions: every one is a ValueError with a message a person can read."""


class EngineError(ValueError):
    """Base class of everything the engine rejects."""


class NotationError(EngineError):
    """Text that is not a card, a move or a position in the fixed notation."""


class IllegalMoveError(EngineError):
    """A well-formed move that the rules do not allow in this position."""


class UnknownVariantError(EngineError):
    """A variant name the engine does not know."""


class DealNumberError(EngineError):
    """A deal number outside 0 <= N < 2**64, or not an integer."""


def shorten(text: str, limit: int = 20) -> str:
    """Quote outside input for an error message without echoing a huge string back."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text)} characters)"
