"""TorchRL on protogym: `GymWrapper` over `to_gymnasium` / `to_gymnasium_vector` passes
TorchRL's own spec check, collects the trajectories it collects on Gymnasium's CartPole
(partial resets through `_reset` masks included), and trains PPO to CartPole's threshold."""

from __future__ import annotations

import gymnasium
import pytest
import torch
from tensordict import TensorDict
from tensordict.nn import TensorDictModule
from torch import nn
from torchrl.collectors import Collector
from torchrl.envs import EnvBase, GymWrapper
from torchrl.envs.utils import ExplorationType, check_env_specs, set_exploration_type
from torchrl.modules import ProbabilisticActor, ValueOperator
from torchrl.objectives import ClipPPOLoss
from torchrl.objectives.value import GAE

import protogym
from protogym.interop.gymnasium import to_gymnasium, to_gymnasium_vector

DISABLED = {"autoreset_mode": "disabled"}


def _vector(num_envs: int, mode: str = "vector_entry_point") -> EnvBase:
    vector_env = protogym.make_vec(
        "CartPole-v1",
        num_envs,
        vectorization_mode=mode,  # type: ignore[call-overload]
        vector_kwargs=DISABLED,
    )
    return GymWrapper(to_gymnasium_vector(vector_env), categorical_action_encoding=True)


def _rollout(env: EnvBase, steps: int, seed: int) -> TensorDict:
    """`steps` random actions (drawn by TorchRL from torch's generator) from a seeded reset."""
    env.set_seed(seed)
    torch.manual_seed(0)
    return env.rollout(steps, break_when_any_done=False)


@pytest.mark.parametrize("kind", ["single", "native", "sync"])
def test_torchrl_check_env_specs_passes(kind: str) -> None:
    if kind == "single":
        env = GymWrapper(to_gymnasium(protogym.make("CartPole-v1")))
        assert env.batch_size == torch.Size([])
    else:
        env = _vector(3, "vector_entry_point" if kind == "native" else "sync")
        assert env.batch_size == torch.Size([3])
    env.set_seed(0)
    check_env_specs(env)
    env.close()


def test_vector_env_carries_gymnasiums_autoreset_mode_attribute() -> None:
    """TorchRL reads `env.autoreset_mode` and compares it with Gymnasium's enum."""
    for mode, expected in [
        ("disabled", gymnasium.vector.AutoresetMode.DISABLED),
        ("same_step", gymnasium.vector.AutoresetMode.SAME_STEP),
        ("next_step", gymnasium.vector.AutoresetMode.NEXT_STEP),
    ]:
        vector_env = protogym.make_vec("CartPole-v1", 2, vector_kwargs={"autoreset_mode": mode})
        assert to_gymnasium_vector(vector_env).autoreset_mode is expected


def test_torchrl_refuses_a_next_step_vector_env() -> None:
    vector_env = protogym.make_vec("CartPole-v1", 2, vector_kwargs={"autoreset_mode": "next_step"})
    with pytest.raises(RuntimeError, match="SAME_STEP or DISABLED"):
        GymWrapper(to_gymnasium_vector(vector_env))


def test_single_env_rollout_equals_gymnasiums() -> None:
    ours = _rollout(GymWrapper(to_gymnasium(protogym.make("CartPole-v1"))), 300, seed=3)
    theirs = _rollout(GymWrapper(gymnasium.make("CartPole-v1")), 300, seed=3)
    assert int(ours["next", "done"].sum()) > 5  # several episodes, TorchRL resetting each
    assert (ours == theirs).all()


@pytest.mark.parametrize("mode", ["vector_entry_point", "sync"])
def test_vector_rollout_with_partial_resets_equals_gymnasiums(mode: str) -> None:
    """Sub-envs end at different steps; TorchRL resets only those through a `_reset` mask,
    which reaches protogym as ``reset(options={"reset_mask": mask})``."""
    ours = _rollout(_vector(4, mode), 300, seed=7)
    reference = gymnasium.make_vec(
        "CartPole-v1",
        4,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": gymnasium.vector.AutoresetMode.DISABLED},
    )
    theirs = _rollout(GymWrapper(reference, categorical_action_encoding=True), 300, seed=7)
    done = ours["next", "done"].squeeze(-1)
    assert int(done.sum()) > 20
    assert bool((done.sum(0) == 1).any())  # some steps end one sub-env alone
    assert (ours == theirs).all()


def test_reset_mask_keeps_the_other_sub_envs_state() -> None:
    env = _vector(3)
    first = _rollout(env, 5, seed=1)
    carried = first[..., -1]["next"].exclude("done", "terminated", "truncated", "reward")
    kept = carried["observation"].clone()  # TorchRL's reset writes into the tensordict
    mask = torch.tensor([[False], [True], [False]])
    after = env.reset(carried.set("_reset", mask))
    assert torch.equal(after["observation"][[0, 2]], kept[[0, 2]])
    assert not torch.equal(after["observation"][1], kept[1])
    assert float(after["observation"][1].abs().max()) <= 0.05  # CartPole's fresh start


def _mlp(outputs: int) -> nn.Module:
    return nn.Sequential(
        nn.Linear(4, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, outputs)
    )


def _first_episode_returns(rollout: TensorDict) -> torch.Tensor:
    """The return of each sub-env's first episode in a batched rollout."""
    done = rollout["next", "done"].squeeze(-1).int()
    in_first = (done.cumsum(-1) - done) == 0
    return (rollout["next", "reward"].squeeze(-1) * in_first).sum(-1)  # type: ignore[no-any-return]


def _deterministic_returns(actor: ProbabilisticActor) -> torch.Tensor:
    """The returns of 10 greedy episodes on seeded native envs."""
    evaluation = _vector(10)
    evaluation.set_seed(123)
    with set_exploration_type(ExplorationType.DETERMINISTIC), torch.no_grad():
        rollout = evaluation.rollout(500, actor, break_when_any_done=False)
    evaluation.close()
    return _first_episode_returns(rollout)


@pytest.mark.slow
def test_ppo_learns_cartpole_on_the_native_vector_env() -> None:
    """TorchRL's PPO pieces (collector, GAE, clipped loss) over 8 native envs with RL Zoo's
    CartPole settings (10 epochs), for at most 100k frames: from 40k frames on, a greedy
    evaluation of 10 episodes every 5k frames stops the run once it reaches CartPole-v1's
    threshold of 475, which the last evaluation must show."""
    torch.set_num_threads(1)
    torch.manual_seed(0)
    env = _vector(8)
    env.set_seed(0)
    actor = ProbabilisticActor(
        TensorDictModule(_mlp(2), in_keys=["observation"], out_keys=["logits"]),
        in_keys=["logits"],
        distribution_class=torch.distributions.Categorical,
        spec=env.action_spec,
        return_log_prob=True,
    )
    critic = ValueOperator(_mlp(1), in_keys=["observation"])
    advantage = GAE(gamma=0.98, lmbda=0.8, value_network=critic, average_gae=False)
    loss = ClipPPOLoss(
        actor,
        critic,
        clip_epsilon=0.2,
        entropy_coeff=0.0,
        critic_coeff=0.5,
        loss_critic_type="l2",
        normalize_advantage=True,
    )
    optimizer = torch.optim.Adam(loss.parameters(), lr=1e-3)
    frames, frames_per_batch = 100_000, 256
    collector = Collector(
        env,
        actor,
        frames_per_batch=frames_per_batch,
        total_frames=frames,
        auto_register_policy_transforms=False,
    )
    batches = -(-frames // frames_per_batch)
    returns = torch.zeros(10)
    for index, batch in enumerate(collector):
        for group in optimizer.param_groups:
            group["lr"] = 1e-3 * (1 - index / batches)
        with torch.no_grad():
            advantage(batch)
        flat = batch.reshape(-1)
        for _ in range(10):
            losses = loss(flat)
            total = losses["loss_objective"] + losses["loss_critic"]
            optimizer.zero_grad()
            total.backward()
            nn.utils.clip_grad_norm_(loss.parameters(), 0.5)
            optimizer.step()
        collector.update_policy_weights_()
        if (index + 1) * frames_per_batch >= 40_000 and (index + 1) % 20 == 0:
            returns = _deterministic_returns(actor)
            if float(returns.mean()) >= 475.0:
                break
    collector.shutdown()
    assert float(returns.mean()) >= 475.0, returns
