"""Puts the repository root on `sys.path`, so `tests.wrappers.wrapper_test_envs` imports the
same way for pytest as for mypy (which maps files to modules from the root); no display."""

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)
