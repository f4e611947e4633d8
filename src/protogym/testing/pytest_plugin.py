"""protogym's pytest plugin (entry point group ``pytest11``): loaded in every pytest run where
protogym is installed, so it imports nothing and only adds the conformance suite's option."""

from __future__ import annotations

from typing import Any


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("protogym")
    group.addoption(
        "--protogym-max-steps",
        dest="protogym_max_steps",
        type=int,
        default=200,
        help="steps of each rollout in protogym.testing's conformance checks (default 200)",
    )
