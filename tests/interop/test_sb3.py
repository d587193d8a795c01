"""The Stable-Baselines3 VecEnv: SB3's conventions, and sb3-contrib's MaskablePPO learning on it
with no wrapper."""

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecEnv, VecMonitor

from azul.interop.observation import observation
from azul.interop.sb3 import AzulSB3VecEnv


def python_state(envs, state):
    """A game's state on the Python engine (the batch keeps the compiled core's)."""
    return state.to_state() if envs.envs.core else state


@pytest.mark.parametrize("game", ["pavilion", "sintra"])
def test_the_vecenv_follows_sb3s_conventions(game):
    envs = AzulSB3VecEnv(game, num_envs=3, reward="score")
    assert isinstance(envs, VecEnv) and is_masking_supported(envs)
    envs.seed(7)
    obs = envs.reset()
    assert obs["observation"].shape == (3, *envs.observation_space["observation"].shape)
    assert [info["seat"] for info in envs.reset_infos] == [0, 0, 0]
    envs.seed(7)
    again = envs.reset()
    assert np.array_equal(obs["observation"], again["observation"])  # seeded
    rng, ended = np.random.default_rng(7), 0
    for _ in range(400):
        masks = get_action_masks(envs)
        assert masks.dtype == np.bool_ and np.array_equal(masks, obs["action_mask"] == 1)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        before = list(envs.envs.states)
        obs, rewards, dones, infos = envs.step(actions)
        assert rewards.dtype == np.float32 and len(infos) == 3
        for i in np.flatnonzero(dones):  # the game that ended, its row the next game's
            last = infos[i]["terminal_observation"]
            final = python_state(envs, before[i])
            assert np.array_equal(last["observation"], observation(final, 0))
            assert not last["action_mask"].any() and not infos[i]["TimeLimit.truncated"]
            scores = infos[i]["scores"]
            assert rewards[i] == scores[0] - max(scores[1:])  # reward="score": the margin
            assert obs["action_mask"][i].any()
            ended += 1
        assert all(infos[i] == {} for i in np.flatnonzero(~dones))
    assert ended >= 3
    # an illegal action ends that game alone, with the engine's reason
    masks = get_action_masks(envs)
    bad = int(np.flatnonzero(~masks[1])[0])
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    actions[1] = bad
    _, _, dones, infos = envs.step(actions)
    assert dones[1] and infos[1]["illegal"] and "scores" not in infos[1]
    with pytest.raises(AttributeError):
        envs.get_attr("no_such_thing")


def test_maskable_ppo_learns_on_it_as_it_is():
    import torch

    torch.set_num_threads(1)  # the suite's workers share the cores
    envs = VecMonitor(AzulSB3VecEnv("sintra", num_envs=4, opponents=["random"], normalize=True))
    model = MaskablePPO("MultiInputPolicy", envs, n_steps=32, batch_size=64, n_epochs=2, seed=0)
    model.learn(256)
    assert model.num_timesteps >= 256
    obs = envs.reset()
    actions, _ = model.predict(obs, action_masks=get_action_masks(envs), deterministic=True)
    masks = get_action_masks(envs)
    assert all(masks[i, a] for i, a in enumerate(actions))  # only legal actions are chosen
