"""`protogym new-plugin NAME`: write a plugin distribution that works as soon as it is installed.

The scaffold holds a typed, structural example env (it imports protogym only for its spaces),
the plugin module that registers it, tests that run protogym's conformance suite over the
distribution's ids and pin one trajectory, a pyproject with the entry point, `py.typed` and a
README. Nothing is written if any target file exists already.
"""

from __future__ import annotations

import argparse
import keyword
import re
from pathlib import Path
from typing import Any

# PEP 508 distribution names: letters, digits, '-', '_', '.', starting and ending alphanumeric.
_DISTRIBUTION_RE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$")
_CLASS_RE = re.compile(r"^[A-Z][A-Za-z0-9]*$")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "new-plugin",
        help="write a new env plugin distribution (package, env, tests, pyproject)",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument("name", help="the distribution name, e.g. acme-envs")
    parser.add_argument("--env", default="Corridor", help="the example env's class name")
    parser.add_argument("--dir", default=".", help="the folder to create NAME/ in")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        written = scaffold(args.name, args.env, Path(args.dir))
    except ValueError as error:
        print(f"protogym new-plugin: {error}")
        return 2
    root = written[0].parent
    print(f"wrote {len(written)} files under {root}")
    print(f"next: pip install -e {root}  &&  pytest {root / 'tests'}")
    return 0


def scaffold(name: str, env_class: str, parent: Path) -> list[Path]:
    """Write the plugin distribution `name` under `parent`; returns the files written."""
    package = package_name(name)
    if not _CLASS_RE.fullmatch(env_class) or keyword.iskeyword(env_class):
        raise ValueError(
            f"--env {env_class!r} is not a class name: use letters and digits, starting with "
            "a capital letter, e.g. Corridor"
        )
    env_id = f"{package}/{env_class}-v0"
    module = re.sub(r"(?<!^)(?=[A-Z])", "_", env_class).lower()
    root = parent / name
    files = {
        root / "pyproject.toml": _PYPROJECT,
        root / "README.md": _README,
        root / "src" / package / "__init__.py": _INIT,
        root / "src" / package / "py.typed": "",
        root / "src" / package / "plugin.py": _PLUGIN,
        root / "src" / package / f"{module}.py": _ENV,
        root / "tests" / "test_conformance.py": _CONFORMANCE_TEST,
        root / "tests" / f"test_{module}.py": _ENV_TEST,
    }
    existing = [str(path) for path in files if path.exists()]
    if existing:
        raise ValueError(f"refusing to overwrite existing files: {', '.join(existing)}")
    values = {
        "name": name,
        "package": package,
        "env_class": env_class,
        "module": module,
        "env_id": env_id,
    }
    for path, template in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(template.format(**values), encoding="utf-8")
    return list(files)


def package_name(name: str) -> str:
    """The import name of distribution `name` (``acme-envs`` -> ``acme_envs``), or ValueError."""
    if not _DISTRIBUTION_RE.fullmatch(name):
        raise ValueError(
            f"{name!r} is not a valid distribution name: use letters, digits, '-', '_' and "
            "'.', starting and ending with a letter or digit, e.g. acme-envs"
        )
    package = re.sub(r"[-.]+", "_", name).lower()
    if not package.isidentifier() or keyword.iskeyword(package) or package[0].isdigit():
        raise ValueError(
            f"{name!r} gives the package name {package!r}, which Python cannot import; start "
            "the name with a letter and avoid keywords"
        )
    if package in {"protogym", "gymnasium", "gym"}:
        raise ValueError(f"{name!r} would shadow the {package!r} package; choose another name")
    return package


_PYPROJECT = """\
[build-system]
requires = ["hatchling>=1.21"]
build-backend = "hatchling.build"

[project]
name = "{name}"
version = "0.1.0"
description = "{env_class} and friends: reinforcement-learning environments for protogym"
readme = "README.md"
requires-python = ">=3.11"
dependencies = ["protogym", "numpy>=1.26"]

[project.optional-dependencies]
test = ["protogym[testing]", "pytest>=8", "mypy>=1.11"]

# How protogym finds the envs: its plugin discovery reads this entry point.
[project.entry-points."protogym.plugins"]
{package} = "{package}.plugin"

[tool.hatch.build.targets.wheel]
packages = ["src/{package}"]

[tool.mypy]
strict = true
plugins = ["protogym.mypy"]

[tool.pytest.ini_options]
testpaths = ["tests"]
"""

_README = """\
# {name}

Reinforcement-learning environments for [protogym](https://pypi.org/project/protogym/).

```bash
pip install -e ".[test]"
pytest                      # protogym's conformance suite, and the env's own tests
protogym list               # shows {env_id}
protogym run {env_id} --episodes 3 --seed 0
```

```python
import protogym

env = protogym.make("{env_id}")
obs, info = env.reset(seed=0)
```
"""

_INIT = '''\
"""{name}: environments for protogym, registered through the `protogym.plugins` entry point.

Importing this package imports no env module, so protogym's plugin discovery stays cheap.
"""

__version__ = "0.1.0"
'''

_PLUGIN = '''\
"""The protogym plugin of {name}: registers the ids and nothing more.

Entry points are strings, so discovery imports this module only; `protogym.make` imports
the env's module when someone builds it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import protogym

if TYPE_CHECKING:
    from protogym.registration import Registry


@protogym.hookimpl
def protogym_register_envs(registry: Registry) -> None:
    registry.register(
        id="{env_id}",
        entry_point="{package}.{module}:{env_class}",
        max_episode_steps=100,
        reward_threshold=1.0,
    )
'''

_ENV = '''\
"""{env_class}: walk right along a corridor of `length` cells to reach its end.

A structural env: it inherits from nothing, and is an environment to protogym and to mypy
because it has the members of `protogym.Env`. The start cell is drawn at reset from a
generator seeded by `reset(seed=...)`; reaching the last cell gives reward 1 and ends the
episode.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from protogym.spaces import Discrete

LEFT, RIGHT = 0, 1


class {env_class}:
    """Observation: the agent's cell (0 .. length - 1). Actions: 0 left, 1 right."""

    metadata: ClassVar[dict[str, Any]] = {{"render_modes": ["ansi"], "render_fps": 4}}

    def __init__(self, length: int = 8, render_mode: str | None = None) -> None:
        if isinstance(length, bool) or not isinstance(length, int) or length < 2:
            raise ValueError(f"{env_class} length must be an int >= 2, got {{length!r}}")
        if render_mode not in (None, "ansi"):
            raise ValueError(
                f"{env_class} renders only 'ansi' (or None), got render_mode={{render_mode!r}}"
            )
        self.length = length
        self.render_mode = render_mode
        self.observation_space = Discrete(length)
        self.action_space = Discrete(2)
        self._rng = np.random.default_rng()
        self._cell: int | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.int64, dict[str, Any]]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._cell = int(self._rng.integers(0, self.length - 1))
        return np.int64(self._cell), {{}}

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[np.int64, float, bool, bool, dict[str, Any]]:
        if self._cell is None:
            raise RuntimeError("{env_class}.step() was called before reset(); call reset() first")
        if action not in (LEFT, RIGHT):
            raise ValueError(
                f"{env_class}.step got the action {{action!r}}; pass 0 (left) or 1 (right)"
            )
        move = 1 if action == RIGHT else -1
        self._cell = min(max(self._cell + move, 0), self.length - 1)
        terminated = self._cell == self.length - 1
        return np.int64(self._cell), 1.0 if terminated else 0.0, terminated, False, {{}}

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self._cell is None:
            return None
        return "".join("A" if i == self._cell else "." for i in range(self.length)) + "\\n"

    def close(self) -> None:
        self._cell = None
'''

_CONFORMANCE_TEST = '''\
"""protogym's conformance suite over every id this distribution registers."""

from protogym.testing import conformance_tests

test_conformance = conformance_tests("{name}")
'''

_ENV_TEST = '''\
"""{env_class}'s own behaviour: an exact trajectory under a seed, and its errors."""

from __future__ import annotations

import pytest

import protogym
from {package}.{module} import {env_class}


def test_a_seeded_walk_to_the_end() -> None:
    env = protogym.make("{env_id}")
    obs, _ = env.reset(seed=0)
    start = int(obs)
    steps = [env.step(1) for _ in range(7 - start)]
    assert [int(s[0]) for s in steps] == list(range(start + 1, 8))
    assert steps[-1][1:3] == (1.0, True)
    assert not any(s[2] for s in steps[:-1])


def test_bad_input_says_how_to_fix_it() -> None:
    with pytest.raises(ValueError, match="length must be an int >= 2"):
        {env_class}(length=1)
    env = {env_class}()
    env.reset(seed=1)
    with pytest.raises(ValueError, match="pass 0 .left. or 1 .right."):
        env.step(2)
'''
