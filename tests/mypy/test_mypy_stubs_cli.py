"""`protogym stubs`: Literal overloads of make() for pyright, read from env classes at run time."""

from __future__ import annotations

import argparse
import ast
import functools
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, SupportsFloat

import numpy as np
import pytest
from numpy.typing import NDArray

import protogym
from protogym.cli import stubs
from protogym.registration.env_spec import EnvSpec
from protogym.spaces import Box, Discrete
from protogym.vector import SameStep
from protogym.vector.vector_env import VectorEnvBase
from tests.mypy.test_mypy_plugin_corpus import SNIPPETS, expected_reports


class Arena(protogym.Env[NDArray[np.float64], NDArray[np.float32]]):
    action_space: Box
    observation_space: Box
    render_mode: str | None = None
    metadata: Mapping[str, Any] = {"render_modes": []}

    def step(
        self, action: NDArray[np.float32]
    ) -> tuple[NDArray[np.float64], SupportsFloat, bool, bool, dict[str, Any]]:
        return np.zeros(2), 0.0, False, False, {}


class Corridor:
    metadata: Mapping[str, Any] = {"render_modes": []}
    render_mode: str | None = None
    action_space = Discrete(2)
    observation_space = Discrete(4)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.int64, dict[str, Any]]:
        return np.int64(0), {}

    def step(self, action: int) -> tuple[np.int64, SupportsFloat, bool, bool, dict[str, Any]]:
        return np.int64(0), 0.0, False, False, {}

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


class OldCorridor:
    def reset(self) -> int:
        return 0

    def step(self, action: str) -> tuple[int, float, bool, dict[str, Any]]:
        return 0, 0.0, False, {}


class CorridorVector(VectorEnvBase[NDArray[np.int64], NDArray[np.int64], SameStep]):
    """A native vector env; only its base matters here."""


def make_corridor() -> Corridor:
    return Corridor()


class Unannotated:
    def reset(self, *, seed=None, options=None):  # type: ignore[no-untyped-def]
        return 0, {}

    def step(self, action):  # type: ignore[no-untyped-def]
        return 0, 0.0, False, False, {}


ENTRY_POINTS: dict[str, object] = {
    "t:Arena": Arena,
    "t:Corridor": Corridor,
    "t:make_corridor": make_corridor,
    "t:OldCorridor": OldCorridor,
    "t:Unannotated": Unannotated,
    "t:CorridorVector": CorridorVector,
}


def load(entry_point: object) -> object:
    if entry_point == "t:Missing":
        raise ModuleNotFoundError("No module named 't'")
    return ENTRY_POINTS[str(entry_point)]


def test_env_types_from_generic_base_annotations_and_factories() -> None:
    assert stubs.env_types_of(Arena) == (NDArray[np.float64], NDArray[np.float32])
    assert stubs.env_types_of(Corridor) == (np.int64, int)
    assert stubs.env_types_of(make_corridor) == (np.int64, int)
    assert stubs.env_types_of(OldCorridor, "done") == (int, str)
    assert stubs.env_types_of(Unannotated) == (Any, Any)
    assert stubs.env_types_of(CorridorVector) == (NDArray[np.int64], NDArray[np.int64])


def test_batched_types_follow_how_vector_envs_batch_spaces() -> None:
    writer = stubs.TypeWriter()
    cases = {
        NDArray[np.float32]: "numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[numpy.float32]]",
        np.int64: "numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[numpy.int64]]",
        int | np.integer[Any]: (
            "numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[numpy.integer[typing.Any]]]"
        ),
        bool: "numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[numpy.bool]]",
        tuple[float, str]: (
            "tuple[numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[numpy.float64]], "
            "tuple[str, ...]]"
        ),
        dict[str, int]: (
            "dict[str, numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[numpy.int64]]]"
        ),
        str | None: "tuple[str, ...] | tuple[None, ...]",
    }
    assert {t: writer.write(stubs.batched(t)) for t in cases} == cases
    assert stubs.batched(Any) is Any


def test_type_writer_spells_types_with_module_imports() -> None:
    writer = stubs.TypeWriter()
    assert writer.write(NDArray[np.float32]) == (
        "numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[numpy.float32]]"
    )
    assert writer.write(int | np.integer[Any]) == "int | numpy.integer[typing.Any]"
    assert writer.write(tuple[int, str] | None) == "tuple[int, str] | None"
    assert writer.write(dict[str, bool]) == "dict[str, bool]"
    assert writer.imports == {"numpy", "typing"}


SPECS = [
    EnvSpec(id="t/Arena-v0", entry_point="t:Arena"),
    EnvSpec(id="t/Corridor-v0", entry_point="t:Corridor"),
    EnvSpec(id="t/Corridor-v1", entry_point="t:make_corridor"),
    EnvSpec(id="t/Missing-v0", entry_point="t:Missing"),
    EnvSpec(id="t/VectorOnly-v0", vector_entry_point="t:CorridorVector"),
]


def _signature_rows(text: str, function: str) -> list[tuple[str, str, str, str]]:
    """(id annotation, deprecation message or "", the env's keyword names or "**kwargs",
    return) of each overload of `function` in a stub."""
    own_keywords = {"make": 4, "make_vec": 0}[function]  # the function's own keyword-only
    rows = []
    for node in ast.parse(text).body:
        if not isinstance(node, ast.FunctionDef) or node.name != function:
            continue
        deprecated = [
            ast.literal_eval(d.args[0]) for d in node.decorator_list if isinstance(d, ast.Call)
        ]
        own = [arg.arg for arg in node.args.kwonlyargs][own_keywords:]
        rows.append((
            ast.unparse(node.args.args[0].annotation) if node.args.args[0].annotation else "",
            deprecated[0] if deprecated else "",
            "**kwargs" if node.args.kwarg is not None else ", ".join(own),
            ast.unparse(node.returns) if node.returns is not None else "",
        ))
    return rows


def test_make_stub_has_overloads_per_group_of_ids_before_the_general_ones() -> None:
    result = stubs.build_stubs(SPECS, load=load)
    assert result.untyped == {
        "t/Missing-v0": "its entry point failed to load: No module named 't'",
        "t/VectorOnly-v0": "no entry point: it has only a vector entry point",
    }
    text = result.files["protogym.registration.make"]
    arena = (
        "numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[numpy.float64]], "
        "numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[numpy.float32]]"
    )
    corridors = "typing.Literal['t/Corridor-v0', 't/Corridor-v1', 't/Corridor']"
    complaint = (
        "make() of 't/Corridor-v0', 't/Corridor-v1', 't/Corridor': a keyword argument is "
        "misspelt or of the wrong type; the env takes: no keywords"
    )
    corridor_made = (
        f"_MadeEnv[numpy.int64, int, {__name__}.Corridor, protogym.spaces.discrete.Discrete, "
        "protogym.spaces.discrete.Discrete]"
    )
    unknown = "typing.Literal['t/Missing-v0', 't/Missing', 't/VectorOnly-v0', 't/VectorOnly']"
    assert _signature_rows(text, "make") == [
        # Arena is an Env subclass without a constructor of its own: any keyword goes.
        (
            "typing.Literal['t/Arena-v0', 't/Arena']",
            "",
            "**kwargs",
            f"_MadeEnv[{arena}, {__name__}.Arena, protogym.spaces.box.Box, "
            "protogym.spaces.box.Box]",
        ),
        ("typing.Literal['t/Arena-v0', 't/Arena']", "", "**kwargs", f"LegacyEnv[{arena}]"),
        # Corridor takes no keyword: a call with one lands on the deprecated copy.
        (corridors, "", "", corridor_made),
        (corridors, complaint, "**kwargs", corridor_made),
        (corridors, "", "", "LegacyEnv[numpy.int64, int]"),
        (corridors, complaint, "**kwargs", "LegacyEnv[numpy.int64, int]"),
        (
            unknown,
            "",
            "**kwargs",
            "_MadeEnv[typing.Any, typing.Any, protogym.core.Env[typing.Any, typing.Any], "
            "protogym.spaces.space.Space[typing.Any], protogym.spaces.space.Space[typing.Any]]",
        ),
        (unknown, "", "**kwargs", "LegacyEnv[typing.Any, typing.Any]"),
        ("str | EnvSpec", "", "**kwargs", "Wrapper[Any, Any, Any, Any]"),
        ("str | EnvSpec", "", "**kwargs", "LegacyEnv[Any, Any]"),
    ]
    # Calls that name wrappers fall through to the general overloads: wrappers may retype.
    makes = [n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef)]
    wrappers = [
        ast.unparse(arg.annotation)
        for n in [n for n in makes if n.name == "make"][:2]
        for arg in n.args.kwonlyargs
        if arg.arg == "wrappers" and arg.annotation is not None
    ]
    assert wrappers == ["None", "None"]
    assert "class _MadeEnv(Wrapper[_O, _A, _O, _A], typing.Generic[_O, _A, _E, _OS, _AS])" in text
    assert text.startswith("# Generated by `protogym stubs`")
    assert "from __future__" not in text
    assert all(not n.name.startswith("_") for n in makes)


class Lake(protogym.Env[np.int64, np.int64]):
    """An env whose constructor takes keywords, some of them make()'s own too."""

    observation_space: Discrete
    action_space: Discrete
    render_mode: str | None

    def __init__(self, render_mode: str | None = None, is_slippery: bool = True,
                 size: int | tuple[int, int] = 4) -> None:
        self.render_mode = render_mode


def test_an_envs_keywords_replace_kwargs_and_a_bad_one_is_deprecated() -> None:
    assert stubs.constructor_keywords(Lake) == (
        ("render_mode", str | None),
        ("is_slippery", bool),
        ("size", int | tuple[int, int]),
    )
    assert stubs.constructor_keywords(Arena) is None  # the protocol's (*args, **kwargs)
    assert stubs.constructor_keywords(make_corridor) == ()
    assert stubs.declared_spaces(Lake) == (Discrete, Discrete)
    assert stubs.declared_spaces(Corridor) == (Discrete, Discrete)  # by value
    assert stubs.declared_spaces(Unannotated) == (None, None)
    assert stubs.env_class_of(make_corridor) is Corridor
    specs = [EnvSpec(id="t/Lake-v0", entry_point="t:Lake")]
    files = stubs.build_stubs(specs, load=lambda _: Lake).files
    [exact, deprecated, *_] = _signature_rows(files["protogym.registration.make"], "make")
    # render_mode is make()'s own keyword already; the env's others follow it.
    assert exact[1:3] == ("", "is_slippery, size")
    assert deprecated[1:3] == (
        "make() of 't/Lake-v0', 't/Lake': a keyword argument is misspelt or of the wrong type; "
        "the env takes: render_mode, is_slippery, size",
        "**kwargs",
    )
    exact_node = next(
        n for n in ast.parse(files["protogym.registration.make"]).body
        if isinstance(n, ast.FunctionDef) and n.name == "make" and n.args.kwarg is None
    )
    annotations = {arg.arg: ast.unparse(arg.annotation) for arg in exact_node.args.kwonlyargs
                   if arg.annotation is not None}
    assert annotations["size"] == "int | tuple[int, int]"
    vec_rows = _signature_rows(files["protogym.registration.make_vec"], "make_vec")
    # make_vec passes make()'s keywords on, so its copies take those too.
    assert vec_rows[0][2] == (
        "max_episode_steps, render_mode, disable_env_checker, return_two_dones, is_slippery, size"
    )


def test_make_vec_stub_batches_copies_and_reads_native_vector_classes() -> None:
    text = stubs.build_stubs(SPECS, load=load).files["protogym.registration.make_vec"]
    tree = ast.parse(text)
    overloads = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "make_vec"]
    assert all(stubs._is_overload(n) for n in overloads)

    def parameter(node: ast.FunctionDef, name: str) -> str:
        args = node.args.args
        defaults = [None] * (len(args) - len(node.args.defaults)) + node.args.defaults
        for arg, default in zip(args, defaults, strict=True):
            if arg.arg == name and arg.annotation is not None:
                shown = ast.unparse(arg.annotation)
                return shown if default is None else f"{shown} = {ast.unparse(default)}"
        raise AssertionError(name)

    array = "numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[numpy.int64]]"
    arena = (
        "numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[numpy.float64]], "
        "numpy.ndarray[tuple[typing.Any, ...], numpy.dtype[numpy.float32]]"
    )
    unknown = "typing.Any, typing.Any, typing.Any"
    corridors = "typing.Literal['t/Corridor-v0', 't/Corridor-v1', 't/Corridor']"
    arenas = "typing.Literal['t/Arena-v0', 't/Arena']"
    missing = "typing.Literal['t/Missing-v0', 't/Missing']"
    vector_only = "typing.Literal['t/VectorOnly-v0', 't/VectorOnly']"
    sync = "typing.Literal['sync', VectorizeMode.SYNC]"
    async_ = "typing.Literal['async', VectorizeMode.ASYNC]"
    ray = "typing.Literal['ray', VectorizeMode.RAY]"
    # Each mode returns its class: the native one, or Sync/Async/Ray with the batched types.
    assert [
        (parameter(n, "id"), parameter(n, "vectorization_mode"), ast.unparse(n.returns or n))
        for n in overloads
    ] == [
        (
            vector_only,
            "typing.Literal['vector_entry_point', VectorizeMode.VECTOR_ENTRY_POINT] | None = None",
            f"{__name__}.CorridorVector",
        ),
        (
            arenas,
            f"{sync} | None = None",
            f"SyncVectorEnv[{arena}, typing.Any]",
        ),
        # Corridor takes no keyword: each of its overloads has a deprecated copy after it.
        (corridors, f"{sync} | None = None", f"SyncVectorEnv[{array}, {array}, typing.Any]"),
        (corridors, f"{sync} | None = None", f"SyncVectorEnv[{array}, {array}, typing.Any]"),
        (missing, f"{sync} | None = None", f"SyncVectorEnv[{unknown}]"),
        (vector_only, f"{sync} = ...", f"SyncVectorEnv[{unknown}]"),
        (arenas, f"{async_} = ...", f"AsyncVectorEnv[{arena}, typing.Any]"),
        (corridors, f"{async_} = ...", f"AsyncVectorEnv[{array}, {array}, typing.Any]"),
        (corridors, f"{async_} = ...", f"AsyncVectorEnv[{array}, {array}, typing.Any]"),
        (
            "typing.Literal['t/Missing-v0', 't/Missing', 't/VectorOnly-v0', 't/VectorOnly']",
            f"{async_} = ...",
            f"AsyncVectorEnv[{unknown}]",
        ),
        (arenas, f"{ray} = ...", f"RayVectorEnv[{arena}, typing.Any]"),
        (corridors, f"{ray} = ...", f"RayVectorEnv[{array}, {array}, typing.Any]"),
        (corridors, f"{ray} = ...", f"RayVectorEnv[{array}, {array}, typing.Any]"),
        (
            "typing.Literal['t/Missing-v0', 't/Missing', 't/VectorOnly-v0', 't/VectorOnly']",
            f"{ray} = ...",
            f"RayVectorEnv[{unknown}]",
        ),
        ("str | EnvSpec", "None = None", "VectorEnv[Any, Any, Any]"),
        ("str | EnvSpec", f"{sync.removeprefix('typing.')} = ...", "SyncVectorEnv[Any, Any, Any]"),
        (
            "str | EnvSpec",
            f"{async_.removeprefix('typing.')} = ...",
            "AsyncVectorEnv[Any, Any, Any]",
        ),
        ("str | EnvSpec", f"{ray.removeprefix('typing.')} = ...", "RayVectorEnv[Any, Any, Any]"),
        (
            "str | EnvSpec",
            "VectorizationMode | VectorizeMode | None = None",
            "VectorEnv[Any, Any, Any]",
        ),
    ]


def test_an_unversioned_name_joins_its_newest_versions_overloads() -> None:
    ids = ["a/Walk-v1", "a/Walk-v3", "a/Walk-v2", "Solo", "Hop-v0", "b/Walk-v0"]
    assert stubs.unversioned_names(ids) == {
        "a/Walk-v3": ["a/Walk"],
        "Hop-v0": ["Hop"],
        "b/Walk-v0": ["b/Walk"],
    }
    text = stubs.build_stubs(SPECS, load=load).files["protogym.registration.make"]
    # make("t/Corridor") builds t/Corridor-v1, which shares v0's overload here.
    assert "typing.Literal['t/Corridor-v0', 't/Corridor-v1', 't/Corridor']" in text


def test_the_stub_keeps_the_modules_public_classes() -> None:
    """pyright reads the whole module from the stub: `VectorizeMode` must be in it, as the
    per-id overloads name its members; private classes stay out."""
    files = stubs.build_stubs(SPECS, load=load).files
    tree = ast.parse(files["protogym.registration.make_vec"])
    [mode] = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    assert mode.name == "VectorizeMode"
    assert [ast.unparse(item) for item in mode.body] == [
        "ASYNC = 'async'",
        "SYNC = 'sync'",
        "VECTOR_ENTRY_POINT = 'vector_entry_point'",
        "RAY = 'ray'",
    ]
    make_tree = ast.parse(files["protogym.registration.make"])
    assert [n.name for n in make_tree.body if isinstance(n, ast.ClassDef)] == ["_MadeEnv"]


def run_cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="protogym")
    stubs.add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


def test_command_writes_a_partial_stub_package(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["stubs", "--output", str(tmp_path / "typings")]) == 0
    package = tmp_path / "typings" / "protogym-stubs"
    assert (package / "py.typed").read_text() == "partial\n"
    make_stub = package / "registration" / "make.pyi"
    vec_stub = package / "registration" / "make_vec.pyi"
    assert "def make(id: typing.Literal['CartPole-v0', 'CartPole-v1'" in make_stub.read_text()
    assert "def make_vec(id: typing.Literal['CartPole-v0', 'CartPole-v1'" in vec_stub.read_text()
    assert capsys.readouterr().out == (
        f"wrote {make_stub}\nwrote {vec_stub}\n"
        f"overloads for {len(protogym.registry)} environment ids\n"
    )


@functools.cache
def _pyright() -> tuple[str | None, str]:
    """pyright's command, or None and why it cannot run here.

    The `pyright` package from PyPI fetches pyright itself through npm on first use, so being
    installed is not enough: it must also answer `--version`.
    """
    beside = Path(sys.executable).with_name("pyright")
    command = str(beside) if beside.exists() else shutil.which("pyright")
    if command is None:
        return None, "pyright is not installed (pip install pyright)"
    probe = subprocess.run([command, "--version"], capture_output=True, text=True, check=False)
    if probe.returncode != 0:
        return None, f"pyright does not run here: {(probe.stdout + probe.stderr).strip()}"
    return command, ""


PYRIGHT_SNIPPET = """\
import protogym

env = protogym.make("CartPole-v1")
reveal_type(env.reset()[0])
reveal_type(env.action_space)
legacy = protogym.make("CartPole-v1", return_two_dones=False)
reveal_type(legacy.step(0))
reveal_type(protogym.make("CartPole-v1", wrappers=["ClipReward"]))
reveal_type(protogym.spaces.Box)
reveal_type(protogym.make_vec("CartPole-v1", 4).reset()[0])
# make_vec's class per mode, and TypedDict Dict spaces, need no plugin.
from typing import TypedDict

import numpy as np
from numpy.typing import NDArray


class Obs(TypedDict):
    position: NDArray[np.float32]
    steps: np.int64


reveal_type(protogym.make_vec("CartPole-v1", 4))
copies = protogym.make_vec("FrozenLake-v1", 2, vectorization_mode="async")
reveal_type(copies.reset()[0])
copies.call("render")
copies.get_attr("desc")
copies.set_attr("is_slippery", False)
box = protogym.spaces.Box(-1.0, 1.0, shape=(2,), dtype=np.float32)
space = protogym.spaces.Dict[Obs]({"position": box, "steps": protogym.spaces.Discrete(9)})
sample = space.sample()
reveal_type(sample["position"])
sample["positon"]
reveal_type(protogym.make_vec("FrozenLake-v1", 2, vectorization_mode="ray").reset()[0])
walker = protogym.make("Walker2d-v5")
reveal_type(walker.reset()[0])
reveal_type(walker.action_space)
"""


@pytest.fixture(scope="module")
def stub_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The stubs of the installed registry, written once for the pyright tests."""
    folder = tmp_path_factory.mktemp("stubs")
    assert run_cli(["stubs", "--output", str(folder / "typings")]) == 0
    return folder / "typings"


def _run_pyright(
    folder: Path, stub_folder: Path, source: str, **settings: object
) -> list[tuple[int, str, str]]:
    """pyright's (line, severity, message) for `source`, read with the generated stubs."""
    pyright, why_not = _pyright()
    if pyright is None:
        pytest.skip(why_not)
    shutil.copytree(stub_folder, folder / "typings")
    (folder / "agent.py").write_text(source)
    config = {"stubPath": "typings", "pythonVersion": "3.11", **settings}
    (folder / "pyrightconfig.json").write_text(json.dumps(config))
    completed = subprocess.run(
        [pyright, "--outputjson", "--pythonpath", sys.executable, "agent.py"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    report = json.loads(completed.stdout)
    return [
        (diagnostic["range"]["start"]["line"] + 1, diagnostic["severity"], diagnostic["message"])
        for diagnostic in report["generalDiagnostics"]
    ]


@pytest.mark.slow
def test_pyright_picks_up_the_stubs(tmp_path: Path, stub_folder: Path) -> None:
    messages = [
        (line, message) for line, _, message in _run_pyright(tmp_path, stub_folder, PYRIGHT_SNIPPET)
    ]
    array = "ndarray[tuple[Any, ...], dtype[floating[_32Bit]]]"
    int64_array = "ndarray[tuple[Any, ...], dtype[signedinteger[_64Bit]]]"
    assert messages == [
        (4, f'Type of "env.reset()[0]" is "{array}"'),
        (5, 'Type of "env.action_space" is "Discrete[signedinteger[_64Bit]]"'),
        (7, f'Type of "legacy.step(0)" is "tuple[{array}, SupportsFloat, bool, dict[str, Any]]"'),
        (
            8,
            'Type of "protogym.make("CartPole-v1", wrappers=["ClipReward"])" is '
            '"Wrapper[Any, Any, Any, Any]"',
        ),
        (9, 'Type of "protogym.spaces.Box" is "type[Box]"'),
        (10, f'Type of "protogym.make_vec("CartPole-v1", 4).reset()[0]" is "{array}"'),
        (23, 'Type of "protogym.make_vec("CartPole-v1", 4)" is "CartPoleVectorEnv[AutoresetMode]"'),
        (25, f'Type of "copies.reset()[0]" is "{int64_array}"'),
        (32, f'Type of "sample["position"]" is "{array}"'),
        (33, 'Could not access item in TypedDict\n\xa0\xa0"positon" is not a defined key in "Obs"'),
        (
            34,
            'Type of "protogym.make_vec("FrozenLake-v1", 2, vectorization_mode="ray").reset()[0]" '
            f'is "{int64_array}"',
        ),
        (36, 'Type of "walker.reset()[0]" is "ndarray[tuple[Any, ...], dtype[float64]]"'),
        (37, 'Type of "walker.action_space" is "Box"'),
    ]


_QUALIFIER = re.compile(r"\b(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_])")


def _as_pyright_shows(mypy_type: str) -> str:
    """A type as mypy reveals it, spelt as pyright does: no module paths, no ``def``."""
    return _QUALIFIER.sub("", mypy_type).removeprefix("def ")


@pytest.mark.slow
def test_pyright_reports_what_the_plugin_reports(tmp_path: Path, stub_folder: Path) -> None:
    """The parity snippet's `# E:` lines (checked by mypy in the corpus) are pyright errors
    too, its other lines are clean, and each revealed type reads the same. A bad keyword is
    reported through the deprecated overload, so `reportDeprecated` is on, as in strict mode."""
    source = (SNIPPETS / "pyright_parity.py.txt").read_text()
    expected = expected_reports(source)
    reported = _run_pyright(tmp_path, stub_folder, source, reportDeprecated="error")
    assert sorted({line for line, severity, _ in reported if severity == "error"}) == sorted(
        line for line, kind, _ in expected if kind == "E"
    )
    revealed = {
        line: message.rpartition(' is "')[2].removesuffix('"')
        for line, severity, message in reported
        if severity == "information" and message.startswith("Type of ")
    }
    assert revealed == {
        line: _as_pyright_shows(message.removeprefix('Revealed type is "').removesuffix('"'))
        for line, kind, message in expected
        if kind == "N"
    }
