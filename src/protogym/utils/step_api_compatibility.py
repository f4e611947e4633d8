"""Gymnasium's path for the step-API converters; they live in `protogym.compat`."""

from __future__ import annotations

from typing import Any, SupportsFloat

from protogym.compat import (
    convert_to_done_step_api,
    convert_to_terminated_truncated_step_api,
    step_api_compatibility,
)

__all__ = [
    "DoneStepType",
    "TerminatedTruncatedStepType",
    "convert_to_done_step_api",
    "convert_to_terminated_truncated_step_api",
    "step_api_compatibility",
]

DoneStepType = tuple[Any, SupportsFloat | Any, Any, dict[str, Any] | list[dict[str, Any]]]
"""`(obs, reward, done, info)`; for a vector env the flags and rewards are arrays and the
info a dict of arrays or a list of per-env dicts."""

TerminatedTruncatedStepType = tuple[
    Any, SupportsFloat | Any, Any, Any, dict[str, Any] | list[dict[str, Any]]
]
"""`(obs, reward, terminated, truncated, info)`, single or vector as `DoneStepType`."""
