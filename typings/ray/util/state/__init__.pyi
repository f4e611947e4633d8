from typing import Any

class ActorState:
    actor_id: str
    state: str
    pid: int | None
    node_id: str | None
    class_name: str

def list_actors(
    address: str | None = None,
    filters: list[tuple[str, str, str | bool | int | float]] | None = None,
    limit: int = 100,
    timeout: int = 30,
    detail: bool = False,
    raise_on_missing_output: bool = True,
    **kwargs: Any,
) -> list[ActorState]: ...
