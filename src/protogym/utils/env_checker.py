"""`check_env` under the name the Gym and Gymnasium docs use: ``protogym.utils.env_checker``."""

from __future__ import annotations

from protogym.checker import CheckReport, ContractError, check_env

__all__ = ["CheckReport", "ContractError", "check_env"]
