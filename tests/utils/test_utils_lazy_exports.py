"""`lazy_exports`: a package's names load their modules on first access, once."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from protogym.utils.lazy_exports import lazy_exports


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """A package `lazy_pkg` whose `Thing` lives in `lazy_pkg.home`, not imported yet."""
    root = tmp_path / "lazy_pkg"
    root.mkdir()
    (root / "__init__.py").write_text(
        "from protogym.utils.lazy_exports import lazy_exports\n"
        "__all__ = ['Thing']\n"
        "__getattr__, __dir__ = lazy_exports(globals(), {'Thing': 'home'})\n"
    )
    (root / "home.py").write_text("class Thing:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("lazy_pkg", "lazy_pkg.home"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import lazy_pkg  # type: ignore[import-not-found]

    return lazy_pkg  # type: ignore[no-any-return]


def test_a_name_loads_its_module_on_first_access_and_stays(package: types.ModuleType) -> None:
    assert "lazy_pkg.home" not in sys.modules
    assert "Thing" in dir(package)
    thing = package.Thing
    assert "lazy_pkg.home" in sys.modules
    assert thing is sys.modules["lazy_pkg.home"].Thing
    assert vars(package)["Thing"] is thing  # later look-ups skip __getattr__


def test_an_unknown_name_is_an_attribute_error_naming_the_package(
    package: types.ModuleType,
) -> None:
    with pytest.raises(AttributeError, match="module 'lazy_pkg' has no attribute 'Thin'"):
        _ = package.Thin
    assert "lazy_pkg.home" not in sys.modules


def test_the_hooks_can_serve_a_namespace_directly() -> None:
    namespace = {"__name__": "protogym.utils"}
    module_getattr, module_dir = lazy_exports(namespace, {"colorize": "colorize"})
    assert module_getattr("colorize")("x", "red") == "\x1b[31mx\x1b[0m"
    assert module_dir() == ["__name__", "colorize"]
