"""The public names of `protogym.spaces` resolve, and importing the package stays cheap."""

from __future__ import annotations

import subprocess
import sys

import pytest

import protogym
from protogym import spaces


def test_every_exported_name_resolves() -> None:
    for name in spaces.__all__:
        assert getattr(spaces, name) is not None, name
    assert spaces.utils.flatten is spaces.flatten
    assert spaces.vector_utils.batch_space is spaces.batch_space
    assert protogym.spaces.Box is spaces.Box
    assert spaces.Space in spaces.Box.__mro__


def test_unknown_names_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match="has no attribute 'Boxx'"):
        spaces.Boxx  # noqa: B018


def test_importing_the_protocol_does_not_import_numpy() -> None:
    code = "import sys, protogym.spaces; print('numpy' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
