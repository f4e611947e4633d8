"""Utilities: seeding, the checkers' Gymnasium entry points, play, video and timing helpers.

The three names here (`colorize`, `EzPickle`, `RecordConstructorArgs`) are the ones
Gymnasium's ``gymnasium.utils`` exports; the rest live in their own modules
(`seeding`, `env_checker`, `passive_env_checker`, `play`, `save_video`, `performance`,
`env_match`, `step_api_compatibility`, and protogym's `lazy_exports`).
"""

from protogym.utils.colorize import colorize
from protogym.utils.ezpickle import EzPickle
from protogym.utils.record_constructor import RecordConstructorArgs

__all__ = ["EzPickle", "RecordConstructorArgs", "colorize"]
