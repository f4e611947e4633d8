"""The protogym plugin of the Atari envs: registers ale-py's ids and nothing more.

protogym imports this module during plugin discovery, so it imports neither ale-py nor any
env module, and loads no ROM: the game list is plain data (`protogym_atari.games`) and entry
points are strings that `make` resolves on first use.

The ids and their arguments are ale-py 0.12.1's Gymnasium registrations:

* ``{Game}-v0`` / ``{Game}-v4``: frame skip drawn from 2 to 4 each step, sticky actions 0.25
  (v0) or none (v4), for the 62 games of the original benchmark;
* ``{Game}NoFrameskip-v0`` / ``-v4``: the same with a frame skip of 1;
* ``ALE/{Game}-v5``: frame skip 4, sticky actions 0.25, for every single-player ROM, with the
  native vector env as their vector entry point.

All of them cap episodes at 108,000 frames (30 minutes of play) inside the emulator, which
reports it as a truncation; none has a step limit of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import protogym
from protogym_atari.games import LEGACY_GAMES, V5_GAMES, game_name

if TYPE_CHECKING:
    from protogym.registration import Registry

ENTRY_POINT = "protogym_atari.atari_env:AtariEnv"
VECTOR_ENTRY_POINT = "protogym_atari.vector:AtariVectorEnv"
MAX_FRAMES = 108_000

# (id suffix, frame skip) x (version, sticky-action probability) of the v0/v4 ids. The
# stochastic frame skip is a list, not a tuple, so that a spec survives a JSON round trip.
LEGACY_SKIPS: tuple[tuple[str, int | list[int]], ...] = (("", [2, 5]), ("NoFrameskip", 1))
LEGACY_VERSIONS = (("v0", 0.25), ("v4", 0.0))


@protogym.hookimpl
def protogym_register_envs(registry: Registry) -> None:
    """Registers every Atari id that ale-py registers in Gymnasium, with the same arguments."""
    for rom in LEGACY_GAMES:
        name = game_name(rom)
        for suffix, frameskip in LEGACY_SKIPS:
            for version, sticky in LEGACY_VERSIONS:
                registry.register(
                    id=f"{name}{suffix}-{version}",
                    entry_point=ENTRY_POINT,
                    kwargs={
                        "game": rom,
                        "repeat_action_probability": sticky,
                        "full_action_space": False,
                        "frameskip": frameskip,
                        "max_num_frames_per_episode": MAX_FRAMES,
                    },
                )
    for rom in V5_GAMES:
        registry.register(
            id=f"ALE/{game_name(rom)}-v5",
            entry_point=ENTRY_POINT,
            vector_entry_point=VECTOR_ENTRY_POINT,
            kwargs={
                "game": rom,
                "repeat_action_probability": 0.25,
                "full_action_space": False,
                "frameskip": 4,
                "max_num_frames_per_episode": MAX_FRAMES,
            },
        )
