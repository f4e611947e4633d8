"""Blackjack: parity with Gymnasium 1.4 under each rule set, scoring rules, text output."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.toy_text.blackjack import BlackjackEnv as ReferenceBlackjack
from protogym_toy_text.blackjack import BlackjackEnv

import protogym

RolloutCheck = Callable[[Any, Any, Sequence[int], int], tuple[int, int]]


def _actions(n: int, seed: int) -> list[int]:
    return [int(a) for a in np.random.default_rng(seed).integers(0, 2, n)]


@pytest.mark.parametrize(
    "kwargs", [{}, {"sab": False}, {"sab": False, "natural": True}, {"natural": True}]
)
@pytest.mark.parametrize("seed", [0, 99])
def test_tt_blackjack_parity_through_make(
    kwargs: dict[str, Any], seed: int, same_rollout: RolloutCheck
) -> None:
    ours = protogym.make("Blackjack-v1", **kwargs)
    theirs = gymnasium.make("Blackjack-v1", **kwargs)
    terminated, _ = same_rollout(ours, theirs, _actions(20_000, seed), seed)
    assert terminated > 5000


@pytest.mark.parametrize("kwargs", [{"sab": True}, {"natural": True}, {}])
def test_tt_blackjack_dealer_card_and_rewards_match(kwargs: dict[str, Any]) -> None:
    ours = BlackjackEnv(**kwargs)
    theirs: Any = ReferenceBlackjack(**kwargs)
    rewards = set()
    for seed in range(300):
        assert ours.reset(seed=seed) == theirs.reset(seed=seed)
        assert ours.dealer_top_card_suit == theirs.dealer_top_card_suit
        assert ours.dealer_top_card_value_str == theirs.dealer_top_card_value_str
        result = ours.step(0)
        assert result == theirs.step(0)
        assert ours.dealer == theirs.dealer
        rewards.add(result[1])
    assert rewards == ({-1.0, 0.0, 1.0, 1.5} if kwargs == {"natural": True} else {-1.0, 0.0, 1.0})


def _rigged(player: list[int], dealer: list[int], **kwargs: Any) -> BlackjackEnv:
    env = BlackjackEnv(**kwargs)
    env.reset(seed=0)
    env.player, env.dealer = list(player), list(dealer)
    return env


def test_tt_blackjack_natural_rules() -> None:
    # A natural against a dealer who reaches 21 with three cards: a push by the count ...
    assert _rigged([1, 10], [10, 5, 6]).step(0)[1] == 0.0
    # ... but an outright win under Sutton and Barto's rules,
    assert _rigged([1, 10], [10, 5, 6], sab=True).step(0)[1] == 1.0
    # and a win paid 1.5 with the casino's natural bonus when it beats the dealer.
    assert _rigged([1, 10], [10, 9], natural=True).step(0)[1] == 1.5
    assert _rigged([1, 10], [1, 10], sab=True).step(0)[1] == 0.0


def test_tt_blackjack_observation() -> None:
    env = _rigged([1, 6], [9, 9])
    assert env.step(0)[0] == (17, 9, 1)
    env = _rigged([10, 9], [9, 9])
    assert env.step(0) == ((19, 9, 0), 1.0, True, False, {})


def test_tt_blackjack_ansi() -> None:
    env = BlackjackEnv(render_mode="ansi")
    env.reset(seed=0)
    env.player = [1, 5]
    text = env.render()
    shown = f"{env.dealer_top_card_value_str}{env.dealer_top_card_suit}"
    assert text == f"Dealer: {shown} ??\nPlayer: A 5 = 16 (usable ace)\n"
