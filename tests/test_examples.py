"""The runnable examples of docs/research.md, each for a few steps: they run and report."""

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize(
    "script,args,says",
    [
        ("reinforce.py", ["--episodes", "5", "--eval", "3"], "mean reward against random"),
        (
            "pettingzoo_selfplay.py",
            ["--episodes", "40", "--every", "20", "--eval", "5"],
            "episode 40: ",
        ),
        (
            "openspiel_dqn.py",
            ["--episodes", "4", "--every", "2", "--eval", "2"],
            "episode 4: ",
        ),
        (
            "sb3_maskable_ppo.py",
            ["--steps", "256", "--every", "256", "--eval", "2", "--envs", "2"],
            "step 256: ",
        ),
    ],
)
def test_research_examples_run(script, args, says):
    if script in ("sb3_maskable_ppo.py", "openspiel_dqn.py"):
        pytest.importorskip("torch")  # the rl extra
    path = EXAMPLES / script
    run = subprocess.run(
        [sys.executable, str(path), *args], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert says in run.stdout
