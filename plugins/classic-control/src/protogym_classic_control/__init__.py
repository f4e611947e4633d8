"""protogym's classic-control envs: CartPole, MountainCar (discrete and continuous), Pendulum
and Acrobot, with Gymnasium 1.4's dynamics.

Import an env from its module (``from protogym_classic_control.cartpole import CartPoleEnv``)
or make it by id through protogym; this package imports nothing on its own, so plugin
discovery stays cheap.
"""

__version__ = "0.1.0"
