"""The gallery's grouping of ids into envs and families (scripts/docs_gallery.py) and its
pictures (scripts/docs_render.py): GIF encoding, the episodes shown and the cache."""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from PIL import Image

from protogym.registration import EnvSpec
from protogym.spaces import Discrete

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import docs_gallery  # noqa: E402
import docs_render  # noqa: E402


def spec(env_id: str, plugin: str | None = "protogym-atari", entry: str = "atari:AtariEnv",
         **kwargs: Any) -> EnvSpec:
    return EnvSpec(id=env_id, entry_point=entry, plugin=plugin, kwargs=kwargs)


def test_ids_of_one_name_or_one_game_are_one_env() -> None:
    specs = [
        spec("Pong-v0", game="pong"), spec("PongNoFrameskip-v4", game="pong", obs_type="rgb"),
        spec("ALE/Pong-v5", game="pong"), spec("ALE/Pong-ram-v5", game="pong", obs_type="ram"),
        spec("Breakout-v4", game="breakout"), spec("ALE/Breakout-v5", game="breakout"),
        spec("Ant-v4", "protogym-mujoco", "ant_v4:AntEnv"),
        spec("Ant-v5", "protogym-mujoco", "ant_v5:AntEnv"),
        spec("Humanoid-v5", "protogym-mujoco", "humanoid_v5:HumanoidEnv"),
        spec("HumanoidStandup-v5", "protogym-mujoco", "humanoidstandup_v5:Env"),
        spec("FrozenLake-v1", "protogym-toy-text", "lake:Lake", map_name="4x4"),
        spec("FrozenLake8x8-v1", "protogym-toy-text", "lake:Lake", map_name="8x8"),
        spec("acme/Walk-v0", "acme-envs", "acme:Walk"), spec("Local-v0", None, "local:Env"),
    ]
    found = docs_gallery.families(specs)
    assert [(f.name, f.slug) for f in found] == [
        ("Toy text", "toy-text"), ("MuJoCo", "mujoco"), ("Atari", "atari"),
        ("Acme envs", "acme-envs"), ("Registered in code", "registered-in-code"),
    ]
    envs = {env.title: ([s.id for s in env.specs], env.shown.id, env.slug)
            for family in found for env in family.envs}
    assert envs["Pong"] == (
        ["Pong-v0", "PongNoFrameskip-v4", "ALE/Pong-v5", "ALE/Pong-ram-v5"], "ALE/Pong-v5", "pong"
    )
    assert envs["Breakout"][1] == "ALE/Breakout-v5"
    assert envs["Ant"] == (["Ant-v4", "Ant-v5"], "Ant-v5", "ant")
    assert {"Humanoid", "HumanoidStandup", "FrozenLake", "FrozenLake8x8", "Walk", "Local"} <= set(
        envs
    )
    assert found[2].ids == 6


def test_family_pages_and_nav_entries() -> None:
    family = docs_gallery.families([spec("Pong-v0", game="pong")])[0]
    assert family.page == "envs/atari.md"
    nav: list[Any] = [{"Home": "index.md"}, {"Environments": ["envs/index.md",
                                                              {"Atari": "envs/atari.md"}]}]
    section = docs_gallery._environments_section(nav)
    assert list(docs_gallery._nav_paths(section)) == ["envs/index.md", "envs/atari.md"]
    with pytest.raises(ValueError, match="needs an 'Environments' section"):
        docs_gallery._environments_section([{"Home": "index.md"}])


def frames_of(colours: list[tuple[int, int, int]], size: tuple[int, int] = (6, 8)) -> list[Any]:
    return [np.full((*size, 3), colour, dtype=np.uint8) for colour in colours]


def test_a_gif_keeps_every_frame_and_its_colours() -> None:
    colours = [(255, 0, 0), (0, 128, 255), (12, 200, 40), (255, 255, 255)]
    data = docs_render.encode_gif(frames_of(colours), fps=20)
    image = Image.open(io.BytesIO(data))
    assert image.size == (8, 6) and getattr(image, "n_frames") == 4  # noqa: B009 - untyped
    assert image.info["loop"] == 0 and image.info["duration"] == 50
    for index, colour in enumerate(colours):
        image.seek(index)
        assert image.convert("RGB").getpixel((3, 3)) == colour
    assert docs_gallery._gif_size(data) == (8, 6)


def test_frames_shrink_by_whole_pixels_to_the_longest_side() -> None:
    frame = np.zeros((400, 600, 3), dtype=np.uint8)
    assert docs_render._shrink(frame, 320).shape == (200, 300, 3)
    assert docs_render._shrink(frame[:, :, :2].repeat(2, axis=2), 600).shape == (400, 600, 3)


class Corridor:
    """Episodes of `length` steps; each frame shows the step count in its first pixel."""

    def __init__(self, length: int) -> None:
        self.metadata = {"render_modes": ["rgb_array"], "render_fps": 10}
        self.length, self.t = length, 0
        self.resets: list[int | None] = []
        self.action_space = Discrete(2)

    def reset(self, *, seed: int | None = None) -> tuple[int, dict[str, Any]]:
        self.resets.append(seed)
        self.t = 0
        return 0, {}

    def step(self, action: Any) -> tuple[int, float, bool, bool, dict[str, Any]]:
        self.t += 1
        return self.t, 0.0, self.t >= self.length, False, {}

    def render(self) -> Any:
        return np.full((4, 4, 3), self.t % 256, dtype=np.uint8)


def test_short_episodes_follow_one_another_until_one_ends_past_min_steps() -> None:
    env = Corridor(length=30)
    frames, steps, episodes, stride = docs_render._episodes(env, policy=None)
    assert (steps, episodes, stride) == (120, 4, 1)  # 30 + 30 + 30 + 30 >= MIN_STEPS
    assert env.resets == [docs_render.SEED, None, None, None]
    # the first frame, one a step, and each new episode's first frame
    assert len(frames) == 1 + 120 + 3


def test_a_long_episode_stops_at_max_steps() -> None:
    frames, steps, episodes, _ = docs_render._episodes(Corridor(length=10_000), policy=None)
    assert (steps, episodes, len(frames)) == (docs_render.MAX_STEPS, 1, docs_render.MAX_STEPS + 1)


def test_pictures_are_cached_by_what_they_depend_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PROTOGYM_DOCS_CACHE", str(tmp_path))
    made: list[str] = []

    def fake_render(env_id: str) -> docs_render.Rendered:
        made.append(env_id)
        return docs_render.Rendered(env_id, "a", "o", "a", "o", (), "random actions", b"GIF",
                                    b"gif", 1, 1, 1)

    monkeypatch.setattr(docs_render, "_render", fake_render)
    first = docs_render.render("FrozenLake-v1")
    again = docs_render.render("FrozenLake-v1")
    assert made == ["FrozenLake-v1"] and again == first
    docs_render.render("FrozenLake8x8-v1")  # another registration, another entry
    assert made == ["FrozenLake-v1", "FrozenLake8x8-v1"]
    assert len(list(tmp_path.glob("*.pickle"))) == 2
    monkeypatch.setenv("PROTOGYM_DOCS_CACHE", "off")
    docs_render.render("FrozenLake-v1")
    assert made[-1] == "FrozenLake-v1" and len(made) == 3


def test_a_family_page_gets_its_grid_after_its_first_paragraph(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    family = docs_gallery.families([spec("Pong-v0", game="pong"), spec("ALE/Pong-v5")])[0]
    size = (8).to_bytes(2, "little") + (6).to_bytes(2, "little")
    for env in family.envs:
        env.rendered = docs_render.Rendered(
            env.shown.id, "Discrete(6)", "Box(...)", "Discrete(6)", "Box(210, 160, 3) uint8",
            ("rgb_array",), "random actions", b"GIF89a" + size, b"GIF89a" + size, 9, 1, 1,
            "#101010",
        )
    monkeypatch.setattr(docs_gallery, "_families", [family])
    page: Any = SimpleNamespace(file=SimpleNamespace(src_uri="envs/atari.md"), url="envs/atari/")
    nothing: Any = None
    text = docs_gallery.on_page_markdown(
        "# Atari\n\nThe games,\non ale-py.\n\n## Later\n", page=page, config=nothing,
        files=nothing,
    )
    assert text.startswith('# Atari\n\nThe games,\non ale-py.\n\n<div class="pg-gallery"')
    assert text.endswith("</div>\n\n## Later\n")
    card = re.search(r'<a class="pg-card"[^>]*>.*?</a>', text)
    assert card is not None
    assert 'href="pong/"' in card[0] and 'src="pong-thumb.gif" width="8" height="6"' in card[0]
    assert 'data-ids="Pong-v0 ALE/Pong-v5"' in card[0] and "<code>ALE/Pong-v5</code>" in card[0]
    assert "act Discrete(6) · obs Box(210, 160, 3) uint8" in card[0]
    marked = docs_gallery.on_page_markdown(
        "# Games\n\nIntro.\n\n<!-- gallery: atari -->\n\n<!-- gallery-count: ids --> ids",
        page=page, config=nothing, files=nothing,
    )
    assert marked.startswith("# Games\n\nIntro.\n\n<div") and marked.endswith("\n\n2 ids")


def test_an_env_slow_to_draw_is_drawn_every_few_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter(range(10_000))
    # every reading of the CPU clock is 25 ms after the last: a frame costs 25 ms to draw
    monkeypatch.setattr("docs_render.time.process_time", lambda: next(clock) * 0.025)
    frames, steps, _, stride = docs_render._episodes(Corridor(length=10_000), policy=None)
    assert stride == 3  # 300 frames of 25 ms would take 7.5 s; DRAW_SECONDS allows 3 s
    assert steps == docs_render.MAX_STEPS
    assert len(frames) == 1 + 3 + (docs_render.MAX_STEPS - 3) // 3
