"""The v2 and v3 MuJoCo ids, which ran on mujoco-py: making one raises an error that names the
id to use instead.

mujoco-py (OpenAI's bindings to MuJoCo 1.5 and 2.0) is unmaintained and builds on neither
current Python nor current MuJoCo; Gymnasium moved these ids out too (to
gymnasium-robotics). Each id has its own entry point here, so the error names it.
"""

from __future__ import annotations

from typing import Any, NoReturn

from protogym.error import DependencyNotInstalled

__all__ = [
    "ant_v2",
    "ant_v3",
    "half_cheetah_v2",
    "half_cheetah_v3",
    "hopper_v2",
    "hopper_v3",
    "humanoid_v2",
    "humanoid_v3",
    "humanoidstandup_v2",
    "inverted_double_pendulum_v2",
    "inverted_pendulum_v2",
    "pusher_v2",
    "reacher_v2",
    "swimmer_v2",
    "swimmer_v3",
    "walker2d_v2",
    "walker2d_v3",
]


def _needs_mujoco_py(env_id: str) -> DependencyNotInstalled:
    name = env_id.rsplit("-", 1)[0]
    return DependencyNotInstalled(
        f"{env_id!r} needs mujoco-py, the retired bindings to MuJoCo 1.5/2.0, which protogym "
        f"does not support. Make {name + '-v5'!r} instead: the same robot on the maintained "
        f"mujoco package ({name + '-v4'!r} keeps the older rewards and observations). The "
        "mujoco-py versions live on in gymnasium-robotics."
    )


def ant_v2(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("Ant-v2")


def ant_v3(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("Ant-v3")


def half_cheetah_v2(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("HalfCheetah-v2")


def half_cheetah_v3(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("HalfCheetah-v3")


def hopper_v2(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("Hopper-v2")


def hopper_v3(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("Hopper-v3")


def humanoid_v2(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("Humanoid-v2")


def humanoid_v3(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("Humanoid-v3")


def humanoidstandup_v2(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("HumanoidStandup-v2")


def inverted_double_pendulum_v2(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("InvertedDoublePendulum-v2")


def inverted_pendulum_v2(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("InvertedPendulum-v2")


def pusher_v2(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("Pusher-v2")


def reacher_v2(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("Reacher-v2")


def swimmer_v2(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("Swimmer-v2")


def swimmer_v3(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("Swimmer-v3")


def walker2d_v2(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("Walker2d-v2")


def walker2d_v3(**kwargs: Any) -> NoReturn:
    raise _needs_mujoco_py("Walker2d-v3")
