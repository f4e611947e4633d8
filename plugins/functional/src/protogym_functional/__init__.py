"""protogym's functional envs, written in jax: Gymnasium's `phys2d` and `tabular` envs (with
their bugs fixed) and functional Acrobot and MountainCar.

Modules mirror Gymnasium's paths: `protogym_functional.phys2d.cartpole` stands in for
`gymnasium.envs.phys2d.cartpole`, `protogym_functional.tabular.blackjack` for
`gymnasium.envs.tabular.blackjack`. Plugin discovery imports `protogym_functional.plugin`,
which runs this file first, so nothing here imports jax.
"""

__version__ = "0.1.0"
