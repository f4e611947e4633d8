"""Utilities: seeding, the environment checker alias, play and video helpers."""
