"""Seeded numpy generators, created the same way everywhere so seeds mean the same thing.

`RandomNumberGenerator` (and its short name `RNG`) is numpy's `Generator`, as in Gymnasium;
this module imports numpy only when a generator is made or one of those names is read, so
importing protogym stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from protogym.error import InvalidSeed

if TYPE_CHECKING:
    import numpy as np

    RandomNumberGenerator = np.random.Generator
    RNG = np.random.Generator

__all__ = ["RNG", "InvalidSeed", "RandomNumberGenerator", "np_random"]


def np_random(seed: int | None = None) -> tuple[np.random.Generator, int]:
    """Return a PCG64 generator and the entropy it was seeded with.

    The same int gives the same stream as Gymnasium's ``np_random``; ``None`` draws fresh
    entropy from the OS, and that entropy is returned so the run can be reproduced. Any other
    seed raises `InvalidSeed` (an `error.Error`, a `ValueError` and a `TypeError`).
    """
    import numpy as np

    if seed is not None and not (isinstance(seed, int) and seed >= 0):
        raise InvalidSeed(
            f"a seed must be None or an int >= 0, got {seed!r} ({type(seed).__name__}); "
            "pass e.g. seed=42"
        )
    seed_seq = np.random.SeedSequence(seed)
    entropy = seed_seq.entropy
    assert isinstance(entropy, int)
    return np.random.Generator(np.random.PCG64(seed_seq)), entropy


def __getattr__(name: str) -> Any:
    if name in ("RandomNumberGenerator", "RNG"):
        import numpy as np

        return np.random.Generator
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
