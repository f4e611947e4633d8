"""Pictures of a MuJoCo simulation: offscreen frames through an OpenGL context, and the window
of `render_mode="human"`.

Frames are drawn as Gymnasium 1.4 draws them, so the same state gives the same pixels: a
scene of `max_geom` geoms updated with every category, MuJoCo's own renderer into the model's
offscreen framebuffer, and, without a chosen camera, a free camera looking at the median of
the geoms' positions from `model.stat.extent` away (placed at the first frame) and then set
from the env's `default_camera_config`.

The OpenGL context comes from `MUJOCO_GL` (`egl` and `osmesa` need no display; `glfw` needs
one). When it is unset, `glfw` is tried first if a display is there, then `egl` and `osmesa`.

`render_mode="human"` shows the offscreen frames in a pygame window (so it works with SDL's
dummy video driver, without a display): the same pictures as `rgb_array`, paced at the env's
`render_fps`. Gymnasium opens an interactive GLFW viewer instead; see docs/envs/mujoco.md.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

try:
    import mujoco
except ImportError as error:  # pragma: no cover - exercised without the engine
    raise ImportError(
        'rendering the MuJoCo envs needs the mujoco package: pip install "protogym-mujoco"'
    ) from error

__all__ = ["BaseRender", "MujocoRenderer", "OffScreenViewer", "WindowViewer", "gl_backends"]

Frame = NDArray[np.uint8]
Depth = NDArray[np.float32]


def _egl_context(width: int, height: int) -> Any:
    from mujoco.egl import GLContext

    return GLContext(width, height)


def _osmesa_context(width: int, height: int) -> Any:
    from mujoco.osmesa import GLContext

    return GLContext(width, height)


def _glfw_context(width: int, height: int) -> Any:
    from mujoco.glfw import GLContext

    context = GLContext(width, height)
    if not context._context:  # GLFW reports a missing display as a warning, not an error
        raise RuntimeError("GLFW could not open a window (is there a display?)")
    return context


_BACKENDS: dict[str, Callable[[int, int], Any]] = {
    "glfw": _glfw_context,
    "egl": _egl_context,
    "osmesa": _osmesa_context,
}


def gl_backends() -> list[str]:
    """The OpenGL backends to try, in order: `MUJOCO_GL` alone when it is set, else `glfw`
    (only when a display is there), `egl`, `osmesa`."""
    chosen = os.environ.get("MUJOCO_GL", "").strip().lower()
    if chosen:
        if chosen not in _BACKENDS:
            raise RuntimeError(
                f"MUJOCO_GL={chosen!r} is not an OpenGL backend the MuJoCo envs can render "
                f"with; set it to one of {list(_BACKENDS)} (egl or osmesa need no display)"
            )
        return [chosen]
    has_display = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return ["glfw", "egl", "osmesa"] if has_display else ["egl", "osmesa"]


def _new_gl_context(width: int, height: int) -> tuple[str, Any]:
    failures = []
    for backend in gl_backends():
        try:
            return backend, _BACKENDS[backend](width, height)
        except Exception as error:
            failures.append(f"{backend}: {error}")
    raise RuntimeError(
        "no OpenGL backend could create a context for MuJoCo ("
        + "; ".join(failures)
        + "). Headless, set MUJOCO_GL=egl with Mesa's EGL installed (Debian: libegl1 "
        "libgl1-mesa-dri), or MUJOCO_GL=osmesa with libosmesa6."
    )


class BaseRender:
    """A scene of the model drawn by MuJoCo's renderer into an OpenGL context, with the
    markers and text overlays added for the next frame."""

    def __init__(
        self,
        model: mujoco.MjModel,
        data: mujoco.MjData,
        width: int,
        height: int,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
    ) -> None:
        self.model = model
        self.data = data
        self._markers: list[dict[str, Any]] = []
        self._overlays: dict[int, list[str]] = {}
        self.viewport = mujoco.MjrRect(0, 0, width, height)
        self.scn = mujoco.MjvScene(model, max_geom)
        self.cam = mujoco.MjvCamera()
        self.vopt = mujoco.MjvOption()
        self.pert = mujoco.MjvPerturb()
        for flag, value in (visual_options or {}).items():
            self.vopt.flags[flag] = value
        self.make_context_current()
        self.con = mujoco.MjrContext(model, mujoco.mjtFontScale.mjFONTSCALE_150)
        self._set_mujoco_buffer()

    def make_context_current(self) -> None:
        raise NotImplementedError

    def _set_mujoco_buffer(self) -> None:
        raise NotImplementedError

    def add_overlay(self, gridpos: int, text1: str, text2: str) -> None:
        """Write `text1` and `text2` (two columns) at `gridpos` (an `mjtGridPos`) on the next
        frame."""
        columns = self._overlays.setdefault(gridpos, ["", ""])
        columns[0] += text1 + "\n"
        columns[1] += text2 + "\n"

    def add_marker(self, **marker_params: Any) -> None:
        """Draw a geom on the next frame: `type` (an `mjtGeom`, a sphere by default), `size`,
        `pos`, `mat` (3x3, row-major) and `rgba`."""
        self._markers.append(marker_params)

    def _draw_markers(self) -> None:
        scene = self.scn
        for marker in self._markers:
            if scene.ngeom >= scene.maxgeom:
                raise RuntimeError(
                    f"no room for another marker: the scene holds max_geom={scene.maxgeom} "
                    "geoms; make the env with a larger max_geom"
                )
            mujoco.mjv_initGeom(
                scene.geoms[scene.ngeom],
                marker.get("type", mujoco.mjtGeom.mjGEOM_SPHERE),
                size=np.asarray(marker.get("size", (0.01, 0.01, 0.01)), dtype=np.float64),
                pos=np.asarray(marker.get("pos", (0.0, 0.0, 0.0)), dtype=np.float64),
                mat=np.asarray(marker.get("mat", np.eye(3)), dtype=np.float64).reshape(9),
                rgba=np.asarray(marker.get("rgba", (1.0, 1.0, 1.0, 1.0)), dtype=np.float32),
            )
            scene.ngeom += 1

    def _draw_overlays(self) -> None:
        for gridpos, (text1, text2) in self._overlays.items():
            mujoco.mjr_overlay(
                mujoco.mjtFontScale.mjFONTSCALE_150, gridpos, self.viewport, text1, text2, self.con
            )

    def close(self) -> None:
        raise NotImplementedError


class OffScreenViewer(BaseRender):
    """Frames drawn into the model's offscreen framebuffer and read back as arrays."""

    def __init__(
        self,
        model: mujoco.MjModel,
        data: mujoco.MjData,
        width: int,
        height: int,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
    ) -> None:
        self.backend, self.opengl_context = _new_gl_context(width, height)
        super().__init__(model, data, width, height, max_geom, visual_options)
        self._init_camera()

    def _init_camera(self) -> None:
        """A free camera at the median of the geoms, as far away as the model is large."""
        self.cam.type = mujoco.mjtCamera.mjCAMERA_FREE
        self.cam.fixedcamid = -1
        for axis in range(3):
            self.cam.lookat[axis] = np.median(self.data.geom_xpos[:, axis])
        self.cam.distance = self.model.stat.extent

    def make_context_current(self) -> None:
        self.opengl_context.make_current()

    def _set_mujoco_buffer(self) -> None:
        mujoco.mjr_setBuffer(mujoco.mjtFramebuffer.mjFB_OFFSCREEN, self.con)

    def render(
        self, render_mode: str, camera_id: int | None = None
    ) -> Frame | Depth | tuple[Frame, Depth]:
        """The frame for `render_mode` ('rgb_array', 'depth_array' or 'rgbd_tuple'), seen by
        the camera `camera_id` (-1: the free camera) when given."""
        if camera_id is not None:
            camera = mujoco.mjtCamera
            self.cam.type = camera.mjCAMERA_FREE if camera_id == -1 else camera.mjCAMERA_FIXED
            self.cam.fixedcamid = camera_id
        # Another env's context may be current: MuJoCo draws into whichever is.
        self.make_context_current()
        mujoco.mjv_updateScene(
            self.model,
            self.data,
            self.vopt,
            self.pert,
            self.cam,
            mujoco.mjtCatBit.mjCAT_ALL,
            self.scn,
        )
        self._draw_markers()
        mujoco.mjr_render(self.viewport, self.scn, self.con)
        self._draw_overlays()
        self._markers.clear()
        self._overlays.clear()
        height, width = self.viewport.height, self.viewport.width
        rgb = np.empty((height, width, 3), dtype=np.uint8) if render_mode != "depth_array" else None
        depth = np.empty((height, width), dtype=np.float32) if render_mode != "rgb_array" else None
        mujoco.mjr_readPixels(rgb, depth, self.viewport, self.con)
        # OpenGL's rows run bottom-up.
        if rgb is None:
            assert depth is not None
            return np.flipud(depth).copy()
        if depth is None:
            return np.flipud(rgb).copy()
        return np.flipud(rgb).copy(), np.flipud(depth).copy()

    def free(self) -> None:
        """Release the MuJoCo and OpenGL contexts; harmless when already released."""
        context = getattr(self, "opengl_context", None)
        if context is None:
            return
        con = getattr(self, "con", None)
        if con is not None:
            context.make_current()
            con.free()
        context.free()
        self.opengl_context = None

    def close(self) -> None:
        self.free()

    def __del__(self) -> None:
        # At interpreter exit OpenGL may already be unloaded; nothing is left to free then.
        with contextlib.suppress(Exception):
            self.free()


class WindowViewer(OffScreenViewer):
    """`render_mode="human"`: the offscreen frames shown in a pygame window, paced at
    `render_fps` frames a second."""

    def __init__(
        self,
        model: mujoco.MjModel,
        data: mujoco.MjData,
        width: int,
        height: int,
        max_geom: int = 1000,
        visual_options: dict[int, bool] | None = None,
        render_fps: int = 30,
    ) -> None:
        try:
            import pygame
        except ImportError as error:
            raise ImportError(
                'render_mode="human" shows the MuJoCo envs in a pygame window; install it '
                'with pip install "protogym-mujoco[render]"'
            ) from error
        super().__init__(model, data, width, height, max_geom, visual_options)
        self._pygame = pygame
        self._render_fps = render_fps
        pygame.display.init()
        pygame.display.set_caption("MuJoCo")
        self.window: Any = pygame.display.set_mode((width, height))
        self._clock = pygame.time.Clock()

    def render(  # type: ignore[override]
        self, render_mode: str = "human", camera_id: int | None = None
    ) -> None:
        frame = super().render("rgb_array", camera_id)
        assert isinstance(frame, np.ndarray)
        pygame = self._pygame
        surface = pygame.surfarray.make_surface(frame.swapaxes(0, 1))
        self.window.blit(surface, (0, 0))
        pygame.event.pump()
        self._clock.tick(self._render_fps)
        pygame.display.flip()

    def close(self) -> None:
        if getattr(self, "window", None) is not None:
            self._pygame.display.quit()
            self.window = None
        super().close()


class MujocoRenderer:
    """The frames of one env: a viewer per render mode, made on the first frame, looking
    through the chosen camera or a free camera set from `default_cam_config`.

    `camera_id` and `camera_name` pick one of the model's cameras (not both); without either
    the free camera is used, whatever cameras the model has.
    """

    def __init__(
        self,
        model: mujoco.MjModel,
        data: mujoco.MjData,
        default_cam_config: dict[str, Any] | None = None,
        width: int | None = None,
        height: int | None = None,
        max_geom: int = 1000,
        camera_id: int | None = None,
        camera_name: str | None = None,
        visual_options: dict[int, bool] | None = None,
        render_fps: int = 30,
    ) -> None:
        self.model = model
        self.data = data
        self._viewers: dict[str, OffScreenViewer] = {}
        self.viewer: OffScreenViewer | None = None
        self.default_cam_config = default_cam_config
        self.width = width
        self.height = height
        self.max_geom = max_geom
        self.render_fps = render_fps
        self._vopt = visual_options or {}
        self.camera_id = _camera_id(model, camera_id, camera_name)

    def render(self, render_mode: str | None) -> Frame | Depth | tuple[Frame, Depth] | None:
        """The frame for `render_mode`; None for 'human', which draws in the window."""
        viewer = self._get_viewer(render_mode)
        if isinstance(viewer, WindowViewer):
            viewer.render(camera_id=self.camera_id)
            return None
        return viewer.render(str(render_mode), camera_id=self.camera_id)

    def _get_viewer(self, render_mode: str | None) -> OffScreenViewer:
        viewer = self._viewers.get(str(render_mode))
        if viewer is None:
            if render_mode not in ("human", "rgb_array", "depth_array", "rgbd_tuple"):
                raise ValueError(
                    f"cannot render in mode {render_mode!r}; the modes are human, rgb_array, "
                    "depth_array and rgbd_tuple"
                )
            if self.width is None or self.height is None:
                raise ValueError(
                    f"frames need a width and a height, got {self.width}x{self.height}"
                )
            if render_mode == "human":
                viewer = WindowViewer(
                    self.model,
                    self.data,
                    self.width,
                    self.height,
                    self.max_geom,
                    self._vopt,
                    self.render_fps,
                )
            else:
                viewer = OffScreenViewer(
                    self.model, self.data, self.width, self.height, self.max_geom, self._vopt
                )
            self._set_cam_config(viewer)
            self._viewers[str(render_mode)] = viewer
        self.viewer = viewer
        return viewer

    def _set_cam_config(self, viewer: OffScreenViewer) -> None:
        for key, value in (self.default_cam_config or {}).items():
            if not hasattr(viewer.cam, key):
                raise ValueError(
                    f"default_camera_config has {key!r}, which is not a field of MuJoCo's "
                    "camera (mujoco.MjvCamera: type, fixedcamid, trackbodyid, lookat, "
                    "distance, azimuth, elevation, orthographic)"
                )
            if isinstance(value, np.ndarray):
                getattr(viewer.cam, key)[:] = value
            else:
                setattr(viewer.cam, key, value)

    def close(self) -> None:
        """Free every viewer's contexts and close the window."""
        for viewer in self._viewers.values():
            viewer.close()
        self._viewers.clear()
        self.viewer = None


def _camera_id(model: mujoco.MjModel, camera_id: int | None, camera_name: str | None) -> int:
    """The fixed camera to look through, or -1 for the free camera."""
    if camera_id is not None and camera_name is not None:
        raise ValueError(
            "camera_id and camera_name both pick a camera; pass one of them "
            f"(got camera_id={camera_id!r}, camera_name={camera_name!r})"
        )
    names = [mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_CAMERA, i) for i in range(model.ncam)]
    if camera_name is not None:
        found = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_CAMERA, camera_name)
        if found == -1:
            raise ValueError(
                f"the model has no camera named {camera_name!r}; its cameras are {names} "
                "(or leave camera_name out for the free camera)"
            )
        return found
    if camera_id is None:
        return -1
    if (
        isinstance(camera_id, bool)
        or not isinstance(camera_id, int | np.integer)
        or not (-1 <= camera_id < model.ncam)
    ):
        raise ValueError(
            f"camera_id must be -1 (the free camera) or the index of one of the model's "
            f"{model.ncam} cameras {names}, got {camera_id!r}"
        )
    return int(camera_id)
