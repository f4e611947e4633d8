"""The snippet corpus, checked by mypy with the protogym plugin in one batch.

Snippets live in `snippets/` as ``*.py.txt`` (so that the project's own type check and lint
skip their deliberate errors); they are copied to a temporary folder as ``*.py``. Every
expectation is a trailing comment: ``# E: <message>  [code]`` for an error and
``# N: <message>`` for a note such as a revealed type. Several may follow one another on a
line. A line without one must produce no output at all.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

SNIPPETS = Path(__file__).parent / "snippets"
_MARKER = re.compile(r"\s+# ([EN]): ")

Report = tuple[int, str, str]
RunMypy = Callable[[Path, Iterable[Path]], dict[str, list[Report]]]


def expected_reports(source: str) -> list[Report]:
    """The `# E:`/`# N:` expectations written in a snippet, in line order."""
    found: list[Report] = []
    for number, line in enumerate(source.splitlines(), start=1):
        parts = _MARKER.split(line)
        # re.split with one group gives [code, kind, message, kind, message, ...].
        for kind, message in zip(parts[1::2], parts[2::2], strict=True):
            found.append((number, kind, message.rstrip()))
    return found


def copy_snippets(names: Iterable[str], folder: Path) -> list[Path]:
    """Copy `snippets/<name>.py.txt` to `folder/<name>.py` and return the new paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in names:
        target = folder / f"{name}.py"
        shutil.copyfile(SNIPPETS / f"{name}.py.txt", target)
        paths.append(target)
    return paths

CORPUS = sorted(path.name.removesuffix(".py.txt") for path in SNIPPETS.glob("*.py.txt"))


@pytest.fixture(scope="module")
def corpus_reports(
    run_mypy: RunMypy, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, list[Report]]:
    folder = tmp_path_factory.mktemp("corpus")
    return run_mypy(folder, copy_snippets(CORPUS, folder))


def test_mypy_ran_cleanly(corpus_reports: dict[str, list[Report]]) -> None:
    """Nothing that is not tied to a snippet line: no crash, no stray output."""
    assert corpus_reports.get("<unparsed>", []) == []
    assert corpus_reports.get("<stderr>", []) == []


@pytest.mark.parametrize("name", CORPUS)
def test_snippet(name: str, corpus_reports: dict[str, list[Report]]) -> None:
    expected = expected_reports((SNIPPETS / f"{name}.py.txt").read_text())
    actual = sorted(corpus_reports.get(f"{name}.py", []))
    assert actual == sorted(expected)


WARM_REGISTER = """\
import protogym

protogym.register(id="warm/Corridor-v0", entry_point="warm_envs:Corridor")
"""
WARM_USER = """\
import protogym
import warm_register  # noqa: F401

env = protogym.make("warm/Corridor-v0")
reveal_type(env.reset()[0])
"""


def test_registered_id_known_when_registering_module_comes_from_cache(
    run_mypy: RunMypy, tmp_path: Path
) -> None:
    """Only the caller changed: the module that registers the id is loaded from mypy's cache,
    without statements, and the id must still be known and typed."""
    shutil.copyfile(SNIPPETS / "corpus_envs.py.txt", tmp_path / "warm_envs.py")
    (tmp_path / "warm_register.py").write_text(WARM_REGISTER)
    user = tmp_path / "warm_user.py"
    user.write_text(WARM_USER)
    files = [tmp_path / "warm_envs.py", tmp_path / "warm_register.py", user]
    revealed = (5, "N", 'Revealed type is "numpy.signedinteger[numpy._typing._nbit_base._64Bit]"')
    assert run_mypy(tmp_path, files) == {"warm_user.py": [revealed]}

    user.write_text(WARM_USER + "reveal_type(env.step(0)[2])\n")
    assert run_mypy(tmp_path, files) == {
        "warm_user.py": [revealed, (6, "N", 'Revealed type is "bool"')]
    }


BESIDE_REGISTER = """\
import protogym

protogym.register(id="beside/Corridor-v0", entry_point="beside_pkg.envs:Corridor")
reveal_type(protogym.make("beside/Corridor-v0").reset()[0])
"""


def test_entry_point_modules_are_found_beside_the_checked_file(
    run_mypy: RunMypy, tmp_path: Path
) -> None:
    """Only `beside_pkg/reg.py` is given to mypy, and no import brings in `beside_pkg.envs`:
    the plugin finds it in the folder the checked package sits in, as mypy would."""
    package = tmp_path / "src" / "beside_pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    shutil.copyfile(SNIPPETS / "corpus_envs.py.txt", package / "envs.py")
    (package / "reg.py").write_text(BESIDE_REGISTER)
    int64 = "numpy.signedinteger[numpy._typing._nbit_base._64Bit]"
    assert run_mypy(tmp_path, [package / "reg.py"]) == {
        "reg.py": [(4, "N", f'Revealed type is "{int64}"')]
    }


IMPORTING_USER = """\
import protogym

env = protogym.make("beside_pkg.registers:beside/Imported-v0")
reveal_type(env.reset()[0])
protogym.make("beside_pkg.registers:beside/Importd-v0")
"""


def test_a_module_prefixed_id_brings_the_registering_module_into_the_build(
    run_mypy: RunMypy, tmp_path: Path
) -> None:
    """`make("module:id")` imports the module at run time; the plugin adds it to mypy's
    build (nothing else imports it here) and reads the ids it registers."""
    package = tmp_path / "src" / "beside_pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    shutil.copyfile(SNIPPETS / "corpus_envs.py.txt", package / "envs.py")
    (package / "registers.py").write_text(
        "import protogym\n\n"
        'protogym.register("beside/Imported-v0", "beside_pkg.envs:Corridor")\n'
    )
    user = package / "user.py"
    user.write_text(IMPORTING_USER)
    int64 = "numpy.signedinteger[numpy._typing._nbit_base._64Bit]"
    unknown = (
        'Unknown environment id "beside/Importd-v0" (looked up after importing '
        '"beside_pkg.registers"); did you mean "beside/Imported-v0"? (ids come from the '
        "installed registry, listed by `protogym list`, and from literal register() calls in "
        "the checked code)  [protogym-env-id]"
    )
    assert run_mypy(tmp_path, [user]) == {
        "user.py": [(4, "N", f'Revealed type is "{int64}"'), (5, "E", unknown)]
    }
