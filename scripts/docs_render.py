"""The docs gallery's pictures: seeded episodes of an env, rendered by the env itself, as an
animated GIF for its page and a small one for its card.

The first episode starts at ``reset(seed=SEED)``; episodes follow one another until one ends
after MIN_STEPS steps, or MAX_STEPS steps have run, under the plugin's "heuristic" policy when
it names one (see ``protogym run --policy``), else random actions from a seeded action space.
An env that takes long to draw a frame (a software-rendered 3D scene) is drawn every few
steps, so that no animation costs much more than a few seconds to make.
Each GIF has one palette for all its frames, picked from a sample of them and applied without
dithering, which keeps the files small and the encoding fast.

Made pictures are cached on disk (``$PROTOGYM_DOCS_CACHE``, default
``~/.cache/protogym-docs-gallery``; ``off`` disables it), keyed by this file, the id's
registration and the source files of the env's package, so a rebuild redraws only what
changed.

``python scripts/docs_render.py ID OUT.gif`` writes one animation, e.g. for the README.
"""

from __future__ import annotations

import hashlib
import io
import math
import os
import pickle
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

# Software OpenGL (MuJoCo) without a display; set before any env module is imported.
os.environ.setdefault("MUJOCO_GL", "egl")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

SEED = 7
MIN_STEPS = 100
MAX_STEPS = 300
MAX_SIDE = 320
THUMB_SIDE = 160
THUMB_FRAMES = 120
MAX_FPS = 30
# CPU seconds that drawing one animation's frames may take; an env whose frames cost more
# (a software-rendered 3D scene) is drawn every few steps instead of every step.
DRAW_SECONDS = 3.0
MAX_STRIDE = 10

Frame = NDArray[np.uint8]


@dataclass(frozen=True)
class Rendered:
    """What the gallery shows of one env: its spaces and render modes, and the pictures
    (None when the env has no ``rgb_array`` mode)."""

    env_id: str
    action_space: str
    observation_space: str
    action_short: str
    observation_short: str
    render_modes: tuple[str, ...]
    policy: str
    animation: bytes | None
    thumbnail: bytes | None
    steps: int
    episodes: int
    stride: int
    edge_colour: str = "#111111"


def render(env_id: str) -> Rendered:
    """The pictures and spaces of `env_id`, from the cache when nothing they depend on
    changed."""
    key = _cache_key(env_id)
    cached = _cache_read(key)
    if cached is not None:
        return cached
    made = _render(env_id)
    _cache_write(key, made)
    return made


def _render(env_id: str) -> Rendered:
    import protogym
    from protogym.cli.env_info import short_space

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        spec = protogym.spec(env_id)
        modes = _render_modes(spec)
        kwargs: dict[str, Any] = {}
        if "rgb_array" in modes:
            kwargs["render_mode"] = "rgb_array"
            kwargs.update(_frame_size(spec))
        env = protogym.make(env_id, **kwargs)
    policy = _named_policy(env_id)
    try:
        spaces = (str(env.action_space), str(env.observation_space),
                  short_space(env.action_space), short_space(env.observation_space))
        modes = tuple(env.metadata.get("render_modes", modes))
        if "rgb_array" not in modes:
            return Rendered(env_id, *spaces, modes, _policy_text(policy), None, None, 0, 0, 0)
        fps = min(float(env.metadata.get("render_fps") or MAX_FPS), MAX_FPS)
        frames, steps, episodes, stride = _episodes(env, policy)
    finally:
        env.close()
    animation = encode_gif(frames, fps / stride)
    thumbs = frames[:: max(1, math.ceil(len(frames) / THUMB_FRAMES))]
    shown = len(frames) / len(thumbs)
    thumbnail = encode_gif([_shrink(frame, THUMB_SIDE) for frame in thumbs], fps / stride / shown)
    return Rendered(env_id, *spaces, modes, _policy_text(policy), animation, thumbnail, steps,
                    episodes, stride, _edge_colour(frames[0]))


def _render_modes(spec: Any) -> tuple[str, ...]:
    from protogym.cli.env_info import entry_callable

    metadata = getattr(entry_callable(spec), "metadata", None)
    if isinstance(metadata, Mapping):
        return tuple(metadata.get("render_modes", ()))
    return ()


def _frame_size(spec: Any) -> dict[str, int]:
    """``width``/``height`` at the gallery's size, for envs whose constructor takes them
    (3D scenes, which render at any size and cost less to draw small)."""
    from protogym.cli.env_info import arguments, entry_callable

    entry = entry_callable(spec)
    names = {argument.name for argument in arguments(entry)} if entry is not None else set()
    if {"width", "height"} <= names:
        return {"width": MAX_SIDE, "height": MAX_SIDE}
    return {}


def _named_policy(env_id: str) -> Callable[[Any], Any] | None:
    import protogym

    if "heuristic" not in protogym.registry.policies(env_id):
        return None
    return protogym.registry.policy(env_id, "heuristic")


def _policy_text(policy: object) -> str:
    return "the plugin's heuristic policy" if policy is not None else "random actions"


def _episodes(env: Any, policy: Callable[[Any], Any] | None) -> tuple[list[Frame], int, int, int]:
    """The frames from ``reset(seed=SEED)``: episodes follow one another until one ends after
    MIN_STEPS steps (so that an env whose random episodes are short still shows some motion)
    or MAX_STEPS steps have run. Returns the frames, steps, episodes and steps per frame."""
    obs, _ = env.reset(seed=SEED)
    env.action_space.seed(SEED)
    frames = [_shrink(env.render(), MAX_SIDE)]
    stride, steps, episodes, drawing = 1, 0, 1, 0.0
    for steps in range(1, MAX_STEPS + 1):
        action = policy(obs) if policy is not None else env.action_space.sample()
        obs, _, terminated, truncated, _ = env.step(action)
        ended = terminated or truncated
        if steps % stride == 0 or ended:
            started = time.process_time()  # CPU time of all threads: not the machine's load
            frames.append(_shrink(env.render(), MAX_SIDE))
            drawing += time.process_time() - started
            if steps == 3:  # the first frames tell what drawing costs
                frames_allowed = DRAW_SECONDS / max(drawing / 3, 1e-9)
                stride = min(MAX_STRIDE, max(1, math.ceil(MAX_STEPS / frames_allowed)))
        if ended and steps >= MIN_STEPS:
            break
        if ended:
            obs, _ = env.reset()
            episodes += 1
            frames.append(_shrink(env.render(), MAX_SIDE))
    return frames, steps, episodes, stride


def _edge_colour(frame: Frame) -> str:
    """The commonest colour on the frame's border, to fill around it where a card's picture
    is wider or taller than the frame."""
    border = np.concatenate([frame[0], frame[-1], frame[:, 0], frame[:, -1]])
    colours, counts = np.unique(border, axis=0, return_counts=True)
    red, green, blue = (int(c) for c in colours[int(np.argmax(counts))])
    return f"#{red:02x}{green:02x}{blue:02x}"


def _shrink(frame: Any, side: int) -> Frame:
    """Every n-th pixel, so that the longer side is at most `side`."""
    array = np.asarray(frame, dtype=np.uint8)
    step = max(1, math.ceil(max(array.shape[:2]) / side))
    return np.ascontiguousarray(array[::step, ::step, :3])


def encode_gif(frames: list[Frame], fps: float) -> bytes:
    """An endlessly looping GIF of `frames` at `fps`, with one palette for all frames."""
    from PIL import Image

    sample = np.concatenate(frames[:: max(1, len(frames) // 12)], axis=0)
    palette = Image.fromarray(sample).quantize(
        colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    images = [
        Image.fromarray(frame).quantize(palette=palette, dither=Image.Dither.NONE)
        for frame in frames
    ]
    buffer = io.BytesIO()
    images[0].save(
        buffer, format="GIF", save_all=True, append_images=images[1:], loop=0,
        duration=round(1000 / fps), optimize=False,
    )
    return buffer.getvalue()


# -- the cache ------------------------------------------------------------------------------


def _cache_dir() -> Path | None:
    chosen = os.environ.get("PROTOGYM_DOCS_CACHE")
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "protogym-docs-gallery"


def _cache_key(env_id: str) -> str:
    import protogym

    spec = protogym.spec(env_id)
    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(spec.to_json().encode())
    for path in _package_sources(spec):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _package_sources(spec: Any) -> Iterator[Path]:
    """The Python files of the package whose module is the env's entry point."""
    from protogym.cli.env_info import entry_callable

    module = sys.modules.get(getattr(entry_callable(spec), "__module__", "") or "")
    root = getattr(module, "__file__", None)
    if root is None:
        return
    package = Path(root).parent
    while (package.parent / "__init__.py").exists():
        package = package.parent
    yield from sorted(package.rglob("*.py"))


def _cache_read(key: str) -> Rendered | None:
    folder = _cache_dir()
    path = folder / f"{key}.pickle" if folder is not None else None
    if path is None or not path.exists():
        return None
    try:
        found = pickle.loads(path.read_bytes())
    except Exception:  # an unreadable entry is redrawn
        return None
    return found if isinstance(found, Rendered) else None


def _cache_write(key: str, made: Rendered) -> None:
    folder = _cache_dir()
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f"{key}.{os.getpid()}.tmp"
    partial.write_bytes(pickle.dumps(made))
    partial.replace(folder / f"{key}.pickle")


def main(argv: list[str]) -> None:
    if len(argv) != 2:
        raise SystemExit("usage: python scripts/docs_render.py ENV_ID OUT.gif")
    env_id, out = argv
    made = render(env_id)
    if made.animation is None:
        raise SystemExit(f"{env_id} has no rgb_array render mode to animate")
    Path(out).write_bytes(made.animation)


if __name__ == "__main__":
    main(sys.argv[1:])
