from typing import Any

def actors(
    actor_id: str | None = None, job_id: Any = None, actor_state_name: str | None = None
) -> dict[str, dict[str, Any]]: ...
