"""fairdice's errors as Python exceptions.

Every failure of a request is one :class:`FairdiceError`, carrying the same fields
as the command line's message and the web API's error document: the stable
``code`` (``parse``, ``invalid``, ``invalid_input``, ``bad_request``, ``too_big``,
``cancelled``, ``internal``…), the ``category`` that picks the subclass and the
exit status, the ``span`` of the expression at fault, the ``rendered`` text with
its caret line, a ``hint`` and, for a request too large to compute exactly, a
``suggestion``: the same request as a Monte Carlo estimate sized to finish.

``str(error)`` is what the command line prints after ``error:``::

    >>> import fairdice
    >>> try:
    ...     fairdice.dist("4d6kh3y")
    ... except fairdice.ParseError as e:
    ...     print(e.span, e.exit_status)
    (6, 7) 2
"""

from __future__ import annotations

import json
from typing import Any

__all__ = [
    "FairdiceError",
    "InvalidInputError",
    "ParseError",
    "TooLargeError",
    "CancelledError",
    "InternalError",
    "Suggestion",
]


class Suggestion:
    """A request that answers instead of one too large: a Monte Carlo estimate.

    (A plain class rather than a dataclass: ``dataclasses`` would add milliseconds
    to ``import fairdice``.)
    """

    __slots__ = ("use_case", "request", "command")

    use_case: str
    """The use case's name, e.g. ``"dist"``."""
    request: dict[str, Any]
    """The request's JSON document, e.g. ``{"expression": "1000d1000", "runs": 20000}``."""
    command: str
    """The same request as a ``fairdice`` command line."""

    def __init__(self, use_case: str, request: dict[str, Any], command: str) -> None:
        self.use_case = use_case
        self.request = request
        self.command = command

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Suggestion):
            return NotImplemented
        return (self.use_case, self.request, self.command) == (other.use_case, other.request, other.command)

    def __repr__(self) -> str:
        return f"Suggestion(use_case={self.use_case!r}, request={self.request!r}, command={self.command!r})"


class FairdiceError(Exception):
    """A request fairdice could not answer.

    Attributes mirror the web API's error document and the command line's
    message; subclasses tell the category apart.
    """

    category: str
    """``invalid``, ``too_large``, ``cancelled`` or ``internal``."""
    code: str
    """The stable, finer name: ``parse``, ``invalid``, ``too_big``…"""
    message: str
    """The message, without the caret rendering."""
    rendered: str
    """The message as the command line prints it, with a caret line under the span."""
    span: tuple[int, int] | None
    """The byte range ``(start, end)`` of the expression at fault."""
    expression: str | None
    """The expression (pool, spec) the span points into."""
    hint: str | None
    """Advice in words."""
    suggestion: Suggestion | None
    """A request that finishes instead (a Monte Carlo estimate)."""
    exit_status: int
    """The command line's exit status: 2 invalid, 3 too large, 130 cancelled, 1 internal."""
    full_text: str
    """Everything the command line prints after ``error:``."""

    def __init__(
        self,
        message: str,
        *,
        category: str,
        code: str,
        rendered: str | None = None,
        span: tuple[int, int] | None = None,
        expression: str | None = None,
        hint: str | None = None,
        suggestion: Suggestion | None = None,
        exit_status: int = 1,
        full_text: str | None = None,
    ) -> None:
        super().__init__(message)
        self.category = category
        self.code = code
        self.message = message
        self.rendered = rendered if rendered is not None else message
        self.span = span
        self.expression = expression
        self.hint = hint
        self.suggestion = suggestion
        self.exit_status = exit_status
        self.full_text = full_text if full_text is not None else self.rendered

    def __str__(self) -> str:
        return self.full_text

    def to_dict(self) -> dict[str, Any]:
        """The web API's error document."""
        return {
            "kind": self.code,
            "category": self.category,
            "message": self.message,
            "rendered": self.rendered,
            "span": None if self.span is None else {"start": self.span[0], "end": self.span[1]},
            "expression": self.expression,
            "hint": self.hint,
            "suggestion": None
            if self.suggestion is None
            else {
                "use_case": self.suggestion.use_case,
                "request": self.suggestion.request,
                "command": self.suggestion.command,
            },
        }

    @classmethod
    def _from_native(cls, document: str, full_text: str, exit_status: int) -> FairdiceError:
        """Builds the exception of an error document (called by the extension)."""
        fields = json.loads(document)
        span = fields.get("span")
        suggestion = fields.get("suggestion")
        category = fields.get("category", "internal")
        code = fields.get("kind", "internal")
        return _class_of(category, code)(
            fields.get("message", ""),
            category=category,
            code=code,
            rendered=fields.get("rendered"),
            span=None if span is None else (span["start"], span["end"]),
            expression=fields.get("expression"),
            hint=fields.get("hint"),
            suggestion=None if suggestion is None else Suggestion(**suggestion),
            exit_status=exit_status,
            full_text=full_text,
        )


class InvalidInputError(FairdiceError, ValueError):
    """The input is wrong: it does not parse, or it means nothing (``d0``)."""


class ParseError(InvalidInputError):
    """A dice expression that does not parse; ``span`` points at the fault."""


class TooLargeError(FairdiceError):
    """Too large to compute exactly within the budget; see ``suggestion``."""


class CancelledError(FairdiceError):
    """The computation was cancelled."""


class InternalError(FairdiceError):
    """A fault of fairdice itself (please report it)."""


def _class_of(category: str, code: str) -> type[FairdiceError]:
    if code == "parse":
        return ParseError
    return {
        "invalid": InvalidInputError,
        "too_large": TooLargeError,
        "cancelled": CancelledError,
    }.get(category, InternalError)
