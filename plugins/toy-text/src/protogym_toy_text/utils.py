"""Helpers of the toy-text envs that Gymnasium's ``toy_text.utils`` offers."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["categorical_sample"]


def categorical_sample(prob_n: ArrayLike, np_random: np.random.Generator) -> int:
    """An index drawn with probability `prob_n[index]`, from one uniform number of
    `np_random`: the first index whose cumulative probability exceeds the draw.

    This is how the tabular envs pick an initial state and an outcome, so a draw here
    consumes the generator as theirs do.
    """
    cumulative = np.cumsum(np.asarray(prob_n, dtype=np.float64))
    return int(np.argmax(cumulative > np_random.random()))
