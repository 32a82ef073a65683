"""Players: the random bot, the scripted player and the terminal player."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from rich.console import Console

from wargamekit import Choose, ChooseNumber, ChooseSubset, InvalidChoiceError, RandomBot, ScriptedPlayer, YesNo
from wargamekit.decisions import Option
from wargamekit.players import QuitGame, TerminalPlayer


def test_random_bot_only_gives_legal_answers():
    """The random bot's answers always pass the decision's own check."""
    bot = RandomBot(3)
    decisions = [
        Choose.of("a", "pick", ["x", "y", "z"]),
        ChooseSubset(side="a", prompt="leaders", options=[Option(i, str(i)) for i in range(5)], min_count=1, max_count=2,
                     constraint=lambda vals: None if sum(vals) % 2 == 0 else "sum must be even"),
        ChooseNumber(side="a", prompt="points", low=3, high=9),
        YesNo(side="a", prompt="fire?"),
    ]
    for decision in decisions:
        for _ in range(50):
            answer = bot.choose(decision, None)
            assert decision.check(answer) == answer


def test_random_bot_is_reproducible():
    """Two bots with the same seed answer identically."""
    d = Choose.of("a", "pick", list(range(10)))
    assert [RandomBot(5).choose(d, None) for _ in range(3)] == [RandomBot(5).choose(d, None)] * 3


def test_subset_constraint_is_an_illegal_choice_with_rule():
    """A subset that breaks the rule's constraint names the rule."""
    from wargamekit import IllegalChoiceError

    d = ChooseSubset(side="a", prompt="leading pieces", options=[Option("inf", "inf"), Option("cav", "cav")],
                     max_count=2, rule="Assault: leading pieces",
                     constraint=lambda vals: "two leading pieces may not mix arms" if len(set(vals)) > 1 else None)
    with pytest.raises(IllegalChoiceError, match=r"\[Assault: leading pieces\]: two leading pieces may not mix arms"):
        d.check([0, 1])
    with pytest.raises(IllegalChoiceError, match="choose between 0 and 2, not 3"):
        ChooseSubset(side="a", prompt="x", options=[Option(i, str(i)) for i in range(3)], max_count=2).check([0, 1, 2])
    with pytest.raises(InvalidChoiceError, match="chosen twice"):
        d.check([0, 0])


def test_random_bot_finds_rare_legal_subsets():
    """When random sampling fails, the bot searches systematically for a legal subset."""
    d = ChooseSubset(side="a", prompt="x", options=[Option(i, str(i)) for i in range(8)], min_count=0,
                     constraint=lambda vals: None if vals == (3, 5, 6) else "only 3,5,6")
    assert RandomBot(0).choose(d, None) == [3, 5, 6]


def test_scripted_player_accepts_labels_and_indices():
    """Scripted answers may be labels or indices; unknown labels are refused."""
    d = Choose.of("a", "move", ["north", "south"])
    player = ScriptedPlayer(["south", 0, "west"])
    assert player.choose(d, None) == 1
    assert player.choose(d, None) == 0
    with pytest.raises(InvalidChoiceError, match="no option 'west'"):
        player.choose(d, None)
    with pytest.raises(InvalidChoiceError, match="ran out"):
        player.choose(d, None)


def terminal(text: str) -> tuple[TerminalPlayer, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=100)
    inputs = iter(text.splitlines())
    console.input = lambda prompt="": (out.write(str(prompt)), next(inputs))[1]  # type: ignore[method-assign]
    return TerminalPlayer(console, summary=lambda view: "POSITION"), out


def test_terminal_player_lists_options_and_reprompts_on_bad_input():
    """The terminal shows numbered options, rejects bad input, shows the summary on '?'."""
    player, out = terminal("7\n?\n1\n")
    d = Choose.of("allies", "Which tank moves?", ["Sherman #1", "Firefly #2"], rule="4.1")
    assert player.choose(d, None) == 1
    text = out.getvalue()
    assert "allies: Which tank moves?\n" in text and "(4.1)" not in text.split("POSITION")[0]
    assert "rule: 4.1" in text  # the citation is a help line, shown on ?
    assert re.search(r"0\s+Sherman #1", text) and re.search(r"1\s+Firefly #2", text)
    assert "7 is not one of 0..1" in text
    assert "POSITION" in text


@pytest.mark.parametrize(
    ("decision", "typed", "expected"),
    [
        (YesNo(side="a", prompt="Block?"), "y", True),
        (ChooseNumber(side="a", prompt="Points", low=0, high=4), "3", 3),
        (ChooseSubset(side="a", prompt="Lead", options=[Option(i, str(i)) for i in range(3)]), "0, 2", [0, 2]),
    ],
)
def test_terminal_player_reads_every_decision_kind(decision, typed, expected):
    """Yes/no, numbers and subsets are read from the terminal."""
    player, _ = terminal(typed + "\n")
    assert player.choose(decision, None) == expected


def test_terminal_player_quits():
    """Typing quit raises QuitGame."""
    player, _ = terminal("quit\n")
    with pytest.raises(QuitGame):
        player.choose(YesNo(side="a", prompt="?"), None)


def test_numpy_integers_are_accepted_as_answers():
    """Answers computed with numpy are accepted and stored as plain ints."""
    d = Choose.of("a", "x", ["p", "q"])
    assert d.check(np.int64(1)) == 1 and type(d.check(np.int64(1))) is int


def test_public_label_is_what_the_log_reads():
    """An option's public label is what describe() (the log) shows; the chooser reads the label."""
    d = Choose(side="a", prompt="Which piece leads?",
               options=[Option("p1", "infantry, 3 steps", "face-down piece at Marengo"), Option("p2", "cavalry")])
    assert d.labels == ["infantry, 3 steps", "cavalry"]
    assert d.describe(0) == "face-down piece at Marengo"
    assert d.describe(1) == "cavalry"


def test_decisions_without_any_legal_answer_are_refused_when_built():
    """A number range or subset size nobody can satisfy is a ruleset bug, refused at once
    (not a numpy error inside the random bot later)."""
    with pytest.raises(ValueError, match=r"points \[R7\]: no number between 5 and 3"):
        ChooseNumber(side="a", prompt="points", low=5, high=3, rule="R7")
    with pytest.raises(ValueError, match="cannot choose at least 3 and at most 2 of 2 options"):
        ChooseSubset(side="a", prompt="x", options=[Option(i, str(i)) for i in range(2)], min_count=3)


def test_numpy_answers_are_recorded_as_plain_json():
    """numpy ints, bools and index arrays (what bots compute with) are read and recorded as
    plain Python values, so a save is plain JSON."""
    subset = ChooseSubset(side="a", prompt="x", options=[Option(i, str(i)) for i in range(4)])
    assert subset.check(np.array([2, 0])) == [0, 2]
    assert all(type(i) is int for i in subset.check(np.array([2, 0])))
    assert type(Choose.of("a", "p", ["x", "y"]).check(np.int64(1))) is int
    assert YesNo(side="a", prompt="fire?").check(np.bool_(True)) is True
    assert type(ChooseNumber(side="a", prompt="n", low=0, high=9).check(np.int32(4))) is int


def test_scripted_player_refuses_ambiguous_labels_and_a_string_for_a_subset():
    """Two options with one label need an index; a subset answer must be a list, not a string
    (whose letters would be looked up one by one)."""
    d = Choose.of("a", "which tank?", ["Sherman", "Firefly", "Sherman"])
    with pytest.raises(InvalidChoiceError, match=r"'Sherman' is the label of options \[0, 2\]"):
        ScriptedPlayer(["Sherman"]).choose(d, None)
    assert ScriptedPlayer(["Firefly"]).choose(d, None) == 1
    subset = ChooseSubset(side="a", prompt="lead", options=[Option(i, n) for i, n in enumerate(["A01", "B02"])])
    with pytest.raises(InvalidChoiceError, match="give a list of labels or indices, not 'A01'"):
        ScriptedPlayer(["A01"]).choose(subset, None)
    assert ScriptedPlayer([["B02"]]).choose(subset, None) == [1]


def test_terminal_player_explains_text_that_is_not_a_number():
    """Typing words where a number is asked says so (not "invalid literal for int()")."""
    player, out = terminal("two\n1\n")
    assert player.choose(ChooseNumber(side="a", prompt="Points", low=0, high=4), None) == 1
    assert "'two' is not a whole number" in out.getvalue()
    assert "invalid literal" not in out.getvalue()


def test_terminal_prints_text_as_text():
    """Labels, prompts and the summary reach the screen as written: "[fired]" is a marker,
    not console markup."""
    player, out = terminal("?\n0\n")
    player.summary = lambda view: "Tiger [fired] [locked 2]"
    d = Choose.of("allies", "Fire [aimed]?", ["Tiger [fired]", "Panther [specials: fin]"])
    assert player.choose(d, object()) == 0
    text = out.getvalue()
    assert "Tiger [fired]" in text and "Panther [specials: fin]" in text
    assert "Fire [aimed]?" in text and "Tiger [fired] [locked 2]" in text


def window(*responses):
    return Choose(side="a", prompt="turn start: respond?", options=[
        Option(None, "pass", data={"pass": True}), *responses])


def test_pass_is_typed_p_so_zero_never_means_pass():
    """In a response window the pass is p; 0 is refused there (it is an option elsewhere)."""
    player, out = terminal("0\np\n")
    d = window(Option("heal", "heal Sayo", data={"spell": "heal"}))
    assert player.choose(d, None) == 0
    assert "0 is not an option here: type p to pass" in out.getvalue()
    assert re.search(r"p\s+pass", out.getvalue()) and re.search(r"1\s+heal Sayo", out.getvalue())


def test_stops_playable_passes_windows_with_nothing_playable_and_all_asks():
    """By default a window whose every response is marked unplayable is passed without asking
    (and the pass is shown); with stops "all" the human is asked."""
    d = window(Option("heal", "heal Sayo", data={"spell": "heal", "playable": False, "why": "Sayo is unhurt"}))
    player, out = terminal("")
    assert player.choose(d, None) == 0
    assert "passes response windows where nothing calls for an answer, e.g. turn start: Sayo is unhurt" in out.getvalue()
    player, out = terminal("1\n")
    player.stops = "all"
    assert player.choose(d, None) == 1
    playable = window(Option("heal", "heal Sayo", data={"spell": "heal"}))
    player, _ = terminal("1\n")
    assert player.choose(playable, None) == 1


def test_concession_is_confirmed_and_undo_is_a_request():
    """An option marked "concede" asks for confirmation; undo raises UndoRequest."""
    from wargamekit.players import UndoRequest

    d = Choose(side="a", prompt="fire?", options=[Option("hold", "hold"),
               Option("give up", "surrender", data={"action": "surrender", "concede": True})])
    player, out = terminal("1\nno\n1\nyes\n")
    assert player.choose(d, None) == 1
    assert out.getvalue().count("Really concede?") == 2 and "not conceded" in out.getvalue()
    player, _ = terminal("undo\n")
    with pytest.raises(UndoRequest):
        player.choose(d, None)


def test_empty_answer_is_explained():
    """Enter alone says what is expected (and a subset with no minimum takes it as none)."""
    player, out = terminal("\n1\n")
    assert player.choose(Choose.of("a", "x", ["p", "q"]), None) == 1
    assert "an empty answer: choose 0-1" in out.getvalue()
    player, out = terminal("\n")
    assert player.choose(ChooseSubset(side="a", prompt="Lead", options=[Option(i, str(i)) for i in range(3)]),
                         None) == []
