"""The jax wrappers (JaxToNumpy, NumpyToJax, JaxToTorch, TorchToJax, ArrayConversion), single
and vector, over small jax envs defined here: what crosses, with which types and devices."""

from __future__ import annotations

import subprocess
import sys
from collections import OrderedDict, namedtuple
from collections.abc import Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import pytest
import torch

import protogym
from protogym.spaces import Box
from protogym.spaces.space import Space
from protogym.vector import VectorEnvBase
from protogym.vector import wrappers as vector_wrappers
from protogym.vector.vector_env import AutoresetMode, SameStep
from protogym.wrappers import (
    ArrayConversion,
    JaxToNumpy,
    JaxToTorch,
    NumpyToJax,
    NumpyToTorch,
    TorchToJax,
    array_conversion,
)
from protogym.wrappers.array_conversion import convert
from protogym.wrappers.jax_to_numpy import jax_to_numpy, numpy_to_jax
from protogym.wrappers.jax_to_torch import jax_to_torch, torch_to_jax

pytestmark = pytest.mark.jax


def cpu() -> Any:
    """jax's CPU device. Asked for only inside tests: starting jax's backend installs its
    warning on every later os.fork(), which collecting this module should not do."""
    return jax.devices("cpu")[0]


class Trace(NamedTuple):
    x: Any
    y: Any


class JaxWalk(protogym.Env[jax.Array, jax.Array]):
    """A point on the plane moved by a 2-d action; everything it returns is a jax array.

    It records the types of the actions and reset options it receives, and refuses anything
    that is not a jax array, as a jax env would (jnp ops on tensors fail).
    """

    # numpy spaces describe the arrays' shapes and bounds; the env itself speaks jax
    action_space: Space[Any]
    observation_space: Space[Any]
    metadata: dict[str, Any]
    render_mode: str | None

    def __init__(self, limit: float = 2.0, max_steps: int = 10) -> None:
        self.metadata = {"render_modes": ["rgb_array"], "render_fps": 4}
        self.render_mode = "rgb_array"
        self.action_space = Box(-1.0, 1.0, shape=(2,), dtype=np.float32)
        self.observation_space = Box(-10.0, 10.0, shape=(2,), dtype=np.float32)
        self.limit, self.max_steps = limit, max_steps
        self.position = jnp.zeros(2, dtype=jnp.float32)
        self.t = 0
        self.received: list[type] = []

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[jax.Array, dict[str, Any]]:
        super().reset(seed=seed)
        start = (options or {}).get("start", jnp.zeros(2, dtype=jnp.float32))
        self.received.append(type(start))
        if not isinstance(start, jax.Array):
            raise TypeError(f"JaxWalk takes jax arrays, got {type(start).__name__}")
        self.position, self.t = start, 0
        return self.position, {"t": jnp.asarray(0), "nested": ({"p": start}, [start * 2])}

    def step(self, action: jax.Array) -> tuple[jax.Array, Any, Any, Any, dict[str, Any]]:
        self.received.append(type(action))
        if not isinstance(action, jax.Array):
            raise TypeError(f"JaxWalk takes jax arrays, got {type(action).__name__}")
        self.position = self.position + action
        self.t += 1
        reward = -jnp.abs(self.position).sum()
        terminated = jnp.any(jnp.abs(self.position) > self.limit)
        truncated = jnp.asarray(self.t >= self.max_steps)
        info = {"trace": Trace(self.position[0], self.position[1]), "label": "walk"}
        return self.position, reward, terminated, truncated, info

    def render(self) -> jax.Array:
        return jnp.full((4, 4, 3), self.t, dtype=jnp.uint8)


class JaxWalkVector(VectorEnvBase[jax.Array, jax.Array, SameStep]):
    """`num_envs` JaxWalks in one batch, same-step autoreset: an ended walk restarts at the
    origin and its last position is in ``info["final_observation"]`` (an object array)."""

    single_observation_space: Space[Any]
    single_action_space: Space[Any]
    observation_space: Space[Any]
    action_space: Space[Any]
    autoreset_mode: SameStep

    def __init__(self, num_envs: int, limit: float = 2.0) -> None:
        self.num_envs = num_envs
        self.limit = limit
        self.single_observation_space = Box(-10.0, 10.0, shape=(2,), dtype=np.float32)
        self.single_action_space = Box(-1.0, 1.0, shape=(2,), dtype=np.float32)
        self.observation_space = Box(-10.0, 10.0, shape=(num_envs, 2), dtype=np.float32)
        self.action_space = Box(-1.0, 1.0, shape=(num_envs, 2), dtype=np.float32)
        self.autoreset_mode = AutoresetMode.SAME_STEP
        self.positions = jnp.zeros((num_envs, 2), dtype=jnp.float32)
        self.received: list[type] = []

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[jax.Array, dict[str, Any]]:
        start = (options or {}).get("start", jnp.zeros(2, dtype=jnp.float32))
        self.received.append(type(start))
        self.positions = jnp.tile(start, (self.num_envs, 1))
        return self.positions, {}

    def step(self, actions: jax.Array) -> tuple[jax.Array, Any, Any, Any, dict[str, Any]]:
        self.received.append(type(actions))
        moved = self.positions + actions
        rewards = -jnp.abs(moved).sum(axis=1)
        terminated = jnp.any(jnp.abs(moved) > self.limit, axis=1)
        truncated = jnp.zeros(self.num_envs, dtype=bool)
        info: dict[str, Any] = {}
        if bool(terminated.any()):
            final = np.empty(self.num_envs, dtype=object)
            for index in range(self.num_envs):
                final[index] = moved[index] if bool(terminated[index]) else None
            info = {"final_observation": final, "_final_observation": terminated}
        self.positions = jnp.where(terminated[:, None], 0.0, moved)
        return self.positions, rewards, terminated, truncated, info

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


STEP = np.array([0.5, -0.25], dtype=np.float32)


def test_jax_to_numpy_drives_a_jax_env_with_numpy_and_gives_its_trajectory() -> None:
    raw, inner = JaxWalk(), JaxWalk()
    env = JaxToNumpy(inner)
    start = np.array([0.25, 0.0], dtype=np.float32)
    obs, info = env.reset(seed=3, options={"start": start})
    raw_obs, _ = raw.reset(seed=3, options={"start": jnp.asarray(start)})
    assert inner.received == [type(raw_obs)]  # the option arrived as a jax array
    assert type(obs) is np.ndarray and obs.dtype == np.float32
    np.testing.assert_array_equal(obs, [0.25, 0.0])
    assert type(info["t"]) is np.ndarray and int(info["t"]) == 0
    nested_dict, nested_list = info["nested"]
    assert type(nested_dict["p"]) is np.ndarray and type(nested_list[0]) is np.ndarray
    np.testing.assert_array_equal(nested_list[0], [0.5, 0.0])
    for _ in range(10):
        obs, reward, terminated, truncated, info = env.step(STEP)
        expected = raw.step(jnp.asarray(STEP))
        assert inner.received[-1] is type(raw_obs)
        np.testing.assert_array_equal(obs, np.asarray(expected[0]))
        assert type(reward) is float and reward == float(expected[1])
        assert type(terminated) is bool and type(truncated) is bool
        assert (terminated, truncated) == (bool(expected[2]), bool(expected[3]))
        assert isinstance(info["trace"], Trace) and type(info["trace"].x) is np.ndarray
        assert info["label"] == "walk"
        if terminated:
            break
    assert terminated, "the walk leaves the square within 10 steps"
    frame = env.render()
    assert type(frame) is np.ndarray and frame.dtype == np.uint8 and frame.shape == (4, 4, 3)


def test_jax_to_numpy_observations_are_read_only_views_of_immutable_jax_arrays() -> None:
    env = JaxToNumpy(JaxWalk())
    obs, _ = env.reset(seed=0)
    with pytest.raises(ValueError, match="read-only"):
        obs[0] = 1.0


def test_jax_to_numpy_puts_actions_on_the_named_jax_device() -> None:
    inner = JaxWalk()
    env = JaxToNumpy(inner, device="cpu")
    assert env.device == "cpu" and env.env_device == cpu()
    env.reset(seed=0)
    env.step(STEP)
    assert inner.position.devices() == {cpu()}
    with pytest.raises(RuntimeError, match="tpu"):
        JaxToNumpy(JaxWalk(), device="tpu")  # no such platform here


def test_jax_to_torch_drives_a_jax_env_with_tensors_on_the_device() -> None:
    inner = JaxWalk()
    env = JaxToTorch(inner, device=torch.device("cpu"))
    obs, info = env.reset(seed=0, options={"start": torch.tensor([1.0, 1.0])})
    assert inner.received == [type(inner.position)]
    assert isinstance(obs, torch.Tensor) and obs.dtype == torch.float32
    assert obs.device == torch.device("cpu") and isinstance(info["nested"][0]["p"], torch.Tensor)
    action = torch.tensor([0.5, -0.5], requires_grad=True)  # detached on the way in
    obs, reward, terminated, truncated, info = env.step(action)
    assert torch.equal(obs, torch.tensor([1.5, 0.5]))
    assert type(reward) is float and reward == -2.0
    assert (terminated, truncated) == (False, False)
    assert isinstance(info["trace"].y, torch.Tensor) and float(info["trace"].y) == 0.5
    obs[0] = 99.0  # the tensor has its own storage: the env's jax state stays untouched
    assert float(inner.position[0]) == 1.5
    assert type(env.render()) is np.ndarray  # frames are numpy for every tensor wrapper


def test_numpy_to_jax_drives_a_numpy_env_with_jax_arrays() -> None:
    plain = protogym.make("CartPole-v1")
    env = NumpyToJax(protogym.make("CartPole-v1"), device="cpu")
    a, _ = plain.reset(seed=5)
    b, info = env.reset(seed=5)
    assert isinstance(b, jax.Array) and b.dtype == jnp.float32 and b.devices() == {cpu()}
    np.testing.assert_array_equal(a, np.asarray(b))
    for step in range(30):
        ra = plain.step(step % 2)
        rb = env.step(jnp.asarray(step % 2))
        assert isinstance(rb[0], jax.Array)
        np.testing.assert_array_equal(ra[0], np.asarray(rb[0]))
        assert type(rb[1]) is float and rb[1:4] == (float(ra[1]), ra[2], ra[3])
        if ra[2]:
            break


def test_torch_to_jax_and_back_drives_a_torch_env() -> None:
    torch_env = NumpyToTorch(protogym.make("Pendulum-v1"))
    env = TorchToJax(torch_env)
    obs, _ = env.reset(seed=0)
    assert isinstance(obs, jax.Array)
    obs, reward, *_ = env.step(jnp.asarray([0.5], dtype=jnp.float32))
    assert isinstance(obs, jax.Array) and obs.shape == (3,) and type(reward) is float
    back = JaxToTorch(TorchToJax(NumpyToTorch(protogym.make("Pendulum-v1"))))
    tensor_obs, _ = back.reset(seed=0)
    direct, _ = NumpyToTorch(protogym.make("Pendulum-v1")).reset(seed=0)
    assert torch.equal(tensor_obs, direct)


def test_array_conversion_takes_modules_or_names_and_rejects_other_frameworks() -> None:
    inner = JaxWalk()
    env = ArrayConversion(inner, env_xp=jnp, target_xp=torch)
    assert (env.env_framework, env.target_framework) == ("jax", "torch")
    obs, _ = env.reset(seed=0)
    assert isinstance(obs, torch.Tensor)
    by_name = ArrayConversion(JaxWalk(), "jax", "numpy", env_device="cpu")
    assert by_name.env_device == cpu() and by_name.target_device is None
    with pytest.raises(ValueError, match=r"numpy, torch and jax.*got 'cupy'"):
        ArrayConversion(JaxWalk(), "jax", "cupy")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cannot convert to 'tensorflow'"):
        convert(np.zeros(2), "tensorflow")  # type: ignore[arg-type]


def test_jax_wrappers_apply_by_name_through_make() -> None:
    env: Any = protogym.make("CartPole-v1", wrappers=[("NumpyToJax", {"device": "cpu"})])
    obs, _ = env.reset(seed=0)
    assert isinstance(obs, jax.Array)


def test_conversions_walk_nested_containers_to_every_framework() -> None:
    point = namedtuple("point", "x y")
    value = {
        "a": (np.arange(3, dtype=np.int32), [np.float32(2.0), None, "text"]),
        "b": point(np.ones(2, dtype=np.float32), 3),
        "c": OrderedDict(d=np.zeros((2, 2), dtype=np.float32)),
    }
    as_jax = numpy_to_jax(value)
    assert isinstance(as_jax["a"][0], jax.Array) and isinstance(as_jax["a"][1][0], jax.Array)
    assert as_jax["a"][1][1:] == [None, "text"] and isinstance(as_jax["a"][1], list)
    assert isinstance(as_jax["b"], point) and isinstance(as_jax["b"].y, jax.Array)
    assert type(as_jax["c"]) is OrderedDict and isinstance(as_jax["c"]["d"], jax.Array)
    as_torch = jax_to_torch(as_jax)
    assert isinstance(as_torch["b"].x, torch.Tensor) and as_torch["b"].x.dtype == torch.float32
    assert isinstance(as_torch["c"]["d"], torch.Tensor)
    back_to_jax = torch_to_jax(as_torch, device="cpu")
    assert back_to_jax["b"].x.devices() == {cpu()}
    as_numpy = jax_to_numpy(back_to_jax)
    np.testing.assert_array_equal(as_numpy["a"][0], np.arange(3))
    assert as_numpy["a"][0].dtype == np.int32 and int(as_numpy["b"].y) == 3
    assert as_numpy["a"][1][1:] == [None, "text"]


def test_jax_takes_copies_and_keeps_its_32_bit_defaults() -> None:
    source = np.arange(3.0)
    copied = numpy_to_jax(source)
    source[0] = 7.0
    assert float(copied[0]) == 0.0
    assert copied.dtype == jnp.float32  # float64 narrows unless jax_enable_x64 is set
    tensor = torch.arange(3.0)
    from_torch = torch_to_jax(tensor)
    tensor[0] = 7.0
    assert float(from_torch[0]) == 0.0


def test_object_arrays_convert_item_by_item_and_keep_their_shape() -> None:
    cells = np.empty((2, 2), dtype=object)
    cells[0, 0], cells[1, 1] = np.ones(2), jnp.ones(3)
    for to, kind in [("jax", jax.Array), ("torch", torch.Tensor), ("numpy", np.ndarray)]:
        converted = convert(cells, to)  # type: ignore[arg-type]
        assert converted.dtype == object and converted.shape == (2, 2)
        assert isinstance(converted[0, 0], kind) and isinstance(converted[1, 1], kind)
        assert converted[0, 1] is None and converted[1, 0] is None


def _drive_vector(env: Any, action: Any) -> dict[str, Any]:
    """Steps until a walk ends; returns that step's info."""
    for _ in range(10):
        *_, terminated, _, info = env.step(action)
        if np.asarray(terminated).any():
            return info  # type: ignore[no-any-return]
    raise AssertionError("no walk ended")


def test_vector_jax_to_numpy_converts_batches_flags_and_final_observations() -> None:
    inner = JaxWalkVector(3)
    env = vector_wrappers.JaxToNumpy(inner)
    obs, _ = env.reset(seed=0, options={"start": np.array([1.0, 0.0], dtype=np.float32)})
    assert inner.received == [type(inner.positions)]
    assert type(obs) is np.ndarray and obs.shape == (3, 2)
    actions = np.array([[0.5, 0.0], [0.0, 0.0], [0.0, 0.5]], dtype=np.float32)
    obs, rewards, terminated, truncated, _ = env.step(actions)
    assert inner.received[-1] is type(inner.positions)
    assert type(rewards) is np.ndarray and rewards.dtype == np.float32
    assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_
    np.testing.assert_array_equal(rewards, [-1.5, -1.0, -1.5])
    info = _drive_vector(env, actions)
    final, mask = info["final_observation"], info["_final_observation"]
    assert final.dtype == object and type(mask) is np.ndarray and mask.dtype == np.bool_
    np.testing.assert_array_equal(mask, [True, False, False])
    assert type(final[0]) is np.ndarray and final[1] is None and final[2] is None
    np.testing.assert_array_equal(final[0], [2.5, 0.0])


def test_vector_jax_to_torch_gives_tensors_on_the_device() -> None:
    env = vector_wrappers.JaxToTorch(JaxWalkVector(2), device="cpu")
    assert env.device == "cpu"
    obs, _ = env.reset(options={"start": torch.tensor([0.0, 1.5])})
    assert isinstance(obs, torch.Tensor) and obs.shape == (2, 2)
    info = _drive_vector(env, torch.tensor([[0.0, 0.5], [0.0, -0.25]]))
    assert isinstance(info["final_observation"][0], torch.Tensor)
    assert info["final_observation"][1] is None
    assert info["_final_observation"].dtype == torch.bool


def test_vector_numpy_to_jax_and_torch_to_jax_over_native_vector_cartpole() -> None:
    env = vector_wrappers.NumpyToJax(protogym.make_vec("CartPole-v1", 3), device="cpu")
    obs, _ = env.reset(seed=1)
    assert isinstance(obs, jax.Array) and obs.shape == (3, 4) and obs.devices() == {cpu()}
    push_right = jnp.ones(3, dtype=jnp.int32)
    for _ in range(100):
        obs, rewards, terminated, _, info = env.step(push_right)
        assert isinstance(rewards, jax.Array) and terminated.dtype == jnp.bool_
        ended = np.flatnonzero(np.asarray(terminated))  # numpy, to compile no jax op
        if ended.size:
            index = int(ended[0])
            assert isinstance(info["final_obs"][index], jax.Array)
            break
    else:
        raise AssertionError("no episode ended")
    through_torch = vector_wrappers.TorchToJax(
        vector_wrappers.NumpyToTorch(protogym.make_vec("CartPole-v1", 2))
    )
    obs, _ = through_torch.reset(seed=1)
    assert isinstance(obs, jax.Array)
    _, rewards, *_ = through_torch.step(jnp.zeros(2, dtype=jnp.int32))
    assert isinstance(rewards, jax.Array) and rewards.shape == (2,)
    generic = vector_wrappers.ArrayConversion(JaxWalkVector(2), jnp, np)
    assert type(generic.reset()[0]) is np.ndarray


def test_a_missing_jax_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jax", None)  # `import jax` now fails
    for module in ["protogym.wrappers.jax_to_numpy", "protogym.wrappers.jax_to_torch"]:
        monkeypatch.delitem(sys.modules, module, raising=False)
    array_conversion._target.cache_clear()
    try:
        expected = r'needs the \'jax\' package.*pip install "protogym\[jax\]"'
        with pytest.raises(ImportError, match=expected):
            __import__("protogym.wrappers.jax_to_numpy")
        with pytest.raises(ImportError, match=expected):
            __import__("protogym.wrappers.jax_to_torch")
        with pytest.raises(ImportError, match=expected):
            ArrayConversion(JaxWalk(), "numpy", "jax")
        with pytest.raises(ImportError, match=expected):
            convert(np.zeros(2), "jax")
        assert type(convert(torch.ones(2), "numpy")) is np.ndarray  # others still work
    finally:
        array_conversion._target.cache_clear()


def test_importing_the_wrappers_imports_neither_torch_nor_jax() -> None:
    code = (
        "import sys\n"
        "import protogym.wrappers, protogym.vector.wrappers\n"
        "protogym.wrappers.ArrayConversion, protogym.vector.wrappers.ArrayConversion\n"
        "print(sorted(m for m in ('torch', 'jax') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
