"""protogym's conformance suite over a sample of the Atari ids: every id family (v0, v4,
NoFrameskip v0/v4, ALE v5) with games of different action sets and lives. The contract
check renders in human mode, where the emulator paces itself at 60 frames a second, so the
sample stays small.

All 352 ids share one class, so the sample stands for them; the ids themselves are checked
against ale-py's registrations in test_atari_env.py. The vector-entry-point check compares a
native vector env with SyncVectorEnv over the single env, but the Atari vector env returns
preprocessed 84x84 stacks, not raw frames; the vector env has its own tests.
"""

from protogym.testing import CHECKS, conformance_tests

SAMPLE = [
    "Pong-v0",
    "Breakout-v4",
    "SpaceInvadersNoFrameskip-v0",
    "MsPacmanNoFrameskip-v4",
    "ALE/Tetris-v5",  # a game with v5 ids only
]

test_atari_conformance = conformance_tests(
    ids=SAMPLE, checks=[check for check in CHECKS if check != "vector-entry-point"]
)
