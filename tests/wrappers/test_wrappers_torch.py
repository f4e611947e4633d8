"""NumpyToTorch and TorchToNumpy, single and vector: what crosses, with which types."""

from __future__ import annotations

import subprocess
import sys
from collections import namedtuple
from typing import Any

import numpy as np
import torch

import protogym
from protogym.vector.wrappers import NumpyToTorch as VectorNumpyToTorch
from protogym.vector.wrappers import TorchToNumpy as VectorTorchToNumpy
from protogym.wrappers import NumpyToTorch, TorchToNumpy
from protogym.wrappers.numpy_to_torch import numpy_to_torch, torch_to_numpy


def test_a_numpy_env_is_driven_with_tensors_and_gives_the_same_trajectory() -> None:
    plain = protogym.make("CartPole-v1")
    torched = NumpyToTorch(protogym.make("CartPole-v1"), device="cpu")
    a, _ = plain.reset(seed=2)
    b, info = torched.reset(seed=2)
    assert isinstance(b, torch.Tensor) and b.dtype == torch.float32 and isinstance(info, dict)
    np.testing.assert_array_equal(a, b.numpy())
    for step in range(20):
        action = step % 2
        ra = plain.step(action)
        rb = torched.step(torch.tensor(action))
        assert isinstance(rb[0], torch.Tensor)
        np.testing.assert_array_equal(ra[0], rb[0].numpy())
        assert type(rb[1]) is float and type(rb[2]) is bool and type(rb[3]) is bool
        assert rb[1:4] == (float(ra[1]), ra[2], ra[3])
        if ra[2]:
            break


def test_torch_to_numpy_undoes_numpy_to_torch_on_a_torch_env() -> None:
    env = TorchToNumpy(NumpyToTorch(protogym.make("Pendulum-v1")))
    obs, _ = env.reset(seed=0)
    assert isinstance(obs, np.ndarray) and obs.dtype == np.float32
    obs, reward, terminated, truncated, _ = env.step(np.array([0.5], dtype=np.float32))
    assert isinstance(obs, np.ndarray) and isinstance(reward, float)


def test_containers_convert_all_the_way_down() -> None:
    point = namedtuple("point", "x y")
    value = {"a": (np.arange(3), [np.float32(2.0), None]), "b": point(np.ones(2), 3)}
    tensors = numpy_to_torch(value)
    assert isinstance(tensors["a"][0], torch.Tensor) and tensors["a"][1][1] is None
    assert isinstance(tensors["b"], point) and isinstance(tensors["b"].y, torch.Tensor)
    back = torch_to_numpy(tensors)
    np.testing.assert_array_equal(back["a"][0], np.arange(3))
    assert isinstance(back["b"].x, np.ndarray)


def test_a_read_only_array_is_copied_not_shared() -> None:
    frozen = np.arange(4.0)
    frozen.flags.writeable = False
    tensor = numpy_to_torch(frozen)
    tensor[0] = 9.0
    assert frozen[0] == 0.0


def test_vector_wrappers_convert_rewards_flags_and_final_observations() -> None:
    vector = VectorNumpyToTorch(protogym.make_vec("CartPole-v1", 3))
    obs, _ = vector.reset(seed=1)
    assert isinstance(obs, torch.Tensor) and obs.shape == (3, 4)
    for _ in range(100):
        obs, rewards, terminated, truncated, infos = vector.step(torch.ones(3, dtype=torch.int64))
        assert isinstance(rewards, torch.Tensor) and terminated.dtype == torch.bool
        if bool(terminated.any()):
            index = int(torch.nonzero(terminated)[0])
            assert isinstance(infos["final_obs"][index], torch.Tensor)
            break
    else:
        raise AssertionError("no episode ended")
    back = VectorTorchToNumpy(vector)
    obs, _ = back.reset(seed=1)
    assert isinstance(obs, np.ndarray)
    obs, rewards, *_ = back.step(np.zeros(3, dtype=np.int64))
    assert isinstance(rewards, np.ndarray)


def test_wrappers_apply_by_name_through_make() -> None:
    env: Any = protogym.make("CartPole-v1", wrappers=[("NumpyToTorch", {"device": "cpu"})])
    obs, _ = env.reset(seed=0)
    assert isinstance(obs, torch.Tensor)


def test_importing_the_wrappers_needs_no_torch_and_a_missing_torch_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "import protogym.wrappers, protogym.vector.wrappers\n"
        "try:\n    protogym.wrappers.NumpyToTorch\n"
        "except ImportError as e:\n    print(e)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert 'pip install "protogym[torch]"' in result.stdout
