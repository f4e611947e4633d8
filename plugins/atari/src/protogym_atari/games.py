"""The games ale-py 0.12.1 ships, as plain data, so that listing ids never imports ale-py.

`ROMS` is ale-py's ROM list (``ale_py.roms.get_all_rom_ids()``), in its order; a test checks
that it still equals the installed one. `LEGACY_GAMES` are the ROMs that also have the old
``{Game}-v0``/``-v4`` ids, and `MULTIPLAYER_ONLY` the ROMs without a single-player game,
which get no ``ALE/{Game}-v5`` id.
"""

from __future__ import annotations

import difflib

__all__ = ["LEGACY_GAMES", "MULTIPLAYER_ONLY", "ROMS", "V5_GAMES", "game_name", "suggest_games"]

ROMS: tuple[str, ...] = (
    "adventure", "air_raid", "alien", "amidar", "assault", "asterix", "asteroids", "atlantis2",
    "atlantis", "backgammon", "bank_heist", "basic_math", "battle_zone", "beam_rider",
    "berzerk", "blackjack", "bowling", "boxing", "breakout", "carnival", "casino", "centipede",
    "chopper_command", "combat", "crazy_climber", "crossbow", "darkchambers", "defender",
    "demon_attack", "donkey_kong", "double_dunk", "earthworld", "elevator_action", "enduro",
    "entombed", "et", "fishing_derby", "flag_capture", "freeway", "frogger", "frostbite",
    "galaxian", "gopher", "gravitar", "hangman", "haunted_house", "hero", "human_cannonball",
    "ice_hockey", "jamesbond", "journey_escape", "joust", "kaboom", "kangaroo",
    "keystone_kapers", "king_kong", "klax", "koolaid", "krull", "kung_fu_master", "laser_gates",
    "lost_luggage", "mario_bros", "maze_craze", "miniature_golf", "montezuma_revenge", "mr_do",
    "ms_pacman", "name_this_game", "othello", "pacman", "phoenix", "pitfall2", "pitfall",
    "pong", "pooyan", "private_eye", "qbert", "riverraid", "road_runner", "robotank",
    "seaquest", "sir_lancelot", "skiing", "solaris", "space_invaders", "space_war",
    "star_gunner", "superman", "surround", "tennis", "tetris", "tic_tac_toe_3d", "time_pilot",
    "trondead", "turmoil", "tutankham", "up_n_down", "venture", "video_checkers", "video_chess",
    "video_cube", "video_pinball", "warlords", "wizard_of_wor", "word_zapper", "yars_revenge",
    "zaxxon",
)  # fmt: skip

LEGACY_GAMES: tuple[str, ...] = (
    "adventure", "air_raid", "alien", "amidar", "assault", "asterix", "asteroids", "atlantis",
    "bank_heist", "battle_zone", "beam_rider", "berzerk", "bowling", "boxing", "breakout",
    "carnival", "centipede", "chopper_command", "crazy_climber", "defender", "demon_attack",
    "double_dunk", "elevator_action", "enduro", "fishing_derby", "freeway", "frostbite",
    "gopher", "gravitar", "hero", "ice_hockey", "jamesbond", "journey_escape", "kangaroo",
    "krull", "kung_fu_master", "montezuma_revenge", "ms_pacman", "name_this_game", "phoenix",
    "pitfall", "pong", "pooyan", "private_eye", "qbert", "riverraid", "road_runner",
    "robotank", "seaquest", "skiing", "solaris", "space_invaders", "star_gunner", "tennis",
    "time_pilot", "tutankham", "up_n_down", "venture", "video_pinball", "wizard_of_wor",
    "yars_revenge", "zaxxon",
)  # fmt: skip

MULTIPLAYER_ONLY: frozenset[str] = frozenset({"combat", "joust", "maze_craze", "warlords"})

V5_GAMES: tuple[str, ...] = tuple(rom for rom in ROMS if rom not in MULTIPLAYER_ONLY)


def game_name(rom: str) -> str:
    """The id spelling of a ROM: ``space_invaders`` -> ``SpaceInvaders`` (ale-py's rule)."""
    return rom.title().replace("_", "")


def suggest_games(game: str) -> list[str]:
    """ROMs spelled like `game`, also when it is written as an id name (``SpaceInvaders``)."""
    by_name = {game_name(rom).lower(): rom for rom in ROMS}
    wanted = game.lower()
    if wanted in by_name:
        return [by_name[wanted]]
    close = difflib.get_close_matches(wanted, ROMS, n=3, cutoff=0.6)
    return close or [by_name[n] for n in difflib.get_close_matches(wanted, by_name, n=3)]
