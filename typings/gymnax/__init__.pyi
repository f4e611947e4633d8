# Stubs for the parts of gymnax (which ships no types) that protogym.interop.gymnax uses.
from typing import Any

from gymnax import environments as environments
from gymnax.environments.environment import Environment
from gymnax.environments.environment import EnvParams as EnvParams
from gymnax.environments.environment import EnvState as EnvState

registered_envs: list[str]

def make(env_id: str, **env_kwargs: Any) -> tuple[Environment[Any, Any], Any]: ...
