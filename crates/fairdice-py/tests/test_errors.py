"""Errors are exceptions carrying the command line's kind, code, span, caret
rendering, hint and suggestion."""

from __future__ import annotations

import pytest
from conftest import run_cli

import fairdice
from fairdice import FairdiceError, InvalidInputError, ParseError, TooLargeError


def test_a_parse_error_points_at_the_fault():
    with pytest.raises(ParseError) as caught:
        fairdice.dist("4d6kh3y")
    error = caught.value
    assert isinstance(error, InvalidInputError) and isinstance(error, ValueError)
    assert error.code == "parse" and error.category == "invalid"
    assert error.span == (6, 7) and error.expression == "4d6kh3y"
    assert error.exit_status == 2
    assert error.rendered.startswith("4d6kh3y\n      ^ unexpected `y`")
    assert str(error) == error.full_text == error.rendered


def test_too_large_suggests_an_estimate_that_finishes():
    with pytest.raises(TooLargeError) as caught:
        fairdice.dist("1000000d1000000kh500000")
    error = caught.value
    assert error.code == "too_big" and error.exit_status == 3
    assert error.suggestion is not None
    assert error.suggestion.use_case == "dist"
    assert error.suggestion.command == "fairdice dist 1000000d1000000kh500000 --runs 20"
    assert error.suggestion.request["runs"] == 20
    assert "hint: estimate it instead" in str(error)
    # The suggestion is a request that runs.
    estimate = fairdice.run(error.suggestion.use_case, {**error.suggestion.request, "runs": 2})
    assert estimate["method"] == "monte_carlo"


def test_a_smaller_budget_refuses_what_the_default_allows():
    assert fairdice.dist("100d10kh10").total == 10**100
    with pytest.raises(TooLargeError) as caught:
        fairdice.dist("100d10kh10", max_steps=1000)
    assert caught.value.suggestion.command == "fairdice dist 100d10kh10 --runs 200000"


def test_errors_are_the_command_lines(cli):
    for expression in ["4d6kh3y", "d0", "2d6r<7", "(((d6)"]:
        with pytest.raises(FairdiceError) as caught:
            fairdice.dist(expression)
        import subprocess

        done = subprocess.run([str(cli), "dist", expression], capture_output=True, text=True)
        assert done.returncode == caught.value.exit_status, expression
        # The command line prints the rendering after `error: `, its later lines
        # indented by that prefix so the caret stays under the fault; then the hints.
        error = caught.value
        prefix = "error: "
        rendered = error.rendered.replace("\n", "\n" + " " * len(prefix)) if error.expression else error.rendered
        assert done.stderr.strip() == prefix + rendered + error.full_text[len(error.rendered) :], expression


def test_library_errors_keep_their_kind():
    with pytest.raises(InvalidInputError, match="division by zero"):
        fairdice.d(6) // (fairdice.d(3) - 2)
    with pytest.raises(InvalidInputError):
        fairdice.dist("3d6", runs=0)
    with pytest.raises(InvalidInputError, match="unknown use case `nope`"):
        fairdice.run("nope", {})
    with pytest.raises(InvalidInputError, match="not a dist request"):
        fairdice.run("dist", {"expr": "3d6"})
    with pytest.raises(InvalidInputError):
        fairdice.Randomizer("deck(values=0)")


def test_the_error_document_is_the_web_apis():
    with pytest.raises(ParseError) as caught:
        fairdice.dist("3d6+")
    document = caught.value.to_dict()
    assert document["kind"] == "parse" and document["category"] == "invalid"
    assert set(document) == {"kind", "category", "message", "rendered", "span", "expression", "hint", "suggestion"}
    assert document["span"]["start"] == 4


def test_wrong_python_types_are_type_errors():
    with pytest.raises(TypeError):
        fairdice.dist(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        fairdice.d(6) + "d6"  # type: ignore[operator]
    with pytest.raises(OverflowError):
        fairdice.dist("3d6", seed=-1)
