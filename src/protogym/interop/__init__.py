"""Adapters between protogym and other reinforcement-learning libraries.

One module per foreign API (`gymnasium`, `dm_env`, `sb3`, `tianshou`, ...), each importing its
library only inside itself, so ``import protogym.interop`` costs nothing and needs no extra;
nothing in the core imports this package.
"""
