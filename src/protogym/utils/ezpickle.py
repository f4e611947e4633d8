"""`EzPickle`: pickle an object as the arguments that built it, for envs holding C handles."""

from __future__ import annotations

from typing import Any

__all__ = ["EzPickle"]


class EzPickle:
    """Pickles an object as its constructor arguments; unpickling calls the constructor again.

    Envs that own resources pickle cannot copy (an emulator, a physics engine, a window)
    subclass it and call ``EzPickle.__init__(self, *args, **kwargs)`` with the arguments
    they were built from. The copy is a fresh env built the same way, not a snapshot of
    the original's state.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._ezpickle_args = args
        self._ezpickle_kwargs = kwargs

    def __getstate__(self) -> dict[str, Any]:
        return {"_ezpickle_args": self._ezpickle_args, "_ezpickle_kwargs": self._ezpickle_kwargs}

    def __setstate__(self, state: dict[str, Any]) -> None:
        rebuilt = type(self)(*state["_ezpickle_args"], **state["_ezpickle_kwargs"])
        self.__dict__.update(rebuilt.__dict__)
