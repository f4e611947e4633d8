"""Autoreset modes at episode boundaries, info batching and reset masks, Sync and Async alike."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

from protogym.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv, VectorEnv
from tests.vector.vector_helpers import countdowns

Factory = Callable[..., Any]


@pytest.fixture(params=["sync", "async"])
def make(request: pytest.FixtureRequest) -> Iterator[Factory]:
    made: list[Any] = []

    def factory(fns: list[Any], **kwargs: Any) -> Any:
        if request.param == "sync":
            env: Any = SyncVectorEnv(fns, **kwargs)
        else:
            env = AsyncVectorEnv(fns, num_workers=2, **kwargs)
        made.append(env)
        return env

    yield factory
    for env in made:
        env.close()


def ones(n: int) -> np.ndarray[Any, Any]:
    return np.ones(n, dtype=np.int64)


def test_same_step_resets_in_the_ending_step_and_reports_final_obs(make: Factory) -> None:
    env = make(countdowns(2))
    assert isinstance(env, VectorEnv)
    assert env.autoreset_mode is AutoresetMode.SAME_STEP
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, infos = env.reset(seed=10)
    noise = obs[:, 2].copy()
    assert obs[:, :2].tolist() == [[0, 0], [0, 1]]
    assert infos["reset_seed"].tolist() == [10, 11]
    assert infos["_reset_seed"].tolist() == [True, True]

    obs, rewards, terminated, truncated, infos = env.step(ones(2))
    assert obs[:, 0].tolist() == [1, 1]
    assert rewards.tolist() == [2.0, 2.0]
    assert terminated.tolist() == [False, False]
    assert set(infos) == {"count", "_count"}

    obs, rewards, terminated, truncated, infos = env.step(ones(2))
    assert terminated.tolist() == [True, False]
    assert truncated.tolist() == [False, False]
    assert rewards.tolist() == [3.0, 3.0]
    assert obs[0, 0] == 0 and obs[0, 2] != noise[0]  # sub-env 0 already restarted
    assert obs[1, 0] == 2
    assert infos["_final_obs"].tolist() == [True, False]
    # Gymnasium 1.x's layout: an object array holding each ended sub-env's last observation
    final_obs = infos["final_obs"]
    assert final_obs.dtype == object and final_obs.shape == (2,)
    assert final_obs[0].tolist() == [2.0, 0.0, noise[0]]
    assert final_obs[0].dtype == obs.dtype
    assert final_obs[1] is None
    assert "final_observation" not in infos  # the seeds' key is gone
    assert infos["_final_info"].tolist() == [True, False]
    assert infos["final_info"]["count"][0] == 2
    assert infos["final_info"]["_count"].tolist() == [True, False]
    # sub-env 0's info this step is its reset info; sub-env 1's is its step info
    assert infos["_count"].tolist() == [False, True]
    assert infos["count"][1] == 2
    assert infos["_reset_seed"].tolist() == [True, False]
    assert infos["reset_seed"][0] == -1

    obs, rewards, terminated, truncated, infos = env.step(ones(2))
    assert terminated.tolist() == [False, True]
    assert obs[:, 0].tolist() == [1, 0]
    assert infos["final_obs"][1][0] == 3
    assert infos["final_obs"][0] is None


def test_next_step_resets_on_the_following_step(make: Factory) -> None:
    env = make(countdowns(2), autoreset_mode="next_step")
    assert env.autoreset_mode is AutoresetMode.NEXT_STEP
    env.reset(seed=1)
    env.step(ones(2))
    obs, rewards, terminated, truncated, infos = env.step(ones(2))
    assert terminated.tolist() == [True, False]
    assert obs[:, 0].tolist() == [2, 2]  # the final observation stays in the batch
    assert "final_obs" not in infos

    obs, rewards, terminated, truncated, infos = env.step(np.array([2, 2]))
    assert obs[:, 0].tolist() == [0, 3]
    assert rewards.tolist() == [0.0, 5.0]  # the reset step pays nothing
    assert terminated.tolist() == [False, True]
    assert truncated.tolist() == [False, False]
    assert infos["_reset_seed"].tolist() == [True, False]
    assert infos["_count"].tolist() == [False, True]

    obs, rewards, terminated, _, _ = env.step(ones(2))
    assert obs[:, 0].tolist() == [1, 0]
    assert rewards.tolist() == [2.0, 0.0]


def test_disabled_never_resets_until_asked_with_a_mask(make: Factory) -> None:
    env = make(countdowns(2), autoreset_mode=AutoresetMode.DISABLED)
    env.reset(seed=1)
    env.step(ones(2))
    env.step(ones(2))
    obs, rewards, terminated, _, infos = env.step(ones(2))
    assert obs[:, 0].tolist() == [3, 3]
    assert terminated.tolist() == [True, True]
    assert "final_obs" not in infos

    obs, infos = env.reset(options={"reset_mask": np.array([True, False])})
    assert obs[:, 0].tolist() == [0, 3]
    assert infos["_reset_seed"].tolist() == [True, False]
    obs, *_ = env.step(ones(2))
    assert obs[:, 0].tolist() == [1, 4]


def test_truncation_is_reported_and_autoreset_like_termination(make: Factory) -> None:
    env = make(countdowns(2, length=2, truncate=True))
    env.reset(seed=3)
    env.step(ones(2))
    obs, _, terminated, truncated, infos = env.step(ones(2))
    assert terminated.tolist() == [False, False]
    assert truncated.tolist() == [True, True]
    assert obs[:, 0].tolist() == [0, 0]
    assert infos["_final_obs"].tolist() == [True, True]
    assert [row[0] for row in infos["final_obs"]] == [2.0, 2.0]


def test_seeds_count_up_and_lists_give_one_per_sub_env(make: Factory) -> None:
    env = make(countdowns(3))
    obs_a, _ = env.reset(seed=5)
    obs_b, infos = env.reset(seed=[5, 6, 7])
    np.testing.assert_array_equal(obs_a, obs_b)
    assert infos["reset_seed"].tolist() == [5, 6, 7]
    with pytest.raises(ValueError, match=r"got 2 seeds for 3 sub-envs"):
        env.reset(seed=[1, 2])


def test_reset_masks_are_checked_with_gymnasiums_exception_classes(make: Factory) -> None:
    env = make(countdowns(3), autoreset_mode="disabled")
    env.reset(seed=0)
    with pytest.raises(TypeError, match=r"reset_mask.*numpy bool array of shape \(3,\)"):
        env.reset(options={"reset_mask": [True, False, True]})
    with pytest.raises(TypeError, match=r"reset_mask.*got dtype int64"):
        env.reset(options={"reset_mask": np.array([1, 0, 1])})
    with pytest.raises(ValueError, match=r"reset_mask.*shape \(3,\).*got shape \(1, 3\)"):
        env.reset(options={"reset_mask": np.array([[True, True, True]])})
    with pytest.raises(ValueError, match=r"reset_mask.*no True entry"):
        env.reset(options={"reset_mask": np.zeros(3, dtype=np.bool_)})
    options = {"reset_mask": np.array([True, False, True]), "extra": 1}
    env.reset(options=options)
    assert set(options) == {"reset_mask", "extra"}  # the caller's dict is left alone


def test_copy_false_returns_the_shared_batch(make: Factory) -> None:
    env = make(countdowns(2), copy=False)
    first, _ = env.reset(seed=0)
    second, *_ = env.step(ones(2))
    assert first is second or np.shares_memory(first, second)


def test_wrong_number_of_actions_is_a_clear_error(make: Factory) -> None:
    env = make(countdowns(2))
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"\(2\b"):
        env.step(np.ones(3, dtype=np.int64))
    with pytest.raises(ValueError, match=r"\(2\b"):
        env.step([1])
    # one action for a vector env is a TypeError (Gymnasium's class), not a short batch
    with pytest.raises(TypeError, match="batch of 2 actions"):
        env.step(np.int64(1))
    with pytest.raises(TypeError, match="batch of 2 actions"):
        env.step(1)


def test_call_get_attr_set_attr_and_render(make: Factory) -> None:
    env = make(countdowns(3, render_mode="rgb_array"))
    env.reset(seed=0)
    assert env.get_attr("ident") == (0, 1, 2)
    assert env.call("_obs")[2].tolist()[:2] == [0.0, 2.0]
    env.set_attr("length", 1)
    assert env.get_attr("length") == (1, 1, 1)
    env.set_attr("ident", [7, 8, 9])
    assert env.get_attr("ident") == (7, 8, 9)
    _, _, terminated, _, _ = env.step(ones(3))
    assert terminated.tolist() == [True, True, True]
    frames = env.render()
    assert len(frames) == 3 and frames[0].shape == (2, 2, 3)
    with pytest.raises(ValueError, match=r"set_attr got 2 values for 3 sub-envs"):
        env.set_attr("ident", [1, 2])


def test_sub_envs_with_different_spaces_are_refused(make: Factory) -> None:
    from protogym.spaces import Discrete
    from tests.vector.vector_helpers import Countdown

    def odd() -> Countdown:
        env = Countdown(ident=1)
        env.action_space = Discrete(5)
        return env

    with pytest.raises(RuntimeError, match=r"sub-env 1 has action space"):
        make([lambda: Countdown(ident=0), odd])


def test_close_is_idempotent_and_step_after_close_is_an_error(make: Factory) -> None:
    from protogym.error import ClosedEnvironmentError

    env = make(countdowns(2))
    env.reset(seed=0)
    env.close()
    env.close()
    with pytest.raises(ClosedEnvironmentError, match="is closed"):
        env.step(ones(2))
    with pytest.raises(ClosedEnvironmentError, match="is closed"):
        env.reset()


def test_bad_constructor_arguments(make: Factory) -> None:
    with pytest.raises(ValueError, match="at least one env function"):
        make([])
    with pytest.raises(TypeError, match=r"entries \[1\] are not callable"):
        make([countdowns(1)[0], 3])
    with pytest.raises(ValueError, match="autoreset_mode must be an AutoresetMode or one of"):
        make(countdowns(1), autoreset_mode="sometimes")


def test_sync_sub_env_errors_carry_the_index_in_a_note() -> None:
    from tests.vector.vector_helpers import Countdown

    fns = [*countdowns(1, length=10), lambda: Countdown(ident=1, length=10, fail_at=1)]
    env = SyncVectorEnv(fns)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="Countdown 1 fails at step 1") as caught:
        env.step(ones(2))
    assert "raised by sub-env 1 of SyncVectorEnv.step" in caught.value.__notes__


def test_set_attr_reaches_the_layer_that_has_the_attribute(make: Factory) -> None:
    import protogym

    env = make([lambda: protogym.make("CartPole-v1", max_episode_steps=50)] * 2)
    env.set_attr("gravity", 3.0)
    env.set_attr("_max_episode_steps", 2)  # a TimeLimit attribute
    assert env.get_attr("gravity") == (3.0, 3.0)
    env.reset(seed=0)
    env.step(np.zeros(2, dtype=np.int64))
    _, _, _, truncated, _ = env.step(np.zeros(2, dtype=np.int64))
    assert truncated.tolist() == [True, True]


def test_final_observation_survives_an_env_that_reuses_its_buffer(make: Factory) -> None:
    from tests.vector.vector_helpers import Countdown

    class Reusing(Countdown):
        """Writes every observation into one array, as some fast envs do."""

        def __init__(self) -> None:
            super().__init__(ident=5, length=2)
            self.buffer = np.zeros(3, dtype=np.float32)

        def _obs(self) -> Any:
            self.buffer[:] = super()._obs()
            return self.buffer

    env = make([Reusing])
    env.reset(seed=0)
    env.step(ones(1))
    _, _, _, _, infos = env.step(ones(1))
    assert infos["final_obs"][0][0] == 2.0  # not the reset's 0.0
