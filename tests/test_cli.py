"""The ``wargamekit`` command, driven with click's test runner on small test rulesets."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result
from rulesets import DiceRace

from wargamekit import Choose, Game, ScriptedPlayer, cli, hookimpl
from wargamekit.odds import distribution
from wargamekit.plugins import plugin_manager, rulesets_of


class AlwaysRoll:
    """A bot that always rolls and always keeps racing (so it is easy to predict)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, decision, view):
        if isinstance(decision, Choose):
            return decision.labels.index("roll")
        return True


class CliRace(DiceRace):
    """DiceRace with every optional ruleset feature the command uses."""

    name = "cli_race"
    description = "DiceRace with a bot, a summary, SVG and an odds command."

    def summary(self, state):
        return f"totals {state['totals']}, round {state['round']}, secrets {state['secret']}"

    def render_svg(self, state, side=None):
        # Drawn from the side's view, as a ruleset must: the secrets only that side may see.
        secrets = sorted(self.view(state, side)["secret"].items())
        return f'<svg xmlns="http://www.w3.org/2000/svg"><text>{sorted(state.totals.items())} {secrets}</text></svg>'

    def bots(self):
        return {"bot": AlwaysRoll, "always_roll": AlwaysRoll}

    def odds_command(self):
        @click.command()
        @click.option("--need", type=int, required=True, help="The face needed on one d6.")
        def race_odds(need: int) -> None:
            """The chance that one roll reaches NEED."""
            chance = distribution(lambda dice: dice.d6("roll") >= need)[True]
            click.echo(f"P(d6 >= {need}) = {chance}")

        return race_odds


class RacePlugin:
    @hookimpl
    def wargamekit_rulesets(self):
        return [CliRace(), DiceRace()]


class EventCounter:
    def __init__(self) -> None:
        self.kinds: list[str] = []

    @hookimpl
    def wargamekit_event(self, game, event):
        self.kinds.append(event.kind)


@pytest.fixture
def counter() -> EventCounter:
    return EventCounter()


@pytest.fixture(autouse=True)
def registry(monkeypatch, counter):
    """The command sees only the test rulesets (and an event observer), never installed ones."""
    pm = plugin_manager(load_entry_points=False, plugins=[RacePlugin(), counter])
    monkeypatch.setattr(cli, "plugin_manager", lambda addons=(): pm)
    monkeypatch.setattr(cli, "installed_rulesets", lambda: rulesets_of(pm))
    # nor the installed add-ons (the workspace installs the example add-on wargamekit-tank-apcr)
    monkeypatch.setattr(cli._plugins, "installed_addons", lambda: [])


@pytest.fixture(autouse=True)
def _in_a_scratch_directory(tmp_path, monkeypatch):
    """Every command runs in a fresh directory: a human game stopped without --save is saved to
    the current directory, which must not be the repository."""
    monkeypatch.chdir(tmp_path)


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(cli.cli, list(args), input=input)


def assert_bad_input(result: Result, *fragments: str) -> str:
    """Exit status 2, exactly one ``error:`` line on stderr, no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


def log_part(output: str) -> list[str]:
    """The log and result lines of ``play``/``replay`` output (without the header line)."""
    return output.splitlines()[1:]


@pytest.fixture
def scenario_file(tmp_path: Path) -> Path:
    path = tmp_path / "short.toml"
    path.write_text('ruleset = "cli_race"\ntarget = 6\nmax_rounds = 3\n', encoding="utf-8")
    return path


# -- rulesets ---------------------------------------------------------------------------------


def test_rulesets_lists_name_version_description():
    """`wargamekit rulesets` prints one line per ruleset: name, version, description."""
    result = run("rulesets")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "cli_race   1.0  DiceRace with a bot, a summary, SVG and an odds command.",
        "dice_race  1.0  A two-player dice race used by the core tests.",
    ]


def test_rulesets_is_a_table_on_a_terminal(monkeypatch):
    """On a terminal the list is a rich table with a header row."""
    from rich.console import Console

    monkeypatch.setattr(cli, "_console", lambda: Console(force_terminal=True, width=100, highlight=False))
    result = run("rulesets")
    assert result.exit_code == 0
    assert "ruleset" in result.output and "version" in result.output and "┏" in result.output
    assert "cli_race" in result.output and "dice_race" in result.output


# -- play -------------------------------------------------------------------------------------


def test_play_bot_vs_bot_prints_log_and_result(counter):
    """Default players are the ruleset's bots; the log shows every event and the result."""
    result = run("play", "cli_race", "--seed", "3")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "cli_race 1.0 — scenario default, seed 3 — red: bot, blue: bot"
    assert "red holds" in result.output and "blue holds" in result.output  # observers see all
    assert lines[-2].startswith("Game over: ")
    assert lines[-1].startswith("result: ") and "wins" in lines[-1]
    # AlwaysRoll never banks, so every choice event is a roll.
    assert "-> bank" not in result.output
    assert counter.kinds[-1] == "end"  # the installed plugin manager observed the game


def test_play_matches_the_python_api():
    """The CLI's game is the same game as Game.new + the same players (same seed, same log)."""
    result = run("play", "cli_race", "--seed", "5", "--players", "random,always_roll")
    game = Game.new(CliRace(), seed=5)
    from wargamekit import RandomBot

    game.play({"red": RandomBot(5 * 1000 + 1), "blue": AlwaysRoll(0)})
    expected = [e.text for e in game.log]
    assert log_part(result.output)[:-1] == expected


def test_play_quiet_prints_only_the_result():
    """--quiet prints the result line and nothing else."""
    result = run("play", "cli_race", "--seed", "1", "--quiet")
    assert result.exit_code == 0
    assert len(result.output.splitlines()) == 1
    assert result.output.startswith("result: ")


def test_quiet_play_on_a_terminal_shows_progress(monkeypatch):
    """--quiet on a terminal shows a live decision count, then the result."""
    from rich.console import Console

    plain = run("play", "cli_race", "--seed", "1", "--quiet").output.strip()
    monkeypatch.setattr(cli, "_console", lambda: Console(force_terminal=True, width=100, highlight=False))
    result = run("play", "cli_race", "--seed", "1", "--quiet")
    assert result.exit_code == 0
    assert "cli_race: playing… " in result.output and " decisions" in result.output
    assert result.output.rstrip().endswith(plain)


def test_play_without_seed_prints_the_seed_it_chose():
    """Without --seed a random seed is used and printed, so the game can be reproduced."""
    result = run("play", "cli_race")
    assert result.exit_code == 0
    seed = result.output.splitlines()[0].split("seed ")[1].split(" ")[0]
    again = run("play", "cli_race", "--seed", seed)
    assert again.output == result.output


def test_play_random_falls_back_when_ruleset_has_no_bot():
    """`bot` means the random bot for a ruleset without bots()."""
    result = run("play", "dice_race", "--seed", "2", "--players", "bot,random")
    assert result.exit_code == 0, result.output
    assert "red: bot, blue: random" in result.output


def test_play_options_are_toml_scalars():
    """--option doubles=true switches the optional rule on (totals grow by 2×face)."""
    result = run("play", "cli_race", "--seed", "4", "--option", "doubles=true")
    assert result.exit_code == 0, result.output
    game = Game.new(CliRace(), seed=4, options={"doubles": True})
    game.play({"red": AlwaysRoll(0), "blue": AlwaysRoll(0)})
    assert log_part(result.output)[:-1] == [e.text for e in game.log]


def test_play_scenario_file_with_ruleset_key(scenario_file):
    """--scenario takes a TOML file; its `ruleset` key is checked and dropped."""
    result = run("play", "cli_race", "--seed", "1", "--scenario", str(scenario_file), "--quiet")
    assert result.exit_code == 0, result.output
    game = Game.new(CliRace(), {"target": 6, "max_rounds": 3}, seed=1)
    game.play({"red": AlwaysRoll(0), "blue": AlwaysRoll(0)})
    assert result.output.strip() == cli._result_line(game)


def test_play_bundled_scenario_by_name():
    """--scenario default names the bundled scenario."""
    result = run("play", "cli_race", "--seed", "1", "--scenario", "default", "--quiet")
    assert result.exit_code == 0, result.output


def test_play_writes_svg(tmp_path):
    """--svg writes the ruleset's picture of the final position."""
    svg = tmp_path / "end.svg"
    result = run("play", "cli_race", "--seed", "1", "--quiet", "--svg", str(svg))
    assert result.exit_code == 0, result.output
    assert svg.read_text().startswith("<svg") and "red" in svg.read_text()


def test_save_then_replay_gives_the_same_log(tmp_path):
    """A save replays to exactly the log and result that play printed."""
    save = tmp_path / "game.json"
    played = run("play", "cli_race", "--seed", "7", "--players", "random,random", "--save", str(save))
    assert played.exit_code == 0, played.output
    assert json.loads(save.read_text())["ruleset"] == "cli_race"
    replayed = run("replay", str(save), "--as", "all")
    assert replayed.exit_code == 0, replayed.output
    choices = len(json.loads(save.read_text())["choices"])
    assert replayed.output.splitlines()[0].endswith(f"replaying {choices} choices — showing everything, every side's secrets included")
    assert log_part(replayed.output) == log_part(played.output)


def test_replay_quiet_and_svg(tmp_path):
    """replay --quiet prints only the result; --svg draws the final position."""
    save = tmp_path / "game.json"
    run("play", "cli_race", "--seed", "7", "--quiet", "--save", str(save))
    svg = tmp_path / "replayed.svg"
    result = run("replay", str(save), "--quiet", "--as", "all", "--svg", str(svg))
    assert result.exit_code == 0
    assert result.output.startswith("result: ") and len(result.output.splitlines()) == 1
    assert svg.read_text().startswith("<svg")


# -- human play -------------------------------------------------------------------------------


def test_human_sees_only_own_side_and_can_quit_then_resume(tmp_path):
    """A human sees only events visible to their side; quit still writes the save; resume
    carries the game on to its end."""
    save = tmp_path / "half.json"
    result = run(
        "play", "cli_race", "--seed", "1", "--players", "human,bot", "--save", str(save),
        input="0\ny\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "red holds" in result.output
    assert "blue holds" not in result.output  # blue's secret stays hidden from red
    assert "red: Roll or bank? -> roll" in result.output
    assert "red: Keep racing? -> yes" in result.output
    assert f"stopped before the end; saved to {save}; resume with: wargamekit resume {save} --players human,bot --save {save}" in result.output
    saved = json.loads(save.read_text())
    assert saved["choices"][:3] == [0, 0, True]  # red roll, blue (bot) roll, keep racing

    half = run("replay", str(save))
    assert half.exit_code == 0
    assert half.output.splitlines()[-1].startswith("result: unfinished after 3 choices")

    resumed = run("resume", str(save), "--players", "bot,bot", "--quiet")
    assert resumed.exit_code == 0, resumed.output
    assert resumed.output.startswith("result: ") and "wins" in resumed.output


def test_two_humans_each_see_their_own_secret():
    """Two humans at one terminal: each side's secret is shown only when that side is asked."""
    result = run("play", "cli_race", "--seed", "1", "--players", "human,human", input="1\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    # Blue's secret is rolled before red is asked, yet shown only when blue is asked.
    assert out.index("red holds") < out.index("choose 0-1 >") < out.index("blue holds")
    assert out.count("blue holds") == 1 and out.count("red holds") == 1


def test_human_summary_on_question_mark():
    """`?` prints the ruleset's summary of the human's view."""
    result = run("play", "cli_race", "--seed", "1", "--players", "human,bot", input="?\nquit\n")
    assert "totals {'red': 0, 'blue': 0}, round 1" in result.output


def test_human_bad_and_illegal_answers_are_asked_again():
    """An unreadable answer and a choice the rules reject (R1) are reported; the human is asked
    again and the game is unchanged."""
    result = run(
        "play", "cli_race", "--seed", "1", "--players", "human,bot",
        "--option", "offer_cheat=true", input="9\n2\n0\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "9 is not one of 0..2" in result.output
    assert "illegal choice [R1]: cheating is never allowed" in result.output
    assert "red: Roll or bank? -> roll" in result.output


def test_human_input_ending_is_an_error_but_saves(tmp_path):
    """Input ending mid-game is one error line (exit 2); the save is still written."""
    save = tmp_path / "cut.json"
    result = run("play", "cli_race", "--seed", "1", "--players", "human,bot", "--save", str(save), input="0\n")
    assert_bad_input(result, "the input ended before the game did")
    assert json.loads(save.read_text())["choices"][:2] == [0, 0]


# -- validate ---------------------------------------------------------------------------------


def test_validate_ok_with_ruleset_key(scenario_file):
    """A scenario naming its ruleset validates without --ruleset."""
    result = run("validate", str(scenario_file))
    assert result.exit_code == 0 and result.output == "ok\n"


def test_validate_ok_with_ruleset_option(tmp_path):
    """--ruleset names the ruleset of a file without a `ruleset` key."""
    path = tmp_path / "plain.toml"
    path.write_text("target = 8\n")
    result = run("validate", str(path), "--ruleset", "dice_race")
    assert result.exit_code == 0 and result.output == "ok\n"


def test_validate_bad_field_names_the_path(tmp_path):
    """A wrong type is reported with the file and the path to the field."""
    path = tmp_path / "bad.toml"
    path.write_text('target = "high"\n')
    assert_bad_input(run("validate", str(path), "--ruleset", "cli_race"), str(path), "$.target")


def test_validate_unknown_key(tmp_path):
    """An unknown key (a typo) is rejected."""
    path = tmp_path / "typo.toml"
    path.write_text("targte = 8\n")
    assert_bad_input(run("validate", str(path), "--ruleset", "cli_race"), "targte")


def test_validate_not_toml(tmp_path):
    """A file that is not TOML is one error line."""
    path = tmp_path / "broken.toml"
    path.write_text("target = = 3\n")
    assert_bad_input(run("validate", str(path), "--ruleset", "cli_race"), "not valid TOML")


def test_validate_missing_file(tmp_path):
    """A missing file is one error line."""
    assert_bad_input(run("validate", str(tmp_path / "none.toml"), "--ruleset", "cli_race"), "cannot read")


def test_validate_needs_a_ruleset(tmp_path):
    """Without --ruleset and without a `ruleset` key the command says what to do."""
    path = tmp_path / "plain.toml"
    path.write_text("target = 8\n")
    assert_bad_input(run("validate", str(path)), "--ruleset")


def test_validate_file_for_another_ruleset(scenario_file):
    """A file whose `ruleset` key names another ruleset is refused."""
    assert_bad_input(run("validate", str(scenario_file), "--ruleset", "dice_race"), "$.ruleset", "'cli_race'")


def test_validate_unknown_ruleset(tmp_path):
    """An unknown ruleset name lists the installed ones."""
    path = tmp_path / "plain.toml"
    path.write_text("target = 8\n")
    assert_bad_input(run("validate", str(path), "--ruleset", "chess"), "'chess'", "cli_race, dice_race")


# -- odds -------------------------------------------------------------------------------------


def test_odds_runs_the_ruleset_command():
    """`odds RULESET ARGS` runs the ruleset's own click command with ARGS."""
    result = run("odds", "cli_race", "--need", "5")
    assert result.exit_code == 0, result.output
    assert result.output == f"P(d6 >= 5) = {Fraction(1, 3)}\n"


def test_odds_help():
    """`odds` alone shows its help; `odds RULESET --help` shows the ruleset command's help."""
    assert "Exact odds" in run("odds").output
    inner = run("odds", "cli_race", "--help")
    assert inner.exit_code == 0
    assert "wargamekit odds cli_race" in inner.output and "--need" in inner.output


def test_odds_ruleset_without_command():
    """A ruleset without an odds command is one error line."""
    assert_bad_input(run("odds", "dice_race"), "has no odds command")


def test_odds_bad_arguments():
    """A usage error inside the ruleset's command is one error line."""
    assert_bad_input(run("odds", "cli_race", "--need", "many"), "many")
    assert_bad_input(run("odds", "cli_race"), "--need")


def test_odds_unknown_ruleset():
    """An unknown ruleset is one error line."""
    assert_bad_input(run("odds", "chess"), "no ruleset named 'chess'")


# -- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["play", "chess"], ["no ruleset named 'chess'", "cli_race, dice_race"]),
        (["play", "cli_race", "--scenario", "nosuch"], ["no bundled scenario 'nosuch'"]),
        (["play", "cli_race", "--scenario", "missing.toml"], ["missing.toml", "cannot read"]),
        (["play", "cli_race", "--option", "turbo=true"], ["no option 'turbo'", "doubles"]),
        (["play", "cli_race", "--option", "doubles"], ["NAME=VALUE"]),
        (["play", "cli_race", "--option", "doubles=ture"], ["expected bool", "'ture'"]),
        (["play", "cli_race", "--players", "bot"], ["one player per side", "red, blue"]),
        (["play", "cli_race", "--players", "bot,wizard"], ["no player kind 'wizard'", "always_roll"]),
        (["play", "dice_race", "--svg", "x.svg"], ["cannot draw SVG"]),
        (["play", "cli_race", "--seed", "many"], ["'many'"]),
        (["play", "cli_race", "--seed", "-1"], ["--seed", "-1"]),
        (["play"], ["Missing argument 'RULESET'"]),
        (["play", "cli_race", "--colour"], ["No such option '--colour'"]),
        (["castle"], ["No such command 'castle'"]),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) and v and v[0] in {"play", "castle"} else "",
)
def test_bad_input_is_one_error_line(args, fragments):
    """Unknown ruleset, scenario, option, player or flag: one `error:` line, exit status 2."""
    assert_bad_input(run(*args), *fragments)


def test_bad_scenario_file_names_the_field(tmp_path):
    """play --scenario with a wrong type names the file and the field's path."""
    path = tmp_path / "bad.toml"
    path.write_text("max_rounds = -1.5\n")
    assert_bad_input(run("play", "cli_race", "--scenario", str(path)), str(path), "$.max_rounds")


def test_illegal_answer_from_a_bot_is_one_error_line():
    """A bot's answer that the rules reject (R1) stops the game with one error line."""
    result = run("play", "cli_race", "--seed", "0", "--players", "random,random", "--option", "offer_cheat=true")
    assert_bad_input(result, "illegal choice [R1]: cheating is never allowed")


def test_unwritable_save_is_one_error_line(tmp_path):
    """A save path that cannot be written is one error line."""
    assert_bad_input(run("play", "cli_race", "--seed", "1", "--quiet", "--save", str(tmp_path / "no" / "game.json")), "cannot write the save")


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("not json", "not JSON"),
        ('{"format": 1}', "$"),
        ("[1, 2]", "$: expected a JSON object, got list"),
    ],
)
def test_bad_save_is_one_error_line(tmp_path, content, fragment):
    """A save that is not a save is one error line, for replay and resume."""
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert_bad_input(run("replay", str(path)), fragment)
    assert_bad_input(run("resume", str(path)), fragment)


def test_save_of_unknown_ruleset_or_version(tmp_path):
    """A save for a ruleset that is not installed, or another version, is refused."""
    save = tmp_path / "game.json"
    run("play", "cli_race", "--seed", "1", "--quiet", "--save", str(save))
    data = json.loads(save.read_text())
    save.write_text(json.dumps({**data, "ruleset": "chess"}))
    assert_bad_input(run("replay", str(save)), "'chess'")
    save.write_text(json.dumps({**data, "ruleset_version": "0.9"}))
    assert_bad_input(run("replay", str(save)), "0.9")


def test_save_that_does_not_replay(tmp_path):
    """A save whose choices do not replay is refused (never half-loaded)."""
    save = tmp_path / "game.json"
    run("play", "cli_race", "--seed", "1", "--quiet", "--save", str(save))
    data = json.loads(save.read_text())
    save.write_text(json.dumps({**data, "choices": [7]}))
    assert_bad_input(run("replay", str(save)), "$.choices[0]")


@pytest.mark.parametrize(
    ("field", "value", "fragment"),
    [
        ("seed", -1, "seed must be a whole number 0 or more"),
        ("options", {"doubles": "yes"}, "option 'doubles': expected bool"),
    ],
)
def test_save_with_a_bad_seed_or_option_is_one_error_line(tmp_path, field, value, fragment):
    """A save whose seed numpy refuses, or whose option has the wrong kind, is one error line."""
    save = tmp_path / "game.json"
    run("play", "cli_race", "--seed", "1", "--quiet", "--save", str(save))
    data = json.loads(save.read_text())
    save.write_text(json.dumps({**data, field: value}))
    assert_bad_input(run("replay", str(save)), fragment)


def test_missing_save(tmp_path):
    """A save file that does not exist is one error line."""
    assert_bad_input(run("replay", str(tmp_path / "nope.json")), "cannot read")


# -- the whole command ------------------------------------------------------------------------


def test_no_arguments_shows_help():
    """`wargamekit` alone prints the help and succeeds."""
    result = run()
    assert result.exit_code == 0
    assert "rulesets" in result.output and "play" in result.output


def test_version():
    """--version prints the package version."""
    from wargamekit import __version__

    assert run("--version").output.strip().endswith(__version__)


def test_scripted_player_agrees_with_cli_human():
    """The answers a human typed are the answers a ScriptedPlayer would give by label."""
    game = Game.new(CliRace(), seed=1)
    game.play({"red": ScriptedPlayer(["bank", False]), "blue": AlwaysRoll(0)})
    result = run("play", "cli_race", "--seed", "1", "--players", "human,bot", input="1\nn\n")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == cli._result_line(game)


def test_python_dash_m_runs_the_command():
    """`python -m wargamekit` is the same command (real entry points, no test rulesets)."""
    done = subprocess.run(
        [sys.executable, "-m", "wargamekit", "--help"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: wargamekit ")


def test_installed_rulesets_are_listed():
    """`wargamekit rulesets` with the real plugin manager lists every installed ruleset."""
    from wargamekit.plugins import installed_rulesets

    done = subprocess.run(
        [sys.executable, "-m", "wargamekit", "rulesets"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    listed = [line.split()[0] for line in done.stdout.splitlines() if not line.startswith("add-on ")]
    assert listed == list(installed_rulesets())


def test_scenario_that_is_a_directory_says_so(tmp_path, monkeypatch):
    """--scenario naming a directory says it is a directory (not "there is no file")."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "maps").mkdir()
    assert_bad_input(run("play", "cli_race", "--scenario", "maps"), "'maps' is a directory")


def test_validate_ruleset_key_that_is_not_a_name(tmp_path):
    """A top-level `ruleset` that is not a string is named as such (the file does have one)."""
    path = tmp_path / "num.toml"
    path.write_text("ruleset = 3\n")
    assert_bad_input(run("validate", str(path)), "$.ruleset: expected the ruleset's name (a string), got 3")


# -- hidden information at the terminal (issue 12) ----------------------------------------------


def secrets_drawn(svg: Path) -> dict[str, object]:
    """The secret numbers an SVG of CliRace shows, by side (None: hidden)."""
    import ast

    text = svg.read_text()
    return dict(ast.literal_eval(text[text.index("] [") + 2 : text.index("</text>")]))


def test_svg_of_a_human_game_draws_the_humans_view(tmp_path):
    """With a human playing red, --svg draws red's view: blue's secret is not in the picture."""
    svg = tmp_path / "end.svg"
    result = run("play", "cli_race", "--seed", "1", "--players", "human,bot", "--svg", str(svg), input="quit\n")
    assert result.exit_code == 0, result.output
    drawn = secrets_drawn(svg)
    assert drawn["blue"] is None and isinstance(drawn["red"], int)


def test_svg_view_all_draws_everything_only_when_asked(tmp_path):
    """--svg-view all is the explicit way to the all-seeing picture; bots-only games draw it too."""
    asked = tmp_path / "all.svg"
    result = run("play", "cli_race", "--seed", "1", "--players", "human,bot", "--svg", str(asked),
                 "--svg-view", "all", input="quit\n")
    assert result.exit_code == 0, result.output
    assert all(isinstance(v, int) for v in secrets_drawn(asked).values())
    bots = tmp_path / "bots.svg"
    assert run("play", "cli_race", "--seed", "1", "--quiet", "--svg", str(bots)).exit_code == 0
    assert all(isinstance(v, int) for v in secrets_drawn(bots).values())
    blue = tmp_path / "blue.svg"
    assert run("play", "cli_race", "--seed", "1", "--quiet", "--svg", str(blue), "--svg-view", "blue").exit_code == 0
    assert secrets_drawn(blue)["red"] is None


def test_svg_with_two_humans_asks_whose_view():
    """Two humans at one terminal: no picture is drawn for both; --svg-view must say whose."""
    assert_bad_input(
        run("play", "cli_race", "--seed", "1", "--players", "human,human", "--svg", "x.svg"),
        "several humans play", "--svg-view",
    )
    assert_bad_input(run("play", "cli_race", "--svg", "x.svg", "--svg-view", "green"), "--svg-view 'green'")


def test_question_mark_shows_the_humans_view_only():
    """`?` summarises red's view: red's own secret, blue's hidden."""
    result = run("play", "cli_race", "--seed", "1", "--players", "human,bot", input="?\nquit\n")
    out = " ".join(result.output.split())  # the console may wrap the line
    assert "secrets {'red': " in out and "'blue': None}" in out and "'red': None" not in out


def test_replay_shows_the_public_view_by_default_and_says_so(tmp_path):
    """replay prints what every side sees unless --as names a side (or all): a human cannot
    quit, replay, and resume knowing the opponent's secret."""
    save = tmp_path / "game.json"
    run("play", "cli_race", "--seed", "7", "--quiet", "--save", str(save))
    public = run("replay", str(save))
    assert public.exit_code == 0, public.output
    assert "showing the public view" in public.output.splitlines()[0]
    assert "holds" not in public.output and "secret number" not in public.output
    red = run("replay", str(save), "--as", "red")
    assert "showing red's view" in red.output.splitlines()[0]
    assert "red holds" in red.output and "blue holds" not in red.output
    everything = run("replay", str(save), "--as", "all")
    assert "red holds" in everything.output and "blue holds" in everything.output
    assert_bad_input(run("replay", str(save), "--as", "green"), "--as 'green'")


def test_replay_svg_draws_the_chosen_view(tmp_path):
    """replay --svg draws the --as side's view; the public view has no picture, so it asks."""
    save = tmp_path / "game.json"
    run("play", "cli_race", "--seed", "7", "--quiet", "--save", str(save))
    assert_bad_input(run("replay", str(save), "--svg", str(tmp_path / "x.svg")), "public view has no picture")
    svg = tmp_path / "red.svg"
    assert run("replay", str(save), "--quiet", "--as", "red", "--svg", str(svg)).exit_code == 0
    assert secrets_drawn(svg)["blue"] is None and isinstance(secrets_drawn(svg)["red"], int)


def test_quit_prints_the_command_that_puts_the_human_back_at_the_controls(tmp_path, monkeypatch):
    """quit with no --save still saves (in the current directory); the printed command resumes
    with the human playing, and undo at the prompt takes back the human's last answer."""
    monkeypatch.chdir(tmp_path)
    result = run("play", "cli_race", "--seed", "1", "--players", "human,bot", input="0\nquit\n")
    assert result.exit_code == 0, result.output
    save = Path("wargamekit-cli_race-1.save.json")
    line = result.output.splitlines()[-1]
    assert line.endswith(f"resume with: wargamekit resume {save} --players human,bot --save {save}")
    assert json.loads(save.read_text())["choices"] == [0, 0]
    # The printed command, run as printed: the human (red) is asked, and undo works there.
    args = line.split("resume with: wargamekit ")[1].split()
    resumed = run(*args, input="y\nundo\nn\nquit\n")
    assert resumed.exit_code == 0, resumed.output
    assert "red: Keep racing?" in resumed.output
    assert "took back 1 answer(s), back to red's last decision" in resumed.output
    assert json.loads(save.read_text())["choices"] == [0, 0, False]


def test_ctrl_c_at_the_prompt_saves_like_quit(tmp_path, monkeypatch):
    """Ctrl-C at the terminal prompt stops, writes the save and says how to resume (exit 0)."""
    from rich.console import Console

    answers = iter(["0"])

    def typed(self, prompt="", **kwargs):
        try:
            return next(answers)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr(Console, "input", typed)
    save = tmp_path / "c.json"
    result = run("play", "cli_race", "--seed", "1", "--players", "human,bot", "--save", str(save))
    assert result.exit_code == 0, result.output
    assert "stopped before the end (Ctrl-C); saved to" in result.output
    assert json.loads(save.read_text())["choices"] == [0, 0]


def test_undo_with_nothing_to_take_back_says_so():
    """undo before the human has answered anything is refused, and play goes on."""
    result = run("play", "cli_race", "--seed", "1", "--players", "human,bot", "--save", "/dev/null",
                 input="undo\nquit\n")
    assert "red has no answer to take back" in result.output


def test_ctrl_c_while_a_bot_thinks_saves_the_answers_that_stand(tmp_path, monkeypatch):
    """Ctrl-C during a bot's turn: the game is rebuilt from the answers given so far, saved,
    and the resume command printed (exit 0)."""
    calls = {"n": 0}

    def interrupted(self, decision, view):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return decision.labels.index("roll") if isinstance(decision, Choose) else True

    monkeypatch.setattr(AlwaysRoll, "choose", interrupted)
    save = tmp_path / "k.json"
    result = run("play", "cli_race", "--seed", "1", "--players", "human,bot", "--save", str(save), input="0\ny\n0\n")
    assert result.exit_code == 0, result.output
    assert "stopped before the end (Ctrl-C); saved to" in result.output
    assert json.loads(save.read_text())["choices"] == [0, 0, True, 0]  # red rolled; blue was thinking
    assert run("replay", str(save)).exit_code == 0
