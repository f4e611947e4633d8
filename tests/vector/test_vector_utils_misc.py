"""`CloudpickleWrapper` and `clear_mpi_env_vars` (Gymnasium's `vector.utils` process helpers)."""

from __future__ import annotations

import os
import pickle

import pytest

from protogym.vector.utils import CloudpickleWrapper, clear_mpi_env_vars


def test_cloudpickle_wrapper_carries_a_lambda_through_pickle() -> None:
    offset = 3
    wrapped = CloudpickleWrapper(lambda: offset + 4)
    assert wrapped() == 7
    restored = pickle.loads(pickle.dumps(wrapped))
    assert restored() == 7
    assert "CloudpickleWrapper(" in repr(wrapped)
    with pytest.raises(TypeError, match="wraps a callable"):
        CloudpickleWrapper(3)  # type: ignore[arg-type]


def test_clear_mpi_env_vars_hides_them_for_the_block_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OMPI_COMM_WORLD_SIZE", "4")
    monkeypatch.setenv("PMI_SIZE", "4")
    monkeypatch.setenv("PROTOGYM_KEEP", "1")
    with clear_mpi_env_vars():
        assert "OMPI_COMM_WORLD_SIZE" not in os.environ and "PMI_SIZE" not in os.environ
        assert os.environ["PROTOGYM_KEEP"] == "1"
    assert os.environ["OMPI_COMM_WORLD_SIZE"] == "4" and os.environ["PMI_SIZE"] == "4"
