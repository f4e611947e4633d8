"""`pygame_fonts.font`: cached fonts that are never used after pygame shut them down.

Drawing with a `Font` of an earlier pygame session crashes the interpreter, so the checks
that draw after `pygame.quit()` and `pygame.init()` run in a child process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
pygame = pytest.importorskip("pygame")

from protogym.utils.pygame_fonts import font  # noqa: E402


def test_the_same_size_and_style_is_one_font_and_bold_is_another() -> None:
    assert font(20) is font(20)
    assert font(20, bold=True) is not font(20)
    assert font(20, bold=True).get_bold() and not font(20).get_bold()
    assert font(20, file=pygame.font.get_default_font()) is not font(20)


def test_pygame_quit_empties_the_cache_every_time() -> None:
    for _ in range(2):  # pygame drops its quit hooks once called: the hook is set again
        before = font(20)
        pygame.quit()
        pygame.init()
        assert font(20) is not before
    pygame.quit()


def test_fonts_shut_down_directly_start_afresh() -> None:
    before = font(20)
    pygame.font.quit()
    after = font(20)
    assert pygame.font.get_init() and after is not before
    assert after.render("ok", True, (0, 0, 0)).get_width() > 0


def test_drawing_after_quit_and_init_does_not_crash_the_process() -> None:
    code = textwrap.dedent(
        """
        import pygame
        from protogym.utils.pygame_fonts import font
        font(20).render("a", True, (0, 0, 0))
        for _ in range(3):
            pygame.quit()
            pygame.init()  # another library starts pygame again
            for n in range(200):
                font(20).render(f"frame {n}", True, (0, 0, 0))
        print("drawn")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, f"the child died with {done.returncode}: {done.stderr[-2000:]}"
    assert done.stdout.strip().endswith("drawn")
