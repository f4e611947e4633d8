"""``gymnasium:[module:]id``: Gymnasium's version warnings reach the user, unknown ids get an
error that suggests what exists, and an old Gymnasium is named with the version needed."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import types
import warnings
from pathlib import Path

import pytest

import protogym
from protogym.error import UnregisteredEnv
from protogym.interop._optional import check_gymnasium_version


def test_an_old_version_warns_at_the_users_line_and_names_the_newest() -> None:
    with pytest.warns(DeprecationWarning) as caught:
        env = protogym.make("gymnasium:CartPole-v0")
    env.close()
    [warning] = [w for w in caught if "out of date" in str(w.message)]
    assert str(warning.message) == (
        "'gymnasium:CartPole-v0' is out of date; Gymnasium's registry has a newer version: "
        "'gymnasium:CartPole-v1'"
    )
    assert warning.filename == __file__


def test_the_newest_version_does_not_warn() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        protogym.make("gymnasium:CartPole-v1").close()


def test_an_id_without_version_takes_the_newest_with_a_warning() -> None:
    with pytest.warns(UserWarning, match=r"'gymnasium:CartPole' has no version; using .*"
                      r"'gymnasium:CartPole-v1'") as caught:
        env = protogym.make("gymnasium:CartPole")
    assert caught[0].filename == __file__
    assert env.spec is not None and env.spec.id == "gymnasium:CartPole-v1"
    env.close()


def test_a_missing_version_of_a_named_package_lists_the_versions_there_are() -> None:
    # ale_py is the third-party package the test extra installs: it registers ALE/Pong-v5.
    with pytest.raises(UnregisteredEnv) as info:
        protogym.make("gymnasium:ale_py:ALE/Pong-v9")
    message = str(info.value)
    assert "'Pong' in version" in message and "not 'ALE/Pong-v9'" in message
    assert "'gymnasium:ale_py:ALE/Pong-v5'" in message
    assert "name the package" not in message


def test_a_misspelt_id_of_a_named_package_suggests_close_ids_with_their_prefix() -> None:
    with pytest.raises(UnregisteredEnv) as info:
        protogym.make("gymnasium:ale_py:ALE/Pongg-v5")
    message = str(info.value)
    assert "even after importing 'ale_py'" in message
    assert "Did you mean 'gymnasium:ale_py:ALE/Pong-v5'" in message
    assert "name the package" not in message


def test_an_unknown_id_without_a_package_says_how_to_name_one() -> None:
    with pytest.raises(UnregisteredEnv, match=r"name the package first: "
                       r"'gymnasium:<package>:NoSuchEnv-v3'"):
        protogym.make("gymnasium:NoSuchEnv-v3")
    with pytest.raises(UnregisteredEnv, match=r"Did you mean 'gymnasium:CartPole-v1'"):
        protogym.make("gymnasium:CartPol-v1")


def _fake_gymnasium(version: str) -> types.ModuleType:
    module = types.ModuleType("gymnasium")
    module.__version__ = version  # type: ignore[attr-defined]
    module.__file__ = "/site-packages/gymnasium/__init__.py"
    return module


@pytest.mark.parametrize("version", ["0.29.1", "1.0.0", "0.26.3"])
def test_an_old_gymnasium_is_named_with_the_version_needed(version: str) -> None:
    with pytest.raises(ImportError) as info:
        check_gymnasium_version(_fake_gymnasium(version), "protogym.interop.gymnasium")
    message = str(info.value)
    assert f"gymnasium {version} is installed" in message
    assert "needs gymnasium 1.1 or newer" in message
    assert "not installed" not in message


@pytest.mark.parametrize("version", ["1.1.0", "1.4.0", "2.0.0a1"])
def test_a_new_enough_gymnasium_passes(version: str) -> None:
    check_gymnasium_version(_fake_gymnasium(version), "protogym.interop.gymnasium")


def test_importing_the_interop_with_gymnasium_0_29_says_so(tmp_path: Path) -> None:
    fake = tmp_path / "gymnasium"
    fake.mkdir()
    (fake / "__init__.py").write_text('__version__ = "0.29.1"\n')
    code = textwrap.dedent(
        """
        try:
            import protogym.interop.gymnasium
        except ImportError as error:
            print(error)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(tmp_path), "PATH": ""},
    )
    assert "needs gymnasium 1.1 or newer, but gymnasium 0.29.1 is installed" in result.stdout
