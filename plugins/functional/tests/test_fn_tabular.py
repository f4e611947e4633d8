"""The functional Blackjack and CliffWalking against the toy-text rules: dealt hands with
known outcomes, the payout params traced under jit, the outcome distribution of a fixed
policy, and CliffWalking step for step against toy-text's `CliffWalking-v0`."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from protogym_functional.tabular.blackjack import BlackjackFunctional, BlackJackParams, EnvState
from protogym_functional.tabular.cliffwalking import CliffWalkingFunctional
from protogym_functional.tabular.frozen_lake import FrozenLakeFunctional, FrozenLakeParams
from protogym_functional.tabular.taxi import TaxiFunctional, decode, encode
from protogym_toy_text.cliff_walking import CliffWalkingEnv
from protogym_toy_text.frozen_lake import FrozenLakeEnv
from protogym_toy_text.taxi import TaxiV3Env

import protogym
from protogym.spaces import Discrete

pytestmark = pytest.mark.jax

STICK, HIT = 0, 1


def hands(player: list[int], dealer: list[int]) -> EnvState:
    """A state with these cards dealt (the rest of each hand empty)."""

    def hand(cards: list[int]) -> jax.Array:
        return jnp.zeros(21, jnp.float32).at[: len(cards)].set(jnp.array(cards, jnp.float32))

    return EnvState(
        dealer_hand=hand(dealer),
        player_hand=hand(player),
        dealer_cards=jnp.int32(len(dealer)),
        player_cards=jnp.int32(len(player)),
        done=jnp.int32(0),
    )


_ENV = BlackjackFunctional()


@jax.jit
def _step(state: EnvState, action: int, key: jax.Array, params: BlackJackParams) -> Any:
    next_state = _ENV.transition(state, action, key, params)
    return next_state, _ENV.reward(state, action, next_state, key, params)


def outcome(state: EnvState, action: int, params: BlackJackParams, seed: int = 0) -> Any:
    """The state after `action` and its reward (one compiled step for every test)."""
    next_state, reward = _step(state, action, jax.random.key(seed), params)
    return next_state, float(reward)


@pytest.mark.parametrize(
    ("params", "paid"),
    [
        (BlackJackParams(natural=False, sutton_and_barto=True), 1.0),
        (BlackJackParams(natural=True, sutton_and_barto=False), 1.5),
        (BlackJackParams(natural=False, sutton_and_barto=False), 1.0),
        (BlackJackParams(natural=True, sutton_and_barto=True), 1.0),  # sab overrides natural
    ],
)
def test_a_natural_against_a_dealer_on_17(params: BlackJackParams, paid: float) -> None:
    next_state, reward = outcome(hands([1, 10], [10, 7]), STICK, params)
    assert reward == paid
    assert bool(BlackjackFunctional().terminal(next_state, None))
    assert int(next_state.dealer_cards) == 2  # 17 stands


def test_two_naturals_draw() -> None:
    for params in (BlackJackParams(), BlackJackParams(natural=True, sutton_and_barto=False)):
        assert outcome(hands([10, 1], [1, 10]), STICK, params)[1] == 0.0


def test_the_payout_rules_are_traced_params() -> None:
    env = BlackjackFunctional()
    state, key = hands([1, 10], [10, 7]), jax.random.key(0)
    traces = 0

    @jax.jit
    def paid(params: BlackJackParams) -> jax.Array:
        nonlocal traces
        traces += 1
        return env.reward(state, STICK, env.transition(state, STICK, key, params), key, params)

    assert float(paid(BlackJackParams(natural=True, sutton_and_barto=False))) == 1.5
    assert float(paid(BlackJackParams(natural=False, sutton_and_barto=True))) == 1.0
    assert traces == 1  # one compiled program for both rules


def test_the_dealer_draws_to_17_and_a_bust_loses() -> None:
    env = BlackjackFunctional()
    keys = jax.random.split(jax.random.key(1), 256)
    start = hands([10, 9], [10, 2])
    after = jax.jit(jax.vmap(lambda key: env.transition(start, STICK, key)))(keys)
    totals = jax.vmap(lambda hand: jnp.sum(hand))(after.dealer_hand)
    aces = jax.vmap(lambda hand: jnp.any(hand == 1))(after.dealer_hand)
    soft = np.asarray(aces & (totals + 10 <= 21))
    final = np.where(soft, np.asarray(totals) + 10, np.asarray(totals))
    assert (final >= 17).all() and (np.asarray(after.dealer_cards) >= 3).all()
    # the last card drawn is what took the hand to 17 or more
    before_last = final - np.asarray(after.dealer_hand)[np.arange(256), after.dealer_cards - 1]
    assert (before_last[~soft] < 17).all()
    busted, reward = outcome(hands([10, 9, 5], [10, 2]), STICK, BlackJackParams())
    assert reward == -1.0  # a bust hand scores 0 whatever the dealer does
    hit, reward = outcome(hands([10, 9], [10, 2]), HIT, BlackJackParams(), seed=3)
    total = int(BlackjackFunctional().observation(hit)[0])
    assert (reward, bool(hit.done)) == ((-1.0, True) if total > 21 else (0.0, False))


def _stand_on_17(total: int) -> int:
    return HIT if total < 17 else STICK


@pytest.mark.slow
def test_outcomes_match_toy_text_blackjack() -> None:
    """The mean reward of 'hit below 17' over 20,000 hands, against toy-text's `Blackjack-v1`
    (same rules, its own random stream): equal within four standard errors."""
    episodes = 20_000
    classic = protogym.make("Blackjack-v1")
    classic_rewards = []
    for seed in range(episodes):
        (total, _, _), _ = classic.reset(seed=seed)
        done, reward = False, 0.0
        while not done:
            (total, _, _), paid, done, _, _ = classic.step(_stand_on_17(total))
            reward = float(paid)
        classic_rewards.append(reward)
    env = BlackjackFunctional()

    def episode(key: jax.Array) -> jax.Array:
        key, init = jax.random.split(key)

        def turn(carry: tuple[EnvState, Any], step_key: jax.Array) -> Any:
            state, paid = carry
            action = jnp.where(env.observation(state)[0] < 17, HIT, STICK)
            next_state = env.transition(state, action, step_key)
            reward = jnp.where(state.done > 0, 0.0, env.reward(state, action, next_state))
            next_state = jax.tree.map(
                lambda old, new: jnp.where(state.done > 0, old, new), state, next_state
            )
            return (next_state, paid + reward), None

        start = (env.initial(init), jnp.zeros((), jnp.float32))
        (_, paid), _ = jax.lax.scan(turn, start, jax.random.split(key, 12))
        result: jax.Array = paid
        return result

    ours = np.asarray(jax.jit(jax.vmap(episode))(jax.random.split(jax.random.key(0), episodes)))
    theirs = np.asarray(classic_rewards)
    error = np.sqrt(ours.var() / episodes + theirs.var() / episodes)
    assert abs(ours.mean() - theirs.mean()) < 4 * error
    assert set(np.unique(ours)) <= {-1.0, 0.0, 1.0}


def test_cliffwalking_matches_toy_text_step_for_step() -> None:
    env = CliffWalkingFunctional()
    assert env.action_space == Discrete(4)
    step = jax.jit(
        lambda s, a: (lambda n: (n, env.observation(n), env.reward(s, a, n), env.terminal(n)))(
            env.transition(s, a)
        )
    )
    classic = CliffWalkingEnv()  # what CliffWalking-v0 makes, without the time limit
    obs, _ = classic.reset(seed=0)
    state = env.initial()
    rng = np.random.default_rng(0)
    # mostly rightward and downward moves, so the walk meets the cliff and the goal
    actions = rng.choice(4, size=3000, p=[0.2, 0.35, 0.3, 0.15])
    goals = falls = 0
    for action in actions.tolist():
        obs, reward, terminated, _, _ = classic.step(action)
        state, ours, our_reward, our_terminal = step(state, action)
        assert (int(ours[0]), float(our_reward), bool(our_terminal)) == (obs, reward, terminated)
        falls += reward == -100
        if terminated:
            goals += 1
            obs, _ = classic.reset()
            state = env.initial()
    assert goals > 0 and falls > 0


@pytest.mark.parametrize("map_name", ["4x4", "8x8"])
def test_a_dry_frozen_lake_matches_toy_text_step_for_step(map_name: str) -> None:
    env = FrozenLakeFunctional(map_name=map_name)
    params = FrozenLakeParams(is_slippery=False)
    step = jax.jit(
        lambda s, a, k: (lambda n: (n, env.reward(s, a, n, k, params), env.terminal(n)))(
            env.transition(s, a, k, params)
        )
    )
    classic = FrozenLakeEnv(map_name=map_name, is_slippery=False)
    classic.reset(seed=0)
    key = jax.random.key(0)
    state = env.initial(key)
    rng = np.random.default_rng(1)
    ends = 0
    # rightward and downward moves more often, so walks reach holes and the goal
    for action in rng.choice(4, size=2000, p=[0.15, 0.35, 0.35, 0.15]).tolist():
        key, step_key = jax.random.split(key)
        obs, reward, terminated, _, _ = classic.step(action)
        state, ours, our_terminal = step(state, action, step_key)
        assert (int(state), float(ours), bool(our_terminal)) == (obs, reward, terminated)
        if terminated:
            ends += 1
            classic.reset()
            state = env.initial(step_key)
    assert ends > 10


def test_a_slippery_lake_slides_sideways_a_third_of_the_time_each() -> None:
    env = FrozenLakeFunctional()
    keys = jax.random.split(jax.random.key(2), 6000)
    # from cell 5's neighbour 6 (row 1, col 2), "down" lands on 10, or slips to 5 or 7
    landed = np.asarray(jax.jit(jax.vmap(lambda key: env.transition(jnp.int32(6), 1, key)))(keys))
    counts = {cell: int((landed == cell).sum()) for cell in (5, 7, 10)}
    assert sum(counts.values()) == 6000
    for count in counts.values():  # 2000 expected each; 4 standard deviations is 146
        assert abs(count - 2000) < 146
    assert int(env.transition(jnp.int32(5), 2, keys[0])) == 5  # a hole keeps the agent
    assert float(env.reward(jnp.int32(14), 2, jnp.int32(15))) == 1.0


def _taxi_driver() -> Any:
    """A driver that takes the shortest way (around the walls) to the passenger, then to
    the destination: {(cell, target pad): action}, by breadth-first search from each pad."""
    pads = [(0, 0), (0, 4), (4, 0), (4, 3)]
    moves = {0: (1, 0), 1: (-1, 0), 2: (0, 1), 3: (0, -1)}
    probe = TaxiV3Env()
    probe.reset(seed=0)

    def neighbour(cell: tuple[int, int], action: int) -> tuple[int, int]:
        probe.s = int(encode(cell[0], cell[1], 0, 1))
        row, col, _, _ = decode(jnp.int32(probe.step(action)[0]))
        return int(row), int(col)

    best: dict[tuple[tuple[int, int], int], int] = {}
    for target, pad in enumerate(pads):
        seen, frontier = {pad}, [pad]
        while frontier:
            later = []
            for cell in [(r, c) for r in range(5) for c in range(5) if (r, c) not in seen]:
                for action in moves:
                    if neighbour(cell, action) in frontier:
                        best[(cell, target)] = action
                        later.append(cell)
                        break
            seen.update(later)
            frontier = later
    return best


@pytest.mark.slow  # 3,000 steps of each library, and the driver's table from toy-text
def test_taxi_matches_toy_text_step_for_step() -> None:
    """From the functional env's start states, half the actions random and half a driver's
    who delivers, so every reward and the episode's end come up."""
    env = TaxiFunctional()
    step = jax.jit(
        lambda s, a: (lambda n: (n, env.reward(s, a, n), env.terminal(n)))(env.transition(s, a))
    )
    classic = TaxiV3Env()
    classic.reset(seed=0)
    key = jax.random.key(0)
    state = env.initial(key)
    classic.s = int(state)
    rng = np.random.default_rng(2)
    driver = _taxi_driver()
    pads = [(0, 0), (0, 4), (4, 0), (4, 3)]
    rewards: set[float] = set()
    deliveries = 0
    for _ in range(3000):
        row, col, passenger, destination = (int(x) for x in decode(state))
        target = destination if passenger == 4 else passenger
        if rng.random() < 0.5:
            action = int(rng.integers(6))
        elif (row, col) == pads[target]:
            action = 5 if passenger == 4 else 4
        else:
            action = driver[((row, col), target)]
        obs, reward, terminated, _, _ = classic.step(action)
        state, ours, our_terminal = step(state, action)
        assert (int(state), float(ours), bool(our_terminal)) == (obs, reward, terminated)
        rewards.add(float(reward))
        if terminated:
            deliveries += 1
            key, start_key = jax.random.split(key)
            state = env.initial(start_key)
            classic.s = int(state)
    assert rewards == {-1.0, -10.0, 20.0} and deliveries > 0
    starts = jax.vmap(env.initial)(jax.random.split(jax.random.key(1), 2000))
    _, _, waiting, going = decode(starts)
    assert bool(jnp.all((waiting < 4) & (waiting != going)))
    assert len(np.unique(np.asarray(starts))) > 250  # of the 300 possible starts


def test_bad_params_name_the_known_ones() -> None:
    with pytest.raises(TypeError, match=r"BlackJackParams has no parameter.*'sab'.*natural"):
        BlackjackFunctional().get_default_params(sab=True)
    with pytest.raises(TypeError, match="CliffWalkingFunctional has no params"):
        CliffWalkingFunctional().get_default_params(slippery=True)
    with pytest.raises(TypeError, match="has no parameter"):
        protogym.make("tabular/Blackjack-v0", sab=True)
    with pytest.raises(ValueError, match="no map '5x5'"):
        FrozenLakeFunctional(map_name="5x5")
    with pytest.raises(ValueError, match="equal-length rows"):
        FrozenLakeFunctional(desc=["SF", "FHG"])
