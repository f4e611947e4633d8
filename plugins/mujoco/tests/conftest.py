"""Settings for the MuJoCo tests: frames come from EGL (Mesa's software renderer, no display),
the human window from SDL's dummy video driver, and no test needs a sound card."""

import os

os.environ.setdefault("MUJOCO_GL", "egl")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
