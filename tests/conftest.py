"""Test-wide settings: rendering never needs a display, and tests that start jax's threads
run after every test that forks."""

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Moves the tests marked `jax` to the end of the run.

    Once jax's backend has started its threads, an `os.fork()` in the same process (an
    AsyncVectorEnv's workers, for one) can deadlock. pytest-xdist hands tests to its workers
    in this order, so a worker that has run a jax test is only given jax tests afterwards.
    """
    items.sort(key=lambda item: item.get_closest_marker("jax") is not None)
