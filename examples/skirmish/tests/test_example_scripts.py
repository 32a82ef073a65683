"""The runnable scripts in examples/ run and print what they promise."""

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2]


def run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_play_bots_prints_an_outcome():
    """examples/play_bots.py plays skirmish bot against bot and prints the winner and reason."""
    out = run("play_bots.py", "skirmish", "3")
    assert out.startswith("skirmish 1.1, seed 3:")
    assert "winner: " in out and "8." in out.splitlines()[-1]  # a victory rule (8.1 or 8.2) is cited


def test_shot_odds_prints_exact_fractions():
    """examples/shot_odds.py prints the exact odds of a front and a flank shot."""
    lines = run("shot_odds.py").splitlines()
    assert lines == [
        "front shot, 2d6 +0: MISS 7/12 (58.3%), HIT 7/18 (38.9%), KILL 1/36 (2.8%); expected steps 4/9",
        "flank shot, 2d6 +1: MISS 5/12 (41.7%), HIT 1/2 (50.0%), KILL 1/12 (8.3%); expected steps 2/3",
    ]
