"""Argument models → InvalidInput: the one way llmweb turns a pydantic error into advice."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from llmweb.errors import InvalidInput

Model = TypeVar("Model", bound=BaseModel)


def describe_validation_error(exc: ValidationError) -> str:
    """Every field that failed, with what was wrong, in one sentence."""
    problems = []
    for error in exc.errors():
        field = ".".join(str(part) for part in error["loc"]) or "arguments"
        message = str(error["msg"]).removeprefix("Value error, ")
        problems.append(f"{field}: {message}")
    return "Invalid arguments — " + "; ".join(problems) + "."


def validate_arguments(model: type[Model], arguments: Any, advice: str = "") -> Model:
    """``arguments`` (a mapping) as ``model``, or InvalidInput naming each field (plus ``advice``)."""
    try:
        return model.model_validate(arguments)
    except ValidationError as exc:
        raise InvalidInput(" ".join(filter(None, [describe_validation_error(exc), advice]))) from None
