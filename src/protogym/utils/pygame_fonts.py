"""pygame fonts that survive `pygame.quit()`.

A pygame `Font` belongs to the font session it was opened in. After `pygame.quit()` (which
Gymnasium's envs call in `close()`) and a later `pygame.init()`, drawing with an old `Font`
reads freed memory and kills the process. `font` keeps one `Font` per size and style, and
drops them all when pygame shuts down, so what it returns is always of the current session.
"""

from __future__ import annotations

import pygame

__all__ = ["font"]

_fonts: dict[tuple[str | None, int, bool], pygame.font.Font] = {}
_watching_quit = False


def _forget_fonts() -> None:
    """pygame calls this from `pygame.quit()`, once: its quit hooks are dropped after use."""
    global _watching_quit
    _fonts.clear()
    _watching_quit = False


def font(size: int, *, bold: bool = False, file: str | None = None) -> pygame.font.Font:
    """The `Font` of `file` (pygame's default font if None) at `size` points, cached.

    Fonts need no display. If font support is off (never started, or shut down with
    `pygame.font.quit()` or `pygame.quit()`), it is started afresh and the cache emptied.
    """
    global _watching_quit
    if not pygame.font.get_init():
        _fonts.clear()
        pygame.font.init()
    if not _watching_quit:
        pygame.register_quit(_forget_fonts)
        _watching_quit = True
    key = (file, size, bold)
    cached = _fonts.get(key)
    if cached is None:
        cached = pygame.font.Font(file, size)
        cached.set_bold(bold)
        _fonts[key] = cached
    return cached
