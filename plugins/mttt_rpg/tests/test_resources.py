"""Combat resources (战斗资源与战斗数值): HP, mana pools and activation speed."""

from wargamekit_mttt_rpg.combat_round import release_mana
from wargamekit_mttt_rpg.resources import activation_speed, hp_from_constitution


def test_hp_table():
    """生命点数HP: 10→5, 11→5, 12→6, 13→6, 14→7 … 20→10, 30→15."""
    table = {10: 5, 11: 5, 12: 6, 13: 6, 14: 7, 15: 7, 16: 8, 17: 8, 20: 10, 30: 15}
    assert {c: hp_from_constitution(c) for c in table} == table


def test_activation_speed_table():
    """展开法术力池: 1→+1, 2→+1, 3→+2, 4→+2, 5→+3, 6→+3, 7→+4, 8→+4, 9+→+5."""
    assert [activation_speed(n) for n in range(1, 13)] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 5]


def test_pools_unfold_each_round_up_to_capacity_and_refresh_mp(make):
    """每回合法术力MP / 展开法术力池: MPM grows by the activation speed up to the pool; MP refreshes to it."""
    h = make(
        make.scenario(
            make.unit_entry("akari", "heroes"),
            make.unit_entry("sayo", "heroes"),
            make.unit_entry("witch", "foes"),
        ),
        [],
        phase="mana",
    )
    akari = h.unit("akari")
    caps = []
    for _ in range(5):
        akari.order_mp = 0  # spent last round
        release_mana(h)
        caps.append((akari.order_cap, akari.order_mp, akari.distortion_cap))
    # three long-river units: speed 2; order pool 6, distortion pool 3
    assert caps == [(2, 2, 2), (4, 4, 3), (6, 6, 3), (6, 6, 3), (6, 6, 3)]


def test_long_river_units_exclude_battle_group_members(make):
    """长河单位: magical girls and monsters count; ordinary group members do not."""
    h = make(
        make.scenario(
            make.unit_entry("akari", "heroes"), make.unit_entry("familiars", "foes", group="thorn_familiars")
        ),
        [],
    )
    assert h.state.long_river_count() == 1


def test_helpless_at_zero_hp(make):
    """生命点数HP: HP never goes below 0; at 0 the character is helpless (无助)."""
    from wargamekit_mttt_rpg.damage import lose_hp

    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes")), [])
    akari = h.unit("akari")
    lose_hp(h, akari, 50, lethal=True, why="test")
    assert akari.hp == 0 and akari.status == "helpless" and akari.distortion_points == 7


def test_chaos_phase_refills_hp_while_phases_remain(make):
    """歪曲阶段 (provisional reading): at 0 HP with another phase left the boss starts it at full HP."""
    from wargamekit_mttt_rpg.damage import lose_hp

    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("witch", "foes")), [])
    witch = h.unit("witch")
    lose_hp(h, witch, 20, lethal=True, why="test")
    assert (witch.hp, witch.chaos_phase, witch.status) == (12, 1, "active")
    lose_hp(h, witch, 20, lethal=True, why="test")
    assert (witch.hp, witch.status) == (0, "helpless")
