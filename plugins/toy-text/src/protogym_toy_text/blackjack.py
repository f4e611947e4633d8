"""Blackjack: beat the dealer by getting closer to 21 without going over.

Example 5.1 of Sutton and Barto, with Gymnasium's rules and sampling: cards come from an
infinite deck (aces count 1 or 11, faces 10); the observation is (player's sum, dealer's
showing card 1-10, whether the player holds a usable ace). Actions: 0 stick, 1 hit. Going
over 21 loses (-1) at once; sticking plays the dealer out (draw to 17) and scores +1, 0 or -1.

``natural=True`` pays 1.5 for a winning natural (ace and a ten-card); ``sab=True`` (the
registered default, which overrides ``natural``) makes a player's natural win outright unless
the dealer has one too, as in the book.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from protogym.core import Env
from protogym.error import InvalidAction, ResetNeeded
from protogym.spaces import Discrete, Tuple
from protogym_toy_text._common import check_render_mode, warn_without_render_mode

if TYPE_CHECKING:
    import pygame

    from protogym.utils.play import KeyCombination
    from protogym_toy_text._render import Canvas

__all__ = [
    "FRAME_SIZE",
    "HIT",
    "STICK",
    "BlackjackEnv",
    "cmp",
    "deck",
    "draw_card",
    "draw_hand",
    "draw_table",
    "is_bust",
    "is_natural",
    "score",
    "sum_hand",
    "usable_ace",
]

STICK, HIT = 0, 1
_DECK = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_SUITS = ("C", "D", "H", "S")
_FACES = ("J", "Q", "K")
FRAME_SIZE = (480, 400)
"""A frame's (width, height) in pixels."""

Observation = tuple[int, int, int]


def _value(hand: list[int]) -> tuple[int, int]:
    """(best total, 1 if an ace counts as 11 else 0)."""
    total = sum(hand)
    if 1 in hand and total + 10 <= 21:
        return total + 10, 1
    return total, 0


# The rules as functions of a hand, under Gymnasium's names, for code that scores hands
# itself; the env folds the same rules into `_value`.

deck = list(_DECK)
"""The card values of one suit: an ace is 1, a face card 10."""


def cmp(a: float, b: float) -> float:
    """1.0 if `a` beats `b`, -1.0 if it loses, 0.0 on a tie."""
    return float(a > b) - float(a < b)


def draw_card(np_random: np.random.Generator) -> int:
    """One card's value from an infinite deck, drawn as the env draws it."""
    return _DECK[int(np_random.integers(0, 13))]


def draw_hand(np_random: np.random.Generator) -> list[int]:
    """Two cards."""
    return [draw_card(np_random), draw_card(np_random)]


def usable_ace(hand: list[int]) -> bool:
    """Whether an ace in `hand` can count 11 without going over 21."""
    return _value(hand)[1] == 1


def sum_hand(hand: list[int]) -> int:
    """The hand's best total (an ace counts 11 when that stays within 21)."""
    return _value(hand)[0]


def is_bust(hand: list[int]) -> bool:
    """Whether the hand's best total is over 21."""
    return sum_hand(hand) > 21


def score(hand: list[int]) -> int:
    """The hand's total, or 0 when it is bust."""
    total = sum_hand(hand)
    return 0 if total > 21 else total


def is_natural(hand: list[int]) -> bool:
    """Whether the hand is an ace and a ten-card, and nothing else."""
    return len(hand) == 2 and 1 in hand and 10 in hand


class BlackjackEnv(Env[Observation, int | np.integer[Any]]):
    """One hand of blackjack against a dealer who hits below 17."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "rgb_array", "ansi"],
        "render_fps": 4,
        "turn_based": True,  # `protogym play` steps once per key press
    }
    action_space: Discrete
    observation_space: Tuple
    render_mode: str | None

    def __init__(
        self, render_mode: str | None = None, natural: bool = False, sab: bool = False
    ) -> None:
        check_render_mode("Blackjack", render_mode, self.metadata["render_modes"])
        self.render_mode = render_mode
        self.action_space = Discrete(2)
        self.observation_space = Tuple((Discrete(32), Discrete(11), Discrete(2)))
        self.natural = natural
        self.sab = sab
        self.player: list[int] = []
        self.dealer: list[int] = []
        self.dealer_top_card_suit = ""
        self.dealer_top_card_value_str = ""
        self._human = render_mode == "human"
        self._canvas: Canvas | None = None

    def _draw(self) -> int:
        """One card, with the same generator call as Gymnasium's ``choice(deck)``."""
        return _DECK[int(self.np_random.integers(0, 13))]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        generator = self.np_random
        self.dealer = [_DECK[int(generator.integers(0, 13))] for _ in range(2)]
        self.player = [_DECK[int(generator.integers(0, 13))] for _ in range(2)]
        # The dealer's face-up card gets a suit (and a face, for a ten) for drawing; the
        # draws happen whether or not the env renders, so seeds match Gymnasium's.
        self.dealer_top_card_suit = _SUITS[int(generator.integers(0, 4))]
        shown = self.dealer[0]
        if shown == 1:
            self.dealer_top_card_value_str = "A"
        elif shown == 10:
            self.dealer_top_card_value_str = _FACES[int(generator.integers(0, 3))]
        else:
            self.dealer_top_card_value_str = str(shown)
        if self._human:
            self.render()
        total, ace = _value(self.player)
        return (total, shown, ace), {}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if not self.player:
            raise ResetNeeded(
                "BlackjackEnv.step() was called before reset(); call env.reset() first"
            )
        if action not in self.action_space:
            raise InvalidAction(
                f"BlackjackEnv.step got the invalid action {action!r}: the action space is "
                f"{self.action_space}, so pass 0 (stick) or 1 (hit)"
            )
        if action:
            self.player.append(self._draw())
            total, ace = _value(self.player)
            terminated = total > 21
            reward = -1.0 if terminated else 0.0
        else:
            terminated = True
            while _value(self.dealer)[0] < 17:
                self.dealer.append(self._draw())
            total, ace = _value(self.player)
            dealer_total = _value(self.dealer)[0]
            mine = 0 if total > 21 else total
            theirs = 0 if dealer_total > 21 else dealer_total
            reward = float(mine > theirs) - float(mine < theirs)
            if self.sab:
                if is_natural(self.player) and not is_natural(self.dealer):
                    reward = 1.0
            elif self.natural and reward == 1.0 and is_natural(self.player):
                reward = 1.5
        if self._human:
            self.render()
        return (total, self.dealer[0], ace), reward, terminated, False, {}

    def get_keys_to_action(self) -> dict[KeyCombination, int]:
        """Keys for `protogym.utils.play`: H to hit, S to stick."""
        return {"h": HIT, "s": STICK}

    def render(self) -> str | NDArray[np.uint8] | None:
        if self.render_mode is None:
            warn_without_render_mode(self.spec.id if self.spec is not None else "Blackjack")
            return None
        if not self.player:
            raise ResetNeeded(
                "BlackjackEnv.render() was called before reset(); call env.reset() first"
            )
        if self.render_mode == "ansi":
            return self._render_text()
        return self._render_frame()

    def _render_text(self) -> str:
        total, ace = _value(self.player)
        cards = " ".join("A" if card == 1 else str(card) for card in self.player)
        dealer = f"{self.dealer_top_card_value_str}{self.dealer_top_card_suit}"
        usable = " (usable ace)" if ace else ""
        return f"Dealer: {dealer} ??\nPlayer: {cards} = {total}{usable}\n"

    def _render_frame(self) -> NDArray[np.uint8] | None:
        from protogym_toy_text import _render as draw

        if self._canvas is None:
            mode = self.render_mode or "rgb_array"
            self._canvas = draw.Canvas(mode, FRAME_SIZE, "Blackjack", self.metadata["render_fps"])
        draw_table(
            self._canvas.surface(),
            self.player,
            self.dealer[0],
            self.dealer_top_card_value_str,
            self.dealer_top_card_suit,
        )
        return self._canvas.present()

    def close(self) -> None:
        if self._canvas is not None:
            self._canvas.close()
            self._canvas = None


def draw_table(
    surface: pygame.Surface,
    player: list[int],
    dealer_card: int,
    dealer_label: str,
    dealer_suit: str,
) -> None:
    """Draw a hand on a `FRAME_SIZE` surface: the dealer's face-up card (worth `dealer_card`,
    labelled `dealer_label`, of `dealer_suit`) beside a face-down one, and the `player`'s
    card values with their total. The functional Blackjack draws with it too."""
    from protogym_toy_text import _render as draw

    pygame = draw.pygame
    surface.fill((40, 120, 70))
    white, black, red = (250, 250, 245), (25, 25, 25), (200, 30, 40)

    def card(left: int, top: int, label: str, suit: str) -> None:
        rect = pygame.Rect(left, top, 70, 100)
        pygame.draw.rect(surface, white, rect, border_radius=8)
        pygame.draw.rect(surface, black, rect, 2, border_radius=8)
        colour = red if suit in ("D", "H") else black
        draw.draw_text(surface, label, (rect.centerx, rect.centery - 14), 40, colour, True)
        draw.draw_text(surface, suit, (rect.centerx, rect.centery + 24), 26, colour)

    total, ace = _value(player)
    draw.draw_text(surface, f"Dealer: {dealer_card}", (90, 30), 30, white, True)
    card(150, 50, dealer_label, dealer_suit)
    back = pygame.Rect(240, 50, 70, 100)
    pygame.draw.rect(surface, (40, 60, 150), back, border_radius=8)
    pygame.draw.rect(surface, white, back.inflate(-12, -12), 2, border_radius=6)
    draw.draw_text(surface, f"Player: {total}", (90, 200), 30, white, True)
    for index, value in enumerate(player[:6]):
        card(20 + 76 * index, 220, "A" if value == 1 else str(value), "")
    if ace:
        draw.draw_text(surface, "usable ace", (240, 360), 30, (250, 220, 90), True)
