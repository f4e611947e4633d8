"""Plugin discovery end to end: real distributions installed into a temporary site folder.

Each scenario runs in a fresh interpreter, because discovery happens once per process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent.parent / "fixtures" / "plugin_packages"


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """acme-envs, broken-plugin and clashing-plugin, pip-installed into one folder."""
    site = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
            "--no-build-isolation", "--no-index", "--target", str(site),
            *(str(FIXTURES / name) for name in ("acme-envs", "broken-plugin", "clashing-plugin")),
        ],
        check=True,
        capture_output=True,
    )
    return site


def run_python(site: Path, code: str, **env_vars: str) -> Any:
    """Run `code` with `site` on the path; it prints one JSON document, which is returned."""
    env = {key: value for key, value in os.environ.items() if key != "PROTOGYM_PLUGINS"}
    env.update(PYTHONPATH=str(site), **env_vars)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


MAKE_ACME = """
import json, sys, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import protogym
    imported_on_import = "acme_envs.plugin" in sys.modules
    # the namespaced ids of third parties (first-party Atari's are namespaced too: ALE/...)
    ids = sorted(i for i, s in protogym.registry.items()
                 if "/" in i and not (s.plugin or "").startswith("protogym-"))
    after_discovery = sorted(m for m in sys.modules if m.startswith("acme_envs"))
    env = protogym.make("acme/Corridor-v0")
    obs, info = env.reset(seed=0)
    steps = 0
    while True:
        obs, reward, terminated, truncated, info = env.step(1)
        steps += 1
        if terminated or truncated:
            break
print(json.dumps({
    "imported_on_import": imported_on_import,
    "ids": ids,
    "modules_after_discovery": after_discovery,
    "steps": steps, "obs": obs, "terminated": terminated, "truncated": truncated,
    "max_episode_steps": env.spec.max_episode_steps,
    "plugin": env.spec.plugin,
    "repr": repr(env),
    "warnings": [str(w.message) for w in caught if "plugin" in str(w.message)],
    "spec_json": env.spec.to_json(),
}))
"""


def test_third_party_env_is_made_with_its_spec(plugin_site: Path) -> None:
    result = run_python(plugin_site, MAKE_ACME)
    assert result["imported_on_import"] is False
    assert result["modules_after_discovery"] == ["acme_envs", "acme_envs.plugin"]
    # The corridor is 10 long, but acme registered max_episode_steps=7: TimeLimit truncates.
    assert (result["steps"], result["obs"]) == (7, 7)
    assert (result["terminated"], result["truncated"]) == (False, True)
    assert result["max_episode_steps"] == 7
    assert result["plugin"] == "acme-envs"
    assert result["repr"] == (
        "<TimeLimit<OrderEnforcing<PassiveEnvChecker<Corridor<acme/Corridor-v0>>>>>"
    )


def test_broken_and_clashing_plugins_are_named_and_the_rest_keeps_working(
    plugin_site: Path,
) -> None:
    result = run_python(plugin_site, MAKE_ACME)
    assert result["ids"] == ["acme/Corridor-v0", "acme/Corridor-v1", "clash/Own-v0"]
    clash, broken = sorted(result["warnings"])
    assert broken.startswith(
        "protogym plugin 'broken' from distribution 'broken-plugin' raised while registering "
        "and was skipped: RuntimeError: the broken plugin could not find its data files."
    )
    assert clash.startswith(
        "plugin 'clashing-plugin' tried to register 'acme/Corridor-v0', which 'acme-envs' "
        "already provides; the registration was ignored."
    )


def test_selection_variable_limits_or_disables_discovery(plugin_site: Path) -> None:
    code = (
        "import json, warnings\n"
        "warnings.simplefilter('error')\n"
        "import protogym\n"
        "print(json.dumps(sorted(i for i in protogym.registry if '/' in i)))\n"
    )
    assert run_python(plugin_site, code, PROTOGYM_PLUGINS="acme") == [
        "acme/Corridor-v0",
        "acme/Corridor-v1",
    ]
    assert run_python(plugin_site, code, PROTOGYM_PLUGINS="clashing-plugin") == [
        "acme/Corridor-v0",
        "clash/Own-v0",
    ]
    assert run_python(plugin_site, code, PROTOGYM_PLUGINS="none") == []


def test_registered_wrapper_applies_by_name_and_round_trips(plugin_site: Path) -> None:
    code = """
import json, warnings
warnings.simplefilter("ignore")
import protogym
from protogym import EnvSpec
env = protogym.make("acme/Corridor-v1", wrappers=[("acme/ScaleReward", {"scale": 3.0})])
env.reset(seed=0)
rewards = [env.step(1)[1] for _ in range(20)]
rebuilt = protogym.make(EnvSpec.from_json(env.spec.to_json()))
rebuilt.reset(seed=0)
rebuilt_rewards = [rebuilt.step(1)[1] for _ in range(20)]
print(json.dumps({"last": rewards[-1], "same": rewards == rebuilt_rewards,
                  "wrappers": [w.name for w in rebuilt.spec.additional_wrappers],
                  "kwargs": env.spec.kwargs}))
"""
    result = run_python(plugin_site, code)
    assert result == {
        "last": 3.0,
        "same": True,
        "wrappers": ["acme/ScaleReward"],
        "kwargs": {"length": 20},
    }


def test_unknown_namespace_lists_installed_plugins_namespaces(plugin_site: Path) -> None:
    code = """
import json
import protogym, warnings
warnings.simplefilter("ignore")
try:
    protogym.make("acne/Corridor-v0")
except protogym.error.UnregisteredEnv as exc:
    print(json.dumps(str(exc)))
"""
    message = run_python(plugin_site, code)
    assert message.startswith("no environment namespace 'acne' is registered")
    assert "'acme' (from acme-envs)" in message
    assert "'clash' (from clashing-plugin)" in message
