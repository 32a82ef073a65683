"""§2 components as scenario data: bad data raises a ScenarioError naming the path and the rule."""

import pytest

from wargamekit import ScenarioError
from wargamekit_aig import Aig


def _load(k, **change):
    data = k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")])
    for path, value in change.items():
        section, index, key = path.split("__")
        data[section][int(index)][key] = value
    return Aig().load_scenario(data)


@pytest.mark.parametrize(("path", "value", "message"), [
    ("units__0__type", "XX", "§2.2.1"),
    ("units__0__tq", 10, "§2.3"),
    ("units__0__facing", 6, "§7.1"),
    ("units__1__hex", "0504", "D16"),
    ("units__0__hex", "9999", "off the"),
    ("units__0__missile", "Z", "missile table"),
    ("leaders__0__rank", "king", "§4.2.1"),
    ("leaders__1__rank", "ordinary", "§4.3.1"),
])
def test_bad_scenarios_are_refused(k, path, value, message):
    """[2.2.1-4] six unit types; [2.3-2] TQ within a d10; [7.1-1] six corners; one unit per hex
    (D16); [4.2.1-1] ranks; one overall commander per side (§4.3.1)."""
    with pytest.raises(ScenarioError, match=message):
        _load(k, **{path: value})


def test_both_scenarios_load_with_every_unit_type_and_rank():
    """[4.2.1] every rank appears in both bundled scenarios; [2.2.1-4] every unit type in the
    training battle (the Cannae armies had no cataphracts)."""
    for name in ("training", "battle"):
        s = Aig().load_scenario(Aig().scenario_data(name))
        assert {ld.rank for ld in s.leaders} == {"oc", "ordinary", "junior"}
    training = Aig().load_scenario(Aig().scenario_data("training"))
    assert {u.type for u in training.units} == {"CT", "HC", "LC", "HI", "MI", "LI"}


def test_equal_data_loads_the_one_scenario_and_bad_data_is_refused_every_time(k):
    """A scenario is a shared value that never changes in play: equal raw data (a game's scenario
    is loaded at every Game.new) gives the one loaded before; data that differs in a value gives
    its own; bad data is refused at every load, also after good data
    equal but for the bad field (§2.3: TQ within a d10)."""
    training = Aig().scenario_data("training")
    first = Aig().load_scenario(training)
    assert Aig().load_scenario(Aig().scenario_data("training")) is first
    changed = Aig().scenario_data("training")
    changed["units"][0]["tq"] = changed["units"][0]["tq"] - 1
    other = Aig().load_scenario(changed)
    assert other is not first and other.units[0].tq == first.units[0].tq - 1
    assert other.units[1:] == first.units[1:]
    good = _load(k)
    assert _load(k) is good
    for _ in range(2):
        with pytest.raises(ScenarioError, match="§2.3"):
            _load(k, units__0__tq=10)


def test_a_new_states_equal_strings_are_one_object_each():
    """The counters' strings are interned at setup (state.initial_state), so a snapshot's pickle
    writes each once and refers to it after: every equal string among the units', leaders' and
    banners' fields, the state's keys included, is the same object, and a snapshot is smaller
    than one of the same state with a copy of each string."""
    import pickle

    from wargamekit_aig.state import initial_state

    state = initial_state(Aig().load_scenario(Aig().scenario_data("training")))
    strings = [*state.units, *state.leaders, *state.banners, *state.withdrawal]
    for u in state.units.values():
        strings += [u.name, u.side, u.type, u.command, u.missile, u.back_type]
    for ld in state.leaders.values():
        strings += [ld.name, ld.side, ld.rank, ld.command, ld.superior, *ld.commands]
    for b in state.banners.values():
        strings += [b.side, b.carrier]
    assert len({id(s) for s in strings}) == len(set(strings))
    copied = initial_state(Aig().load_scenario(Aig().scenario_data("training")))
    for u in copied.units.values():
        u.side, u.command = "".join(u.side), "".join(u.command)  # an equal string, another object
    assert len(pickle.dumps(state)) < len(pickle.dumps(copied))


def test_a_scenario_whose_sides_are_a_str_enum_plays():
    """Data built in Python may name a side by a ``str`` subclass (an ``enum.StrEnum`` member),
    which the load keeps: the setup's interning (state.initial_state) leaves such a string as it
    is (``sys.intern`` refuses it), and the game plays as the one with plain strings."""
    import enum

    from wargamekit import Game
    from wargamekit.testing import play_random_game

    class Side(enum.StrEnum):
        RED = "red"

    data = Aig().scenario_data("training")
    for row in (*data["units"], *data["leaders"], *data["banners"]):
        if row["side"] == "red":
            row["side"] = Side.RED
    data["victory"]["withdrawal"] = {
        Side.RED if side == "red" else side: n for side, n in data["victory"]["withdrawal"].items()}
    assert type(Game.new(Aig(), data).state.units["R-HI1"].side) is Side
    played = play_random_game(Aig(), data, seed=3)
    plain = play_random_game(Aig(), "training", seed=3)
    assert played.log == plain.log
