"""Blackjack as a functional env: pure jax functions of an explicit state and key.

The rules of protogym's toy-text `Blackjack-v1` (an infinite deck; the dealer draws to 17;
`natural` pays 1.5 for a winning natural, `sutton_and_barto` makes a player's natural win
unless the dealer has one too and overrides `natural`). Both rules are params read with
`jnp.where`, so unlike Gymnasium's version (which tests them with Python `if`) the params
can be a traced argument of a jitted function. The state layout is Gymnasium's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax.typing import ArrayLike
from numpy.typing import NDArray

from protogym.envs.functional_jax_env import FunctionalJaxEnv, FunctionalJaxVectorEnv
from protogym.functional import FuncEnv
from protogym.spaces import Box, Discrete, Space
from protogym.vector.vector_env import AutoresetMode
from protogym_functional._adapters import configured, single_metadata, vector_metadata
from protogym_functional._checks import make_params, no_render_options

if TYPE_CHECKING:
    from protogym_toy_text._render import Canvas

__all__ = [
    "BlackJackJaxEnv",
    "BlackJackJaxVectorEnv",
    "BlackJackParams",
    "BlackjackFunctional",
    "EnvState",
    "dealer_plays",
]

# Card values of one suit: ace (1), 2-9, and four ten-valued cards.
_DECK = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10], dtype=np.float32)
_HAND_SIZE = 21  # more cards than any hand can hold before it busts or stands
# How a frame shows the dealer's face-up card, of which the state holds only the value.
_SHOWN_SUIT, _SHOWN_TEN = "S", "K"


class EnvState(NamedTuple):
    """Both hands as fixed-size arrays of card values (0 for an empty slot), how many cards
    each holds, and whether the game is over (1) or not (0)."""

    dealer_hand: jax.Array  # float32, shape (21,)
    player_hand: jax.Array  # float32, shape (21,)
    dealer_cards: jax.Array  # int32
    player_cards: jax.Array  # int32
    done: jax.Array  # int32


class BlackJackParams(NamedTuple):
    """The payout rules (a pytree of two bools: jit may trace it)."""

    natural: bool = False
    sutton_and_barto: bool = True


def draw_card(key: jax.Array) -> jax.Array:
    """One card's value, drawn with replacement."""
    return jnp.asarray(_DECK)[jax.random.randint(key, (), 0, len(_DECK))]


def usable_ace(hand: jax.Array) -> jax.Array:
    """Whether the hand holds an ace that can count 11 without busting."""
    return jnp.any(hand == 1) & (jnp.sum(hand) + 10 <= 21)


def sum_hand(hand: jax.Array) -> jax.Array:
    """The hand's total, counting a usable ace as 11."""
    return (jnp.sum(hand) + 10 * usable_ace(hand)).astype(jnp.int32)


def score(hand: jax.Array) -> jax.Array:
    """The hand's total, or 0 if it is bust."""
    total = sum_hand(hand)
    return jnp.where(total > 21, 0, total)


def is_natural(hand: jax.Array) -> jax.Array:
    """Whether the hand is exactly an ace and a ten-valued card."""
    return (jnp.count_nonzero(hand) == 2) & jnp.any(hand == 1) & jnp.any(hand == 10)


def _deal(key: jax.Array) -> jax.Array:
    first, second = jax.random.split(key)
    hand = jnp.zeros(_HAND_SIZE, jnp.float32)
    return hand.at[0].set(draw_card(first)).at[1].set(draw_card(second))


_Draws = tuple[jax.Array, jax.Array, jax.Array]  # a hand, its card count, a key


def _below_17(carry: _Draws) -> jax.Array:
    return sum_hand(carry[0]) < 17


def _draw_into(carry: _Draws) -> _Draws:
    hand, cards, key = carry
    key, card_key = jax.random.split(key)
    return hand.at[cards].set(draw_card(card_key)), cards + 1, key


def dealer_plays(hand: jax.Array, cards: jax.Array, key: jax.Array) -> _Draws:
    """The dealer draws until the hand is worth 17 or more: the hand, its card count and
    the key left over."""
    return jax.lax.while_loop(_below_17, _draw_into, (hand, cards, key))


class BlackjackFunctional(
    FuncEnv[EnvState, jax.Array, ArrayLike, jax.Array, jax.Array, "Canvas", BlackJackParams]
):
    """Beat the dealer's total without going over 21: +1 for a win, -1 for a loss, 0 for a
    draw (1.5 for a winning natural under `natural`).

    Observation: int32 `[player's total, dealer's showing card (1-10, 1 is the ace), usable
    ace (0 or 1)]`. Action: 0 sticks (the dealer plays and the game ends), 1 hits.
    """

    observation_space: Space[Any] = Box(
        low=np.array([4, 1, 0]), high=np.array([31, 10, 1]), shape=(3,), dtype=np.int32
    )
    action_space = Discrete(2)
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["rgb_array"], "render_fps": 4}
    default_params: BlackJackParams

    def initial(self, rng: jax.Array, params: BlackJackParams | None = None) -> EnvState:
        player_key, dealer_key = jax.random.split(rng)
        return EnvState(
            dealer_hand=_deal(dealer_key),
            player_hand=_deal(player_key),
            dealer_cards=jnp.int32(2),
            player_cards=jnp.int32(2),
            done=jnp.int32(0),
        )

    def transition(
        self,
        state: EnvState,
        action: ArrayLike,
        rng: jax.Array,
        params: BlackJackParams | None = None,
    ) -> EnvState:
        """A hit draws the player a card (the game ends if it busts); a stick lets the
        dealer play and ends the game."""
        hit = jnp.asarray(action) == 1
        hit_key, dealer_key = jax.random.split(rng)
        hit_hand = state.player_hand.at[state.player_cards].set(draw_card(hit_key))
        # Both outcomes are computed and one is selected, as vmap does with a branch anyway.
        played_hand, played_cards, _ = dealer_plays(
            state.dealer_hand, state.dealer_cards, dealer_key
        )
        dealer_hand = jnp.where(hit, state.dealer_hand, played_hand)
        dealer_cards = jnp.where(hit, state.dealer_cards, played_cards)
        player_hand = jnp.where(hit, hit_hand, state.player_hand)
        done = jnp.where(hit, sum_hand(player_hand) > 21, True)
        return EnvState(
            dealer_hand=dealer_hand,
            player_hand=player_hand,
            dealer_cards=dealer_cards.astype(jnp.int32),
            player_cards=(state.player_cards + hit).astype(jnp.int32),
            done=done.astype(jnp.int32),
        )

    def observation(
        self, state: EnvState, rng: Any = None, params: BlackJackParams | None = None
    ) -> jax.Array:
        hand = state.player_hand
        return jnp.stack(
            [sum_hand(hand), state.dealer_hand[0].astype(jnp.int32), usable_ace(hand)]
        ).astype(jnp.int32)

    def terminal(
        self, state: EnvState, rng: Any = None, params: BlackJackParams | None = None
    ) -> jax.Array:
        return state.done > 0

    def reward(
        self,
        state: EnvState,
        action: ArrayLike,
        next_state: EnvState,
        rng: Any = None,
        params: BlackJackParams | None = None,
    ) -> jax.Array:
        """-1 for a bust; after a stick, the comparison of the scores, with the natural
        rules applied; 0 for a hit that does not bust."""
        p = self.default_params if params is None else params
        player, dealer = next_state.player_hand, next_state.dealer_hand
        mine, theirs = score(player), score(dealer)
        outcome = (mine > theirs).astype(jnp.float32) - (mine < theirs).astype(jnp.float32)
        player_natural = is_natural(player)
        sab_win = p.sutton_and_barto & player_natural & ~is_natural(dealer)
        natural_bonus = ~p.sutton_and_barto & p.natural & player_natural & (outcome == 1.0)
        stick = jnp.where(sab_win, 1.0, jnp.where(natural_bonus, 1.5, outcome))
        hit = jnp.where(sum_hand(player) > 21, -1.0, 0.0)
        return jnp.where(jnp.asarray(action) == 1, hit, stick).astype(jnp.float32)

    def get_default_params(self, **kwargs: Any) -> BlackJackParams:
        """`BlackJackParams` with `kwargs` replacing its defaults."""
        return make_params(BlackJackParams, kwargs)

    def render_init(self, params: BlackJackParams | None = None, **kwargs: Any) -> Canvas:
        """An off-screen canvas of the toy-text Blackjack's frame size."""
        from protogym_functional.tabular._render import blackjack, open_canvas

        no_render_options("BlackjackFunctional", kwargs)
        return open_canvas("Blackjack", blackjack.FRAME_SIZE, self.metadata["render_fps"])

    def render_image(
        self, state: EnvState, render_state: Canvas, params: BlackJackParams | None = None
    ) -> tuple[Canvas, NDArray[np.uint8]]:
        """The toy-text Blackjack's frame of `state`. The state holds card values only, so the
        dealer's face-up card is drawn as a spade, and a ten-valued one as a king."""
        from protogym_functional.tabular._render import blackjack, finish

        player = np.asarray(state.player_hand)[: int(state.player_cards)].astype(int).tolist()
        dealer_card = int(state.dealer_hand[0])
        label = {1: "A", 10: _SHOWN_TEN}.get(dealer_card, str(dealer_card))
        blackjack.draw_table(render_state.surface(), player, dealer_card, label, _SHOWN_SUIT)
        return render_state, finish(render_state)

    def render_close(self, render_state: Canvas, params: BlackJackParams | None = None) -> None:
        render_state.close()


class BlackJackJaxEnv(FunctionalJaxEnv[jax.Array, ArrayLike]):
    """Beat the dealer without going over 21 (`BlackjackFunctional` through the
    `Env` API); keyword arguments replace fields of its `BlackJackParams`."""

    metadata = single_metadata(BlackjackFunctional.metadata)

    def __init__(self, render_mode: str | None = None, **params: Any) -> None:
        func_env = configured(BlackjackFunctional(), params)
        super().__init__(func_env, metadata=dict(self.metadata), render_mode=render_mode)


class BlackJackJaxVectorEnv(
    FunctionalJaxVectorEnv[jax.Array, ArrayLike, NDArray[np.int32], ArrayLike]
):
    """`num_envs` Blackjacks as one compiled `VectorEnv`: a time limit of
    `max_episode_steps` (0: none), next-step autoreset unless `autoreset_mode` says
    otherwise; keyword arguments replace the default params."""

    metadata = vector_metadata(BlackjackFunctional.metadata)

    def __init__(
        self,
        num_envs: int,
        render_mode: str | None = None,
        max_episode_steps: int = 0,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **params: Any,
    ) -> None:
        func_env = configured(BlackjackFunctional(), params)
        super().__init__(
            func_env,
            num_envs,
            max_episode_steps,
            metadata=vector_metadata(BlackjackFunctional.metadata, autoreset_mode),
            render_mode=render_mode,
        )
