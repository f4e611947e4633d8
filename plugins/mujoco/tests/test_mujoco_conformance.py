"""protogym's conformance suite over every id of this distribution that can be made.

Every check runs on every id (and `check_env` on each), except the two that draw frames
(check_env's render check and the render-mode check): Mesa's software renderer takes seconds
per context on the scenes with a floor, so those run on the light pendulum scenes here, and
on two floor scenes as slow tests. Frames of every v5 id are compared with Gymnasium's in
test_mujoco_goldens.py.
"""

from __future__ import annotations

import warnings

import pytest

import protogym
from protogym.checker import check_env
from protogym.checker.report import ContractError
from protogym.checker.rules import Severity
from protogym.testing import conformance_tests
from protogym.testing.conformance import CHECKS

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    MAKEABLE = sorted(
        spec.id
        for spec in protogym.registry.values()
        if spec.plugin == "protogym-mujoco"
        and not str(spec.entry_point).startswith(
            ("protogym_mujoco.mujoco_py_env:", "protogym_mujoco.pusher_v4:")
        )
    )
DRAWING = ("contract", "render-modes")

test_conformance = conformance_tests(ids=MAKEABLE, checks=[c for c in CHECKS if c not in DRAWING])
test_drawing_conformance = conformance_tests(
    ids=["InvertedPendulum-v5", "InvertedDoublePendulum-v4"], checks=DRAWING
)
test_drawing_conformance_of_floor_scenes = pytest.mark.slow(
    conformance_tests(ids=["HalfCheetah-v5", "Humanoid-v5"], checks=DRAWING)
)


def test_every_makeable_id_is_covered() -> None:
    assert len(MAKEABLE) == 21


@pytest.mark.parametrize("env_id", MAKEABLE)
def test_check_env_finds_nothing_on_every_id(env_id: str) -> None:
    """`check_env` without its render check (done above on the light scenes): no error and
    no warning, only hints at most."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        env = protogym.make(env_id)
    try:
        report = check_env(env.unwrapped, warn=False, skip_render_check=True)
    except ContractError as error:
        report = error.report
    finally:
        env.close()
    findings = [str(r) for r in report.results if r.severity is not Severity.HINT]
    assert findings == []
