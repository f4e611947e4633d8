"""Registers an id when imported, for the test of ``make("module:id")``: `make` imports this
module first, as Gymnasium does, and the mypy plugin reads the id from here."""

import protogym

protogym.register("DictTestImported-v0", entry_point="tests.core.core_test_envs:StructuralWalk")
