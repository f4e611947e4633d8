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


def pytest_collection_finish(session: pytest.Session) -> None:
    """Puts multiprocessing's default start method back after collection.

    Importing torchrl (tests/interop/test_interop_torchrl.py) makes "spawn" the start method of
    the whole process, and a spawned worker cannot import a test module by the name pytest's
    importlib mode gave it: AsyncVectorEnv tests over env functions defined in test modules
    then failed in whichever xdist worker had collected torchrl.
    """
    import multiprocessing

    if multiprocessing.get_start_method(allow_none=True) is not None:
        multiprocessing.set_start_method(None, force=True)
