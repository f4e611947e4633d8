# Stubs for the parts of the `mujoco` bindings (which ship no types) that protogym-mujoco uses.
# Arrays of MjModel and MjData are views into MuJoCo's own memory; names not listed are Any.
from typing import Any

import numpy as np
from numpy.typing import NDArray

__version__: str

def __getattr__(name: str) -> Any: ...

class MjOption:
    timestep: float
    def __getattr__(self, name: str) -> Any: ...

class _MjVisualGlobal:
    offwidth: int
    offheight: int
    def __getattr__(self, name: str) -> Any: ...

class MjVisual:
    global_: _MjVisualGlobal
    def __getattr__(self, name: str) -> Any: ...

class MjStatistic:
    extent: float
    def __getattr__(self, name: str) -> Any: ...

class _BodyView:
    id: int
    name: str
    xpos: NDArray[np.float64]
    def __getattr__(self, name: str) -> Any: ...

class MjModel:
    nq: int
    nv: int
    nu: int
    na: int
    nbody: int
    ncam: int
    ntendon: int
    opt: MjOption
    vis: MjVisual
    stat: MjStatistic
    actuator_ctrlrange: NDArray[np.float64]
    body_mass: NDArray[np.float64]
    @staticmethod
    def from_xml_path(filename: str, assets: dict[str, bytes] | None = ...) -> MjModel: ...
    def body(self, name: int | str) -> _BodyView: ...
    def camera(self, name: int | str) -> Any: ...
    def __getattr__(self, name: str) -> Any: ...

class MjData:
    qpos: NDArray[np.float64]
    qvel: NDArray[np.float64]
    act: NDArray[np.float64]
    ctrl: NDArray[np.float64]
    cfrc_ext: NDArray[np.float64]
    cinert: NDArray[np.float64]
    cvel: NDArray[np.float64]
    qfrc_actuator: NDArray[np.float64]
    qfrc_constraint: NDArray[np.float64]
    xpos: NDArray[np.float64]
    xipos: NDArray[np.float64]
    site_xpos: NDArray[np.float64]
    geom_xpos: NDArray[np.float64]
    ten_length: NDArray[np.float64]
    ten_velocity: NDArray[np.float64]
    time: float
    def __init__(self, model: MjModel) -> None: ...
    def body(self, name: int | str) -> _BodyView: ...
    def __getattr__(self, name: str) -> Any: ...

def mj_step(m: MjModel, d: MjData, nstep: int = ...) -> None: ...
def mj_forward(m: MjModel, d: MjData) -> None: ...
def mj_resetData(m: MjModel, d: MjData) -> None: ...
def mj_rnePostConstraint(m: MjModel, d: MjData) -> None: ...
def mj_name2id(m: MjModel, type: Any, name: str) -> int: ...
def mj_id2name(m: MjModel, type: Any, id: int) -> str | None: ...
def mj_stateSize(m: MjModel, spec: Any) -> int: ...
def mj_getState(m: MjModel, d: MjData, state: NDArray[np.float64], spec: Any) -> None: ...
def mj_setState(m: MjModel, d: MjData, state: NDArray[np.float64], spec: Any) -> None: ...
def get_mju_user_warning() -> Any: ...
def set_mju_user_warning(handler: Any) -> None: ...
