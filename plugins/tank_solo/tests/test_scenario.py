"""Scenario and map files: bad input is rejected with the path to the bad field."""

from __future__ import annotations

import pytest

from wargamekit import Game
from wargamekit.errors import ScenarioError
from wargamekit_tank_solo import TankSolo
from wargamekit_tank_solo.maps import load_map, map_names, parse_map
from wargamekit_tank_solo.vehicles import NATIONS, all_vehicles

RULESET = TankSolo()


@pytest.mark.parametrize(
    ("data", "path"),
    [
        ({"map": "atlantis"}, "$.map"),
        ({"turn_limit": "ten"}, "$.turn_limit"),
        ({"fire_arc_width": 2}, "$.fire_arc_width"),
        ({"colour": "red"}, "$"),
        ({"forces": {"A": [{"model": "tiger"}], "B": [{"model": "panzer9"}]}}, "$.forces.B[0].model"),
        ({"forces": {"A": [{"model": "tiger"}] * 3, "B": [{"model": "is2"}]}}, "$.forces.A"),
        ({"forces": {"A": [{"model": "tiger", "hex": "0707", "facing": "N"}], "B": [{"model": "is2"}]}},
         "$.forces.A[0].hex"),
        ({"forces": {"A": [{"model": "tiger", "hex": "0601", "facing": "UP"}], "B": [{"model": "is2"}]}},
         "$.forces.A[0].facing"),
        ({"forces": {"A": [{"model": "tiger", "hex": "0601", "facing": "N", "specials": ["fin", "fin"]}],
                     "B": [{"model": "is2"}]}}, "$.forces.A"),
        ({"wrecks": ["0308"]}, "$.wrecks[0]"),
    ],
)
def test_bad_scenario_names_the_field(data, path):
    """A bad scenario raises ScenarioError naming the path of the bad field."""
    with pytest.raises(ScenarioError) as info:
        RULESET.load_scenario(data, source="test")
    assert info.value.path.startswith(path)


def test_bad_map_file_names_the_field():
    """A map with a wrong row or letter is rejected with its path."""
    good = '[zones.north]\ncols = [1, 2]\nrows = [1, 1]\n[zones.south]\ncols = [1, 2]\nrows = [2, 2]\n'
    with pytest.raises(ScenarioError, match=r"\$\.rows\[1\]"):
        parse_map("bad", 'name = "x"\nrows = ["..", "..."]\n' + good)
    with pytest.raises(ScenarioError, match="unknown terrain letter 'X'"):
        parse_map("bad", 'name = "x"\nrows = ["..", ".X"]\n' + good)
    with pytest.raises(ScenarioError, match=r"\$\.zones\.south\.rows"):
        parse_map("bad", 'name = "x"\nrows = ["..", ".."]\n' + good.replace("rows = [2, 2]", "rows = [2, 9]"))


def test_shipped_maps_have_every_terrain_and_both_zones():
    """At least two maps, each with clear, forest, mountain and river hexes and two zones."""
    assert len(map_names()) >= 2
    for key in map_names():
        m = load_map(key)
        letters = set("".join(m.rows))
        assert letters == {".", "F", "M", "R"}, key
        assert m.zone_hexes("north") and m.zone_hexes("south")
        assert not set(m.zone_hexes("north")) & set(m.zone_hexes("south"))


def test_vehicle_table_covers_every_listed_model():
    """1 战车重新分类: every model the source lists, with its nation and class."""
    table = all_vehicles()
    listed = {
        "germany": {"light": {"pz38t", "pz4d"}, "medium": {"pz4f", "pz4h", "pz3j", "panther", "hetzer", "jagdpz4"},
                    "heavy": {"tiger", "tiger_p", "tiger2", "maus", "ferdinand", "jagdpanther", "jagdtiger"}},
        "ussr": {"light": {"bt7", "t26"}, "medium": {"t34_76", "t34_85"}, "heavy": {"kv2", "is2"}},
        "usa": {"light": set(), "medium": {"m3", "m4", "m4a1", "firefly"}, "heavy": set()},
        "uk": {"light": {"crusader"}, "medium": {"matilda", "cromwell"}, "heavy": {"churchill"}},
        "italy": {"light": {"cv33", "m13_40", "sv_m41"}, "medium": {"p40"}, "heavy": set()},
        "japan": {"light": {"type89", "type95", "type97"}, "medium": {"type97_shinhoto", "type3"}, "heavy": set()},
        "france": {"light": set(), "medium": {"b1bis"}, "heavy": set()},
    }
    for nation in NATIONS:
        for cls, keys in listed[nation].items():
            assert {k for k, v in table.items() if v.nation == nation and v.vehicle_class == cls} == keys
    assert min(v.price for v in table.values() if v.nation == "usa") == 28  # 1: cheapest US tank 28
    turretless = {k for k, v in table.items() if v.turretless}
    assert turretless == {"hetzer", "jagdpz4", "ferdinand", "jagdpanther", "jagdtiger", "cv33", "sv_m41"}
    assert {k for k, v in table.items() if v.multi_gun} == {"m3", "b1bis"}


def test_bundled_scenarios_load():
    """Every bundled scenario loads and starts."""
    for name in RULESET.scenario_names():
        assert Game.new(RULESET, name).pending is not None
