"""A human game of each bundled ruleset, played at a real terminal through tmux: keys are sent,
the screen is read (issue 13, "Done when").

Each test starts ``wargamekit play RULESET --players human,bot`` in a detached tmux session,
answers what the screen asks, types ``?`` and checks that the position reaches the screen with
its markers, presses Ctrl-C, checks that the save was written and the printed resume command
puts the human back at the controls.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from wargamekit import Game

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed (apt-get install -y tmux): the terminal tests need it"
)
WARGAMEKIT = str(Path(sys.executable).with_name("wargamekit"))
PROMPT = re.compile(r"(choose [^\n>]*>|number (-?\d+)-(-?\d+) >|yes or no >|\(yes/no\) >)\s*$")


class Screen:
    """One tmux session running one command."""

    def __init__(self, command: str, cwd: Path) -> None:
        self.socket = f"wgk-{uuid.uuid4().hex[:10]}"
        self.cwd = cwd
        self._tmux("new-session", "-d", "-x", "160", "-y", "50", "-c", str(cwd),
                   f"{command}; echo '<<exit '$?'>>'; sleep 600")

    def _tmux(self, *args: str) -> str:
        assert TMUX is not None
        return subprocess.run([TMUX, "-L", self.socket, *args], check=True, capture_output=True,
                              text=True).stdout

    def text(self) -> str:
        """Everything the terminal has shown (scrollback included), trailing blanks trimmed."""
        return "\n".join(line.rstrip() for line in self._tmux("capture-pane", "-p", "-J", "-S", "-").splitlines()).rstrip()

    def keys(self, *keys: str) -> None:
        self._tmux("send-keys", *keys)

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-l", text)
        self._tmux("send-keys", "Enter")

    def wait(self, until, timeout: float = 30.0) -> str:
        """Wait until ``until(screen text)`` is true; return the text."""
        end = time.monotonic() + timeout
        while True:
            text = self.text()
            if until(text):
                return text
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting; the screen reads:\n{text[-3000:]}")
            time.sleep(0.1)

    def prompt(self) -> str:
        """Wait for the next prompt (or the end) and return the screen."""
        return self.wait(lambda t: PROMPT.search(t) is not None or "<<exit" in t)

    def close(self) -> None:
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], capture_output=True)  # type: ignore[list-item]


@pytest.fixture
def screens():
    opened: list[Screen] = []

    def open_screen(command: str, cwd: Path) -> Screen:
        screen = Screen(command, cwd)
        opened.append(screen)
        return screen

    yield open_screen
    for screen in opened:
        screen.close()


def first_answer(screen_text: str) -> str:
    """A legal answer to the prompt at the bottom of the screen: the first option, a pass, the
    low end of a number range, "no" to a yes/no (so no concession is confirmed)."""
    match = PROMPT.search(screen_text)
    assert match is not None
    asked = match.group(1)
    if asked.startswith("number"):
        return match.group(2)
    if "yes" in asked:
        return "no"
    if "p (pass)" in asked:
        return "p"
    if "numbers separated" in asked:
        low = int(re.search(r"choose (\d+)-", asked).group(1))  # type: ignore[union-attr]
        return " ".join(str(i) for i in range(low))
    return re.search(r"choose (\d+)", asked).group(1)  # type: ignore[union-attr]


def play_some(screen: Screen, answers: int) -> str:
    """Answer ``answers`` prompts (or until the game ends); return the screen."""
    text = screen.prompt()
    for _ in range(answers):
        if "<<exit" in text:
            break
        before = len(text)
        screen.type(first_answer(text))
        screen.wait(lambda t, before=before: len(t) != before)
        text = screen.prompt()
    return text


def human_game(screens, tmp_path: Path, ruleset: str, seed: int, answers: int, extra: str = "") -> tuple[Screen, str]:
    """Play ``answers`` decisions, look at ``?``, press Ctrl-C; return the screen and the
    summary text shown on ``?``."""
    command = f"{shlex.quote(WARGAMEKIT)} play {ruleset} --seed {seed} --players human,bot {extra}"
    screen = screens(command, tmp_path)
    text = play_some(screen, answers)
    assert "<<exit" not in text, text[-2000:]
    shown_before = len(text)
    screen.type("?")
    text = screen.wait(lambda t: len(t) > shown_before and PROMPT.search(t) is not None and "Commands:" in t[shown_before:])
    summary_screen = text[shown_before:]
    screen.keys("C-c")
    text = screen.wait(lambda t: "<<exit" in t)
    return screen, summary_screen


def check_stopped_and_resumes(screens, screen: Screen, tmp_path: Path, ruleset: str, seed: int) -> Game:
    """Ctrl-C saved the game and printed a resume command; running it asks the human again."""
    text = screen.text()
    assert "<<exit 0>>" in text, text[-2000:]
    assert "stopped before the end (Ctrl-C); saved to" in text
    line = next(line for line in text.splitlines() if "resume with:" in line)
    command = line.split("resume with: ")[1]
    save = tmp_path / f"wargamekit-{ruleset}-{seed}.save.json"
    assert command == f"wargamekit resume {save.name} --players human,bot --save {save.name}"
    game = Game.load(save)
    assert not game.over and game.choices == json.loads(save.read_text())["choices"]
    resumed = screens(f"{shlex.quote(WARGAMEKIT)} {command.removeprefix('wargamekit ')}", tmp_path)
    text = resumed.prompt()
    assert "<<exit" not in text, text[-2000:]
    assert f"resuming {save.name} after {len(game.choices)} choices" in text
    assert "You play" in text  # the human is at the controls again
    resumed.type("quit")
    assert "<<exit 0>>" in resumed.wait(lambda t: "<<exit" in t)
    return game


def summary_on_screen(game: Game, side: str, screen: str) -> list[str]:
    """Every line of ``side``'s summary is on the screen as written; the lines with brackets."""
    summary = game.ruleset.summary(game.view(side).state)
    lines = [line.strip() for line in summary.splitlines() if line.strip()]
    for line in lines:
        assert line in screen, f"{line!r} is not on the screen:\n{screen[-3000:]}"
    return [line for line in lines if "[" in line]


def test_tank_solo_at_the_terminal_shows_markers(screens, tmp_path):
    """tank_solo: the force pick, deployment and the first moves; `?` shows the tank lines with
    their bracketed markers ("[specials: …]", "[fired]") exactly as the summary writes them."""
    screen, summary = human_game(screens, tmp_path, "tank_solo", 3, answers=40)
    game = check_stopped_and_resumes(screens, screen, tmp_path, "tank_solo", 3)
    marked = summary_on_screen(game, "A", summary)
    assert any("  [" in line for line in marked), "no tank carries a marker yet: play further"


def test_maneuver_locale_at_the_terminal_shows_the_map(screens, tmp_path):
    """maneuver_locale: a few moves; `?` shows the position and the map's adjacency, roads and
    approaches, with the bracketed locale ids and objectives."""
    screen, summary = human_game(screens, tmp_path, "maneuver_locale", 2, answers=12)
    game = check_stopped_and_resumes(screens, screen, tmp_path, "maneuver_locale", 2)
    marked = summary_on_screen(game, "austria", summary)
    assert any("[marengo, objective 3 VP]" in line and "primary road" in line for line in marked)


def test_skirmish_at_the_terminal_shows_the_map(screens, tmp_path):
    """skirmish: activations, moves and facings; `?` shows the units and a map."""
    screen, summary = human_game(screens, tmp_path, "skirmish", 4, answers=8)
    game = check_stopped_and_resumes(screens, screen, tmp_path, "skirmish", 4)
    summary_on_screen(game, "blue", summary)
    assert "Map: . clear  W woods  H hill" in summary


def test_mttt_rpg_asks_responses_only_where_one_is_playable(screens, tmp_path):
    """mttt_rpg: the human is shown a response window's menu exactly where a response is worth
    playing (replaying the save tells which windows those were); the others are passed for
    her, and she is told so once."""
    from wargamekit.players import auto_pass

    screen, summary = human_game(screens, tmp_path, "mttt_rpg", 2, answers=25)
    played = screen.text()
    game = check_stopped_and_resumes(screens, screen, tmp_path, "mttt_rpg", 2)
    summary_on_screen(game, "heroes", summary)
    replay = Game.new("mttt_rpg", "default", seed=2)
    asked = passed = 0
    for choice in game.choices:
        decision = replay.pending
        if decision.side == "heroes" and decision.kind == "mttt_rpg.respond":
            if auto_pass(decision) is None:
                asked += 1
            else:
                passed += 1
        replay.answer(choice)
    menus = [line for line in played.splitlines() if line.startswith("heroes: ") and line.endswith("respond?")]
    assert passed > 0 and asked > 0, (passed, asked)
    assert len(menus) == asked
    assert played.count("passes response windows where nothing calls for an answer") == 1
    assert "0 is not an option here" not in played  # the windows took p, the menus their numbers
