"""`MujocoEnv`: what every MuJoCo env shares, the model and its data, the frame skip, seeding,
setting the state, stepping the physics and rendering.

It keeps the order of operations of Gymnasium 1.4's base class, since the physics is only
bit-identical when every call happens as there: `reset` reseeds, clears the data with
`mj_resetData`, lets the env draw its initial state and calls `mj_forward` once (in
`set_state`); a step writes the controls, calls `mj_step` with the frame skip and then
`mj_rnePostConstraint` (which fills `cfrc_ext` and the other force quantities MuJoCo leaves
stale), and never `mj_forward`, so positions derived from `qpos` (`xpos`, `site_xpos`, ...)
read after a step are one sub-step old, as there.

The env subclasses (one module per env and version) read `qpos`, `qvel` and the rest through
the array views this class keeps, and compute observations and rewards with the pure
functions of their modules, which also work over a leading batch axis.
"""

from __future__ import annotations

import os
import pickle
import warnings
from pathlib import Path
from typing import Any, ClassVar, SupportsFloat

import numpy as np
from numpy.typing import NDArray

import protogym
from protogym.error import InvalidAction, ResetNeeded
from protogym.spaces import Box
from protogym_mujoco.mujoco_rendering import MujocoRenderer

try:
    import mujoco
except ImportError as error:  # pragma: no cover - exercised without the engine
    raise ImportError(
        "the MuJoCo envs need the mujoco package, which is not installed: "
        'pip install "protogym-mujoco" (it depends on mujoco==4.0.0)'
    ) from error

__all__ = [
    "DEFAULT_SIZE",
    "MODELS",
    "RENDER_MODES",
    "DataGather",
    "MujocoEnv",
    "expand_model_path",
]

DEFAULT_SIZE = 480
"""Frames are DEFAULT_SIZE x DEFAULT_SIZE pixels unless `width`/`height` say otherwise."""

MODELS = Path(__file__).with_name("assets")
"""The folder of the XML models shipped with the package (see its README.md)."""

RENDER_MODES = ("human", "rgb_array", "depth_array", "rgbd_tuple")

Observation = NDArray[np.float64]
Action = NDArray[np.float32]


def expand_model_path(model_path: str) -> str:
    """The file `model_path` names: a path starting with '/', '.' or '~' as given, any other
    name inside the package's `assets` folder."""
    if not isinstance(model_path, str | os.PathLike):
        raise TypeError(
            f"xml_file must be a file name or path (str), got {model_path!r} "
            f"({type(model_path).__name__})"
        )
    model_path = os.fspath(model_path)
    if model_path.startswith((".", "/")):
        full_path = model_path
    elif model_path.startswith("~"):
        full_path = os.path.expanduser(model_path)
    else:
        full_path = str(MODELS / model_path)
    if not os.path.exists(full_path):
        shipped = ", ".join(sorted(path.name for path in MODELS.glob("*.xml")))
        raise FileNotFoundError(
            f"the MuJoCo model {model_path!r} does not exist (looked for {full_path}); "
            f"name one of the shipped models ({shipped}) or give a path that starts with "
            "'/', '.' or '~'"
        )
    return full_path


class DataGather:
    """A fresh array of the values of several arrays of one `MjData`, in order, in one call.

    An observation is a concatenation of slices of MjData's fields (`qpos[1:]`, `qvel`,
    `cinert[1:]`, ...), and `np.concatenate` of views costs a numpy call and a view per
    part. Instead, one read-only view starts at the lowest of the parts' addresses and a
    precomputed index of the parts' elements gathers them with a single `take`, which copies
    the same values; it reads no memory but the parts'. Each part must be a C-contiguous
    float64 view (of MjData's memory, which lives as long as the env).
    """

    def __init__(self, parts: tuple[NDArray[np.float64], ...]) -> None:
        addresses = [part.ctypes.data for part in parts]
        for part in parts:
            if part.dtype != np.float64 or not part.flags.c_contiguous:
                raise ValueError("DataGather takes C-contiguous float64 views of MjData's fields")
        start = min(addresses)
        end = max(address + part.nbytes for address, part in zip(addresses, parts, strict=True))
        first = parts[addresses.index(start)]
        span = np.lib.stride_tricks.as_strided(
            first, shape=((end - start) // 8,), strides=(8,), writeable=False
        )
        self._index = np.concatenate(
            [
                (address - start) // 8 + np.arange(part.size)
                for address, part in zip(addresses, parts, strict=True)
            ]
        )
        self._take = span.take

    def __call__(self) -> NDArray[np.float64]:
        return self._take(self._index)


class MujocoEnv(protogym.Env[Observation, Action]):
    """The base of the MuJoCo envs; subclasses define `step`, `reset_model` and, when their
    reset has an info, `_get_reset_info`.

    `model_path` is the XML model (see `expand_model_path`), `frame_skip` the number of
    MuJoCo steps per env step, and the rest the rendering settings: frames of `width` x
    `height` pixels from the camera `camera_id` or `camera_name` (by default a free camera
    placed from `default_camera_config`), with at most `max_geom` geoms and the MuJoCo
    visualisation flags in `visual_options`.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012 - per instance
    observation_space: Box
    action_space: Box
    render_mode: str | None

    _arguments: tuple[tuple[Any, ...], dict[str, Any]]

    # Constructor arguments of a subclass, recorded by __new__ so that a pickled env comes
    # back as a fresh env built with the same arguments (as Gymnasium's EzPickle does).
    _PICKLE_FIELDS: ClassVar[tuple[str, ...]] = ("_arguments",)

    def __new__(cls, *args: Any, **kwargs: Any) -> MujocoEnv:
        self = super().__new__(cls)
        self._arguments = (args, kwargs)
        return self

    def __init__(
        self,
        model_path: str,
        frame_skip: int,
        observation_space: Box | None,
        render_mode: str | None = None,
        width: int = DEFAULT_SIZE,
        height: int = DEFAULT_SIZE,
        camera_id: int | None = None,
        camera_name: str | None = None,
        default_camera_config: dict[str, Any] | None = None,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
    ) -> None:
        owner = type(self).__name__
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"{owner} does not support render_mode={render_mode!r}; choose one of "
                f"{list(self.metadata['render_modes'])} or None"
            )
        if isinstance(frame_skip, bool) or not isinstance(frame_skip, int | np.integer):
            raise TypeError(f"{owner}: frame_skip must be an int >= 1, got {frame_skip!r}")
        if frame_skip < 1:
            raise ValueError(
                f"{owner}: frame_skip must be >= 1 (MuJoCo steps per env step), got {frame_skip}"
            )
        for name, size in (("width", width), ("height", height)):
            if isinstance(size, bool) or not isinstance(size, int | np.integer) or size < 1:
                raise ValueError(f"{owner}: {name} must be a positive int (pixels), got {size!r}")
        self.fullpath = expand_model_path(model_path)
        self.width = int(width)
        self.height = int(height)
        self.model, self.data = self._initialize_simulation()
        self._option = self.model.opt
        self.init_qpos = self.data.qpos.ravel().copy()
        self.init_qvel = self.data.qvel.ravel().copy()
        self.frame_skip = int(frame_skip)

        declared_fps = type(self).metadata.get("render_fps")
        fps = int(np.round(1.0 / self.dt))
        if declared_fps is not None and declared_fps != fps:
            raise ValueError(
                f"{owner} declares render_fps={declared_fps}, but the model's timestep "
                f"{self.model.opt.timestep} times frame_skip {self.frame_skip} gives {fps} "
                "frames a second; use a model with the env's own timestep"
            )
        self.metadata = {"render_modes": list(RENDER_MODES), "render_fps": fps}
        if observation_space is not None:
            self.observation_space = observation_space
        self._set_action_space()

        self.render_mode = render_mode
        self.camera_name = camera_name
        self.camera_id = camera_id
        self.mujoco_renderer = MujocoRenderer(
            self.model,
            self.data,
            default_camera_config,
            self.width,
            self.height,
            max_geom,
            camera_id,
            camera_name,
            visual_options,
            render_fps=fps,
        )
        # Views into MjData's memory, valid for the env's life: fetching them from the
        # bindings costs more than the arithmetic done with them.
        self._qpos = self.data.qpos
        self._qvel = self.data.qvel
        self._ctrl = self.data.ctrl
        # None until the first reset, so that the actions' fast check sends an early step to
        # the slow path, which says to reset first.
        self._control_shape: tuple[int] | None = None

    def _initialize_simulation(self) -> tuple[mujoco.MjModel, mujoco.MjData]:
        """The model (its offscreen framebuffer grown to the frame size, never shrunk) and
        its data."""
        model = _load_model(self.fullpath)
        model.vis.global_.offwidth = max(model.vis.global_.offwidth, self.width)
        model.vis.global_.offheight = max(model.vis.global_.offheight, self.height)
        return model, mujoco.MjData(model)

    def _set_action_space(self) -> Box:
        """One float32 coordinate per actuator, bounded by its control range."""
        low, high = self.model.actuator_ctrlrange.copy().astype(np.float32).T
        self.action_space = Box(low=low, high=high, dtype=np.float32)
        return self.action_space

    # -- the state ---------------------------------------------------------------------

    @property
    def dt(self) -> float:
        """Seconds of simulated time per env step: the model's timestep times the frame skip."""
        return self._option.timestep * self.frame_skip

    def set_state(self, qpos: NDArray[np.float64], qvel: NDArray[np.float64]) -> None:
        """Put the joints at `qpos` with velocities `qvel` and recompute what follows from them
        (`mj_forward`). They are not MuJoCo's whole state: see `protogym_mujoco.utils`."""
        nq, nv = self.model.nq, self.model.nv
        qpos_shape, qvel_shape = np.shape(qpos), np.shape(qvel)
        if qpos_shape != (nq,) or qvel_shape != (nv,):
            raise ValueError(
                f"{type(self).__name__}.set_state needs qpos of shape ({nq},) and qvel of shape "
                f"({nv},), got {qpos_shape} and {qvel_shape}"
            )
        self.data.qpos[:] = np.copy(qpos)
        self.data.qvel[:] = np.copy(qvel)
        if self.model.na == 0:
            self.data.act[:] = None
        mujoco.mj_forward(self.model, self.data)

    def state_vector(self) -> NDArray[np.float64]:
        """`qpos` then `qvel`, as one array."""
        return np.concatenate([self._qpos, self._qvel])

    def get_body_com(self, body_name: str) -> NDArray[np.float64]:
        """The position of the frame of the body `body_name` (a view into MjData)."""
        return self.data.body(body_name).xpos

    # -- stepping ----------------------------------------------------------------------

    def do_simulation(self, ctrl: Any, n_frames: int) -> None:
        """Apply the controls `ctrl` (one per actuator; MuJoCo clamps them to their range)
        for `n_frames` MuJoCo steps."""
        if ctrl.__class__ is not np.ndarray or ctrl.shape != self._control_shape:
            ctrl = self._checked_action(ctrl)
        self._step_mujoco_simulation(ctrl, n_frames)

    def _step_mujoco_simulation(self, ctrl: Any, n_frames: int) -> None:
        self._ctrl[:] = ctrl
        mujoco.mj_step(self.model, self.data, nstep=n_frames)
        mujoco.mj_rnePostConstraint(self.model, self.data)

    def _checked_action(self, ctrl: Any) -> NDArray[Any]:
        """The slow path of the envs' action check: `ctrl` as an array of one real number
        per actuator, or an `InvalidAction` that says what was wrong (`ResetNeeded` before
        the first reset). Steps call it when `ctrl` is not an array of the right shape."""
        if self._control_shape is None:
            raise ResetNeeded(f"{type(self).__name__}: call reset() before step()")
        try:
            array = np.asarray(ctrl)
        except (TypeError, ValueError):
            array = np.asarray(None)
        nu = self.model.nu
        if array.dtype.kind not in "iuf" or array.shape != (nu,):
            raise InvalidAction(
                f"{type(self).__name__}.step() got the action {ctrl!r} "
                f"({_describe(array)}); pass {nu} real numbers, one per actuator, e.g. a "
                f"float32 array of shape ({nu},) from env.action_space.sample()"
            )
        return array

    def _reject_non_finite(self, action: NDArray[Any]) -> None:
        """Raise `InvalidAction` when the action holds NaN or an infinity.

        The envs with a control cost call it only when the cost came out non-finite, so the
        check costs nothing on ordinary steps; a finite action whose square overflows goes on
        as in Gymnasium.
        """
        if not np.isfinite(action).all():
            raise InvalidAction(
                f"{type(self).__name__}.step() got the action {action!r}, which holds NaN or "
                "an infinity; MuJoCo cannot simulate it. Pass finite numbers (values outside "
                "the action space are clamped to the actuators' ranges)."
            )

    # -- episodes ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        mujoco.mj_resetData(self.model, self.data)
        self._control_shape = (self.model.nu,)
        observation = self.reset_model()
        info = self._get_reset_info()
        if self.render_mode == "human":
            self.render()
        return observation, info

    def reset_model(self) -> Observation:
        """Draw the initial `qpos` and `qvel`, set them, and return the first observation."""
        raise NotImplementedError(f"{type(self).__name__} must define reset_model()")

    def _get_reset_info(self) -> dict[str, Any]:
        return {}

    def step(self, action: Action) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        raise NotImplementedError(f"{type(self).__name__} must define step()")

    # -- rendering ---------------------------------------------------------------------

    def render(self) -> Any:
        """An (height, width, 3) uint8 frame for `rgb_array`, an (height, width) float32 depth
        buffer for `depth_array`, both as a tuple for `rgbd_tuple`; `human` draws the frame
        in a window and returns None."""
        if self.render_mode is None:
            _warn_without_render_mode(self)
            return None
        if self._control_shape is None:
            raise ResetNeeded(f"{type(self).__name__}: call reset() before render()")
        return self.mujoco_renderer.render(self.render_mode)

    def close(self) -> None:
        """Free the rendering context and close the window; calling it twice is harmless."""
        renderer = getattr(self, "mujoco_renderer", None)
        if renderer is not None:
            renderer.close()

    # -- pickling: a fresh env with the same arguments, as Gymnasium's envs pickle ------

    def __getstate__(self) -> dict[str, Any]:
        args, kwargs = self._arguments
        return {"arguments": pickle.dumps((args, kwargs))}

    def __setstate__(self, state: dict[str, Any]) -> None:
        args, kwargs = pickle.loads(state["arguments"])
        self._arguments = (args, kwargs)
        type(self).__init__(self, *args, **kwargs)


# MuJoCo 4 says, each time half_cheetah.xml is compiled, that its `settotalmass` attribute
# is deprecated. The shipped models are Gymnasium's, unchanged on purpose (rescaling the
# masses by hand would change the physics' bits), so that notice is dropped for them.
_SHIPPED_MODEL_NOTICE = "compiler attribute 'settotalmass' is deprecated"


def _load_model(path: str) -> mujoco.MjModel:
    if Path(path).parent != MODELS:
        return mujoco.MjModel.from_xml_path(path)

    def notice(message: str) -> None:
        if _SHIPPED_MODEL_NOTICE not in message:
            warnings.warn(f"MuJoCo: {message}", RuntimeWarning, stacklevel=2)

    previous = mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(notice)
    try:
        return mujoco.MjModel.from_xml_path(path)
    finally:
        mujoco.set_mju_user_warning(previous)


def _describe(array: NDArray[Any]) -> str:
    return f"shape {array.shape}, dtype {array.dtype}"


def _warn_without_render_mode(env: MujocoEnv) -> None:
    spec = env.spec
    env_id = spec.id if spec is not None else type(env).__name__
    warnings.warn(
        f"render() was called on {env_id} without a render_mode; pass one when making the "
        f'env, e.g. protogym.make("{env_id}", render_mode="rgb_array")',
        UserWarning,
        stacklevel=3,
    )
