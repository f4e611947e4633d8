"""Seeded numpy generators, created the same way everywhere so seeds mean the same thing."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def np_random(seed: int | None = None) -> tuple[np.random.Generator, int]:
    """Return a PCG64 generator and the entropy it was seeded with.

    The same int gives the same stream as Gymnasium's ``np_random``; ``None`` draws fresh
    entropy from the OS, and that entropy is returned so the run can be reproduced.
    """
    import numpy as np

    if seed is not None and not (isinstance(seed, int) and seed >= 0):
        raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
    seed_seq = np.random.SeedSequence(seed)
    entropy = seed_seq.entropy
    assert isinstance(entropy, int)
    return np.random.Generator(np.random.PCG64(seed_seq)), entropy
