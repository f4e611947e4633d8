"""Typing of functional envs outside mypy's corpus run: what `protogym stubs` reads from the
adapters' generic bases, and pyright on the `functional_typing` snippet.

mypy checks the same snippet in `test_mypy_plugin_corpus.py` (its `# N:`/`# E:` lines)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from protogym.cli import stubs
from protogym.functional.numpy_env import FunctionalNumpyEnv, FunctionalNumpyVectorEnv
from tests.mypy.test_mypy_plugin_corpus import SNIPPETS, expected_reports
from tests.mypy.test_mypy_stubs_cli import _as_pyright_shows, _run_pyright, run_cli


class Line(FunctionalNumpyEnv[NDArray[np.float32], np.int64]):
    pass


class Lines(FunctionalNumpyVectorEnv[NDArray[np.float32], np.int64, NDArray[np.float32], Any]):
    pass


class PlainLines(FunctionalNumpyVectorEnv[NDArray[np.float32], np.int64]):
    pass


def test_stub_types_follow_the_type_arguments_through_generic_bases() -> None:
    """`Line`'s arguments reach `Env[O, A]` through `FunctionalEnvBase[O, A]`; a vector
    adapter's batched ones through `VectorEnvBase[BatchO, BatchA, ...]`, `Any` when unnamed."""
    assert stubs.env_types_of(Line) == (NDArray[np.float32], np.int64)
    assert stubs.env_types_of(Lines) == (NDArray[np.float32], Any)
    assert stubs.env_types_of(PlainLines) == (Any, Any)
    assert stubs.env_types_of(FunctionalNumpyEnv) == (Any, Any)


class Hidden:
    """Stands for jax's `Array`, whose qualified name is `jaxlib._jax.Array` in module `jax`."""


Hidden.__qualname__ = "_impl.Hidden"


def test_stub_writer_uses_the_public_name_of_a_class_renamed_in_its_module() -> None:
    writer = stubs.TypeWriter()
    assert writer.write(Hidden) == f"{__name__}.Hidden"
    assert writer.write(FunctionalNumpyEnv) == (
        "protogym.functional.numpy_env.FunctionalNumpyEnv"
    )


@pytest.mark.jax
def test_stub_batches_jax_arrays_into_numpy_arrays() -> None:
    """A SyncVectorEnv of jax envs concatenates their observations into one numpy array."""
    import jax

    assert stubs.batched(jax.Array) == np.ndarray[tuple[Any, ...], np.dtype[Any]]
    assert stubs.batched(tuple[jax.Array, int]) == tuple[
        np.ndarray[tuple[Any, ...], np.dtype[Any]], np.ndarray[tuple[Any, ...], np.dtype[np.int64]]
    ]


@pytest.fixture(scope="module")
def stubs_of_registry(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("stubs")
    assert run_cli(["stubs", "--output", str(folder / "typings")]) == 0
    return folder / "typings"


@pytest.mark.slow
@pytest.mark.jax  # writing the stubs imports the functional envs, and so jax
def test_pyright_infers_what_mypy_infers_for_functional_envs(
    tmp_path: Path, stubs_of_registry: Path
) -> None:
    """pyright, with the stubs, reveals the snippet's types as the plugin does (the FuncEnv's
    seven parameters through the pure functions, wrappers and adapters, and the phys2d ids
    through make and make_vec) and reports an error exactly on its `# E:` lines."""
    source = (SNIPPETS / "functional_typing.py.txt").read_text()
    expected = expected_reports(source)
    reported = _run_pyright(tmp_path, stubs_of_registry, source)
    assert sorted(line for line, severity, _ in reported if severity == "error") == sorted(
        line for line, kind, _ in expected if kind == "E"
    )
    revealed = {
        line: message.rpartition(' is "')[2].removesuffix('"')
        for line, severity, message in reported
        if severity == "information" and message.startswith("Type of ")
    }
    assert revealed == {
        line: _as_pyright_shows(message.removeprefix('Revealed type is "').removesuffix('"'))
        for line, kind, message in expected
        if kind == "N"
    }
