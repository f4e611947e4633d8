"""Moving values between array frameworks (numpy, torch, jax), and the wrapper that does it.

`convert(value, to=..., device=...)` turns every array and number inside `value` into the
target framework's arrays, walking dicts, tuples (named ones too), lists and numpy object
arrays (a vector env's final observations). It is the single walker under every tensor
wrapper: `NumpyToTorch`/`TorchToNumpy` (`tensor`), `JaxToNumpy`/`NumpyToJax`
(`jax_to_numpy`), `JaxToTorch`/`TorchToJax` (`jax_to_torch`).

Importing this module imports neither torch nor jax: a framework is imported the first time
something is converted *to* it (a missing one raises an ImportError naming its extra), and a
value is recognised as a tensor or a jax array only if that framework is already loaded,
since no such value can exist otherwise.

Conversions copy whenever the result could otherwise alias memory it must not write to:
a read-only numpy array becomes a fresh tensor, a jax array becomes a tensor with its own
storage (jax arrays are immutable), and jax copies whatever it takes in. A jax array becomes a
read-only numpy view, so numpy code cannot mutate it either.
"""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, Literal, NamedTuple, SupportsFloat, get_args

import numpy as np

from protogym.core import Env, Wrapper
from protogym.interop._optional import missing_extra

__all__ = [
    "ArrayConversion",
    "Framework",
    "array_conversion",
    "convert",
    "framework_of",
    "resolve_device",
]

Framework = Literal["numpy", "torch", "jax"]
"""The frameworks `convert` knows; "torch" and "jax" are also the extras that install them."""

_FRAMEWORKS: tuple[Framework, ...] = get_args(Framework)

LeafConverter = Callable[[Any, Any], Any]


class _Target(NamedTuple):
    """How one framework takes in each kind of leaf, and what it accepts as a device."""

    numpy: LeafConverter
    number: LeafConverter
    torch: LeafConverter
    jax: LeafConverter
    device: Callable[[Any], Any]


def convert(value: Any, to: Framework, device: Any = None) -> Any:
    """`value` with every numpy array, torch tensor, jax array and number in it made an array
    of framework `to` (on `device`, if given; numpy has no devices and ignores it).

    Containers are rebuilt with the same type; anything else (strings, None, objects) is
    passed through. Converting to numpy leaves Python and numpy numbers as they are.
    """
    target = _target(to)
    return _walk(value, target, target.device(device))


def array_conversion(value: Any, xp: ModuleType | Framework, device: Any = None) -> Any:
    """Gymnasium's spelling of `convert`: the target framework given as a module (``torch``,
    ``jax.numpy``, ``numpy`` or their ``array_api_compat`` namespaces) or a name."""
    return convert(value, framework_of(xp), device)


def resolve_device(framework: Framework, device: Any) -> Any:
    """`device` as `framework` takes it (for jax a platform name becomes its first device).

    Imports the framework, so a missing one raises the ImportError naming its extra here,
    when a wrapper is built, rather than at the first step.
    """
    return _target(framework).device(device)


def framework_of(xp: ModuleType | str) -> Framework:
    """The framework named by a module (``numpy``, ``torch``, ``jax.numpy``, or their
    ``array_api_compat`` namespaces, as Gymnasium's `ArrayConversion` takes) or by its name."""
    name = xp if isinstance(xp, str) else xp.__name__
    name = name.removeprefix("array_api_compat.").removesuffix(".numpy")
    for framework in _FRAMEWORKS:
        if name == framework:
            return framework
    raise ValueError(
        f"protogym converts between numpy, torch and jax arrays; got {xp!r}. "
        "Pass one of the modules numpy, torch, jax.numpy or the names 'numpy', 'torch', 'jax'."
    )


def _walk(value: Any, target: _Target, device: Any) -> Any:
    cls = type(value)
    kind = _KINDS.get(cls)
    if kind is None:
        kind = _KINDS[cls] = _classify(cls)
    if kind == "numpy":
        if value.dtype != object:
            return target.numpy(value, device)
        converted = np.empty(value.shape, dtype=object)
        cells = converted.reshape(-1)  # a view: writing a cell writes `converted`
        for index, item in enumerate(value.flat):
            cells[index] = _walk(item, target, device)
        return converted
    if kind == "number":
        return target.number(value, device)
    if kind == "torch":
        return target.torch(value, device)
    if kind == "jax":
        return target.jax(value, device)
    if kind == "dict":
        return {key: _walk(item, target, device) for key, item in value.items()}
    if kind == "mapping":
        return cls(**{key: _walk(item, target, device) for key, item in value.items()})
    if kind == "namedtuple":
        return cls._make(_walk(item, target, device) for item in value)
    if kind == "sequence":
        return cls(_walk(item, target, device) for item in value)
    return value


# type -> what `_walk` does with it; filled on first sight of each type.
_KINDS: dict[type, str] = {}


def _classify(cls: type) -> str:
    if issubclass(cls, np.ndarray):
        return "numpy"
    if issubclass(cls, np.number | np.bool_ | int | float):  # bool is an int
        return "number"
    torch = sys.modules.get("torch")
    if torch is not None and issubclass(cls, torch.Tensor):
        return "torch"
    jax = sys.modules.get("jax")
    if jax is not None and issubclass(cls, jax.Array):
        return "jax"
    if cls is dict:
        return "dict"
    if issubclass(cls, Mapping):
        return "mapping"
    if issubclass(cls, tuple) and hasattr(cls, "_make"):
        return "namedtuple"
    if issubclass(cls, tuple | list):
        return "sequence"
    return "other"


def _import(framework: Framework, purpose: str) -> ModuleType:
    try:
        return importlib.import_module(framework)
    except ImportError as error:
        raise missing_extra(framework, framework, purpose) from error


@functools.cache
def _target(to: Framework) -> _Target:
    if to == "numpy":
        return _numpy_target()
    if to == "torch":
        return _torch_target()
    if to == "jax":
        return _jax_target()
    raise ValueError(f"cannot convert to {to!r}: the frameworks are {', '.join(_FRAMEWORKS)}")


def _same(value: Any, device: Any) -> Any:
    return value


def _numpy_target() -> _Target:
    def from_torch(tensor: Any, device: Any) -> Any:
        return tensor.detach().cpu().numpy()

    def from_jax(array: Any, device: Any) -> Any:
        return np.asarray(array)

    return _Target(_same, _same, from_torch, from_jax, device=lambda device: None)


def _torch_target() -> _Target:
    torch = _import("torch", "converting to torch tensors")

    def from_numpy(array: Any, device: Any) -> Any:
        if not array.flags.writeable:
            array = array.copy()  # torch cannot share a read-only buffer
        tensor = torch.from_numpy(array)
        return tensor if device is None else tensor.to(device)

    def from_number(number: Any, device: Any) -> Any:
        return torch.tensor(number, device=device)

    def from_torch(tensor: Any, device: Any) -> Any:
        return tensor if device is None else tensor.to(device)

    def from_jax(array: Any, device: Any) -> Any:
        shared = torch.from_dlpack(array)  # on the array's own device, sharing its buffer
        return shared.clone() if device is None else shared.to(device, copy=True)

    return _Target(from_numpy, from_number, from_torch, from_jax, device=lambda device: device)


def _jax_target() -> _Target:
    jax = _import("jax", "converting to jax arrays")
    importlib.import_module("jax.numpy")
    asarray = jax.numpy.asarray
    device_put = jax.device_put

    def from_numpy(array: Any, device: Any) -> Any:
        return asarray(array) if device is None else device_put(array, device)

    def from_torch(tensor: Any, device: Any) -> Any:
        return from_numpy(tensor.detach().cpu().numpy(), device)

    def from_jax(array: Any, device: Any) -> Any:
        return array if device is None else device_put(array, device)

    def jax_device(device: Any) -> Any:
        """A platform name such as ``"cpu"`` or ``"gpu"`` means that platform's first device."""
        return jax.devices(device)[0] if isinstance(device, str) else device

    return _Target(from_numpy, from_numpy, from_torch, from_jax, device=jax_device)


class ArrayConversion(Wrapper[Any, Any, Any, Any]):
    """An env whose arrays live in one framework (`env_xp`), driven from another
    (`target_xp`): actions and reset options are converted to the env's framework on
    `env_device`, observations and infos to the target's on `target_device`.

    The frameworks are numpy, torch and jax, given as modules or names. Rewards stay Python
    floats and the flags bools, and rendered frames are numpy arrays whatever the env's
    framework, so video and display wrappers keep working outside this one.
    """

    def __init__(
        self,
        env: Env[Any, Any],
        env_xp: ModuleType | Framework,
        target_xp: ModuleType | Framework,
        env_device: Any = None,
        target_device: Any = None,
    ) -> None:
        super().__init__(env)
        self.env_framework = framework_of(env_xp)
        self.target_framework = framework_of(target_xp)
        self.env_device = resolve_device(self.env_framework, env_device)
        self.target_device = resolve_device(self.target_framework, target_device)

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(
            convert(action, self.env_framework, self.env_device)
        )
        to, device = self.target_framework, self.target_device
        return (
            convert(obs, to, device),
            float(reward),
            bool(terminated),
            bool(truncated),
            convert(info, to, device),
        )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        if options:
            options = convert(options, self.env_framework, self.env_device)
        obs, info = self.env.reset(seed=seed, options=options)
        to, device = self.target_framework, self.target_device
        return convert(obs, to, device), convert(info, to, device)

    def render(self) -> Any:
        return convert(self.env.render(), "numpy")
