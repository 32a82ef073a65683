"""Battle groups (战团): traits, magnitude, rout, command actions, perfect morale, slaughter."""

from wargamekit_mttt_rpg.attack_flow import attack
from wargamekit_mttt_rpg.battle_groups import (
    decisive_magnitude_bonus,
    magnitude_max,
    rout_difficulty,
)
from wargamekit_mttt_rpg.combat_actions import Action, legal_actions, perform
from wargamekit_mttt_rpg.combat_round import round_start, take_turn
from wargamekit_mttt_rpg.damage import apply_decisive, apply_withering
from wargamekit_mttt_rpg.defense import attack_profile, defense_profile


def setup(make, *units, band=0, faces=(), **kw):
    h = make(make.scenario(*units, band=band, **kw), list(faces), interrupts=False)
    for u in h.state:
        u.initiative = 10
        h.state.track.set(u.id, 10)
    return h


def heroes_vs_familiars(make, faces=(), **kw):
    return setup(
        make,
        make.unit_entry("akari", "heroes"),
        make.unit_entry("sayo", "heroes"),
        make.unit_entry("witch", "foes", leader_of=["familiars"]),
        make.unit_entry("familiars", "foes", group="thorn_familiars"),
        faces=faces,
        **kw,
    )


def test_magnitude_is_health_levels_plus_size_plus_three_for_perfect_morale(make):
    """数量层级: the member's health levels + size; 完美士气 +3."""
    h = setup(
        make,
        make.unit_entry("familiars", "foes", group="thorn_familiars"),
        make.unit_entry("dolls", "heroes", group="doll_legion"),
    )
    assert h.unit("familiars").magnitude_max == magnitude_max(7, 2) == 9
    assert h.unit("dolls").magnitude_max == 7 + 3 + 3


def test_size_drill_and_might_modify_attack_damage_toughness_and_defense(make):
    """规模, 训练度, 威能: size to attack, damage and toughness; drill and might to defense; might to accuracy."""
    h = heroes_vs_familiars(make)
    group, akari = h.unit("familiars"), h.unit("akari")
    atk = attack_profile(h.state, group, akari)
    assert atk.accuracy == 0 + 2 + 1 + 2 + 1  # claws, melee, strength, size, might 1
    assert atk.damage_bonus == 0 + 1 + 2 + 1 and not atk.double_ten
    dfn = defense_profile(h.state, group, akari, "passive", ranged=False)
    assert dfn.value == 15 + 0 + 1 + 0 + 1  # poor drill +0, might 1 +1
    assert dfn.toughness == 1 + 1 + 2
    elite = setup(
        make, make.unit_entry("guards", "heroes", group="guild_guards"), make.unit_entry("kyo", "foes")
    )
    assert (
        defense_profile(elite.state, elite.unit("guards"), elite.unit("kyo"), "passive", ranged=False).value
        == 15 + 1 + 1 + 2
    )


def test_groups_make_only_withering_area_attacks_and_gain_no_initiative(make):
    """与战团战斗: one attack roll against every enemy in contact; withering only; the initiative
    taken is not gained."""
    h = heroes_vs_familiars(make, faces=[12, 5, 6])
    group = h.unit("familiars")
    kinds = {(a.kind, a.kind_of_attack, a.target) for a in legal_actions(h, group) if a.kind == "attack"}
    assert kinds == {("attack", "withering", None)}
    h.run(attack(h, group, None, "withering", []), ["passive defense", "passive defense"])
    assert h.unit("akari").initiative == 10 - (5 + 4 - 3) and h.unit("sayo").initiative == 10 - (6 + 4 - 4)
    assert group.initiative == 10


def test_group_damage_to_a_crashed_character_goes_to_hp(make):
    """与战团战斗: a group's damage to a crashed character goes to HP (lethal claws: distortion)."""
    h = heroes_vs_familiars(make)
    akari = h.unit("akari")
    akari.initiative = 0
    h.state.track.set("akari", 0)
    h.run(apply_withering(h, h.unit("familiars"), akari, 3), [False])  # no soul disability
    assert akari.hp == 4 and akari.distortion_points == 3


def test_lethal_group_damage_may_be_replaced_by_a_soul_disability(make):
    """灵魂残疾: offered "在角色受到致命伤害时" — also for a group's lethal damage to a crashed character."""
    h = heroes_vs_familiars(make)
    akari = h.unit("akari")
    akari.initiative = 0
    h.state.track.set("akari", 0)
    h.run(apply_withering(h, h.unit("familiars"), akari, 3), [True, "strength"])
    assert akari.hp == 7 - 2 and akari.disability_used and akari.attribute_penalties == {"strength": 5}


def test_withering_on_a_group_hits_magnitude_and_gives_only_the_plus_one(make):
    """惰性先导度: a withering attack on a group damages magnitude; the attacker still gains 1."""
    h = heroes_vs_familiars(make)
    group, akari = h.unit("familiars"), h.unit("akari")
    h.run(apply_withering(h, akari, group, 4))
    assert group.magnitude == 5 and group.initiative == 10 and akari.initiative == 11


def test_decisive_on_a_group_adds_a_level_per_four_dice(make):
    """数量层级与伤害战团: decisive damage to magnitude, +1 level per 4 dice of the pool (rounded up)."""
    assert [decisive_magnitude_bonus(n) for n in (4, 5, 9)] == [1, 2, 3]
    h = heroes_vs_familiars(make)
    group, sayo = h.unit("familiars"), h.unit("sayo")
    h.run(apply_decisive(h, sayo, group, 3, 6))
    assert group.magnitude == 9 - 3 - 2 and sayo.initiative == 5


def test_rout_check_success_loses_size_refills_and_carries_damage_over(make):
    """伤害与溃败: magnitude emptied -> rout check; success: −1 size, full magnitude, the rest carries on;
    reducing size gives the attacker the break bonus."""
    # pool: willpower 3 (no drill dice); difficulty 1 + 1 (poor drill) = 2: 10 counts twice
    h = heroes_vs_familiars(make, faces=[10, 1, 1])
    group, akari = h.unit("familiars"), h.unit("akari")
    h.run(apply_withering(h, akari, group, 12))
    assert group.size == 1 and group.magnitude_max == 8 and group.magnitude == 8 - 3
    assert akari.initiative == 10 + 1 + 5


def test_rout_check_failure_disbands_at_the_groups_next_turn(make):
    """伤害与溃败: a failed rout check: the group disbands at its next turn (flees)."""
    h = heroes_vs_familiars(make, faces=[3, 6, 1])
    group, akari = h.unit("familiars"), h.unit("akari")
    h.run(apply_withering(h, akari, group, 9))
    assert group.rout_failed == 2 and group.fighting
    assert akari.initiative == 10 + 1 + 5  # disbanding counts as a break too
    h.run(take_turn(h, "familiars", []))
    assert group.status == "routed" and h.state.groups_disbanded == ["familiars"]


def test_rally_restores_a_breaking_group(make):
    """指挥动作 / 集结: (charisma or appearance + war) against the failed rout check's difficulty."""
    h = heroes_vs_familiars(make, faces=[3, 1, 1] + [6, 6, 6, 7, 1])
    group, witch = h.unit("familiars"), h.unit("witch")
    h.run(apply_withering(h, h.unit("akari"), group, 9))
    rally = [a for a in legal_actions(h, witch) if a.kind == "rally"]
    assert rally
    # pool: charisma 16 -> 3 dots + war 2 = 5 dice (poor drill's −2 is for order and rally for
    # numbers; its rally is 1 harder instead): 6, 6, 6, 7, 1 = 1 success < difficulty 2
    h.run(perform(h, witch, rally[0], []))
    assert group.rout_failed == 2 and group.size == 2
    h.dice.extend([6, 6, 6, 7, 7])  # 2 successes: the group recovers as if it had passed
    h.run(perform(h, witch, rally[0], []))
    assert group.rout_failed is None and group.size == 1 and group.magnitude == 8


def test_drill_modifies_rout_checks_by_difficulty_and_command_rolls_by_dice(make):
    """战团特性 / 训练度: poor drill −2 on order and rally for numbers and +1 difficulty on rout and
    rally; elite +2 on every command roll; the rout pool itself is the member's willpower."""
    from wargamekit_mttt_rpg.battle_groups import drill_command_modifier, group_rout_pool

    h = setup(
        make,
        make.unit_entry("rin", "heroes", sheet="marshal"),
        make.unit_entry("guards", "heroes", group="guild_guards"),
        make.unit_entry("familiars", "foes", group="thorn_familiars"),
    )
    assert group_rout_pool(h.state, h.unit("guards")) == h.unit("guards").sheet.willpower  # elite: no dice
    assert group_rout_pool(h.state, h.unit("familiars")) == 3  # poor: no −2 on the rout pool ...
    assert rout_difficulty(drill="poor") == 2  # ... but 1 harder
    assert [drill_command_modifier("poor", a) for a in ("order", "rally", "rally_numbers")] == [-2, 0, -2]
    assert [drill_command_modifier("elite", a) for a in ("order", "rally", "rally_numbers")] == [2, 2, 2]
    assert [drill_command_modifier("average", a) for a in ("order", "rally", "rally_numbers")] == [0, 0, 0]


def test_rout_difficulty_table():
    """伤害与溃败 (难度表): 1, +1 per allied group disbanded, leader down, size lost, supernatural area."""
    assert rout_difficulty(drill="average") == 1
    assert (
        rout_difficulty(
            drill="average", ally_group_disbanded=True, leader_down=True, size_lost=2, supernatural_area=True
        )
        == 6
    )
    assert rout_difficulty(drill="poor") == 2


def test_perfect_morale_always_passes_and_gains_nothing_from_rally_for_numbers(make):
    """完美士气: rout checks succeed automatically; rally for numbers does not help them."""
    h = setup(
        make,
        make.unit_entry("gen", "foes", sheet="warlord", leader_of=["dolls"]),
        make.unit_entry("dolls", "foes", group="doll_legion"),
        make.unit_entry("akari", "heroes"),
    )
    dolls = h.unit("dolls")
    h.run(apply_withering(h, h.unit("akari"), dolls, 13))
    assert dolls.size == 2 and dolls.magnitude == dolls.magnitude_max == 7 + 2 + 3
    assert not [a for a in legal_actions(h, h.unit("gen")) if a.kind == "rally_numbers"]


def test_rally_for_numbers_once_until_size_is_lost(make):
    """指挥动作 / 整队: difficulty 1, 1 magnitude per 2 successes, once until the group loses size."""
    h = heroes_vs_familiars(make, faces=[10, 10, 8])
    group, witch = h.unit("familiars"), h.unit("witch")
    group.magnitude = 3
    action = next(a for a in legal_actions(h, witch) if a.kind == "rally_numbers")
    h.run(perform(h, witch, action, []))
    assert group.magnitude == 3 + 2  # 10, 10, 8: five successes
    assert not [a for a in legal_actions(h, witch) if a.kind == "rally_numbers"]


def test_order_adds_its_successes_to_the_groups_rolls_next_round(make):
    """指挥动作 / 命令: difficulty 1; the successes add to all the group's rolls in the next round."""
    h = heroes_vs_familiars(make, faces=[10, 7, 1])
    group, witch = h.unit("familiars"), h.unit("witch")
    before = attack_profile(h.state, group, h.unit("akari")).accuracy
    h.run(perform(h, witch, Action("order", "familiars"), []))
    assert group.pending_order == 3
    round_start(h)
    assert attack_profile(h.state, group, h.unit("akari")).accuracy == before + 3


def test_slaughter_fleeing_groups(make):
    """屠杀: attacking a disbanded group at −3 defense; a fleeing group above size 2 only by groups."""
    h = setup(
        make,
        make.unit_entry("akari", "heroes"),
        make.unit_entry("militia", "heroes", group="town_militia"),
        make.unit_entry("dolls", "foes", group="doll_legion"),
        make.unit_entry("familiars", "foes", group="thorn_familiars"),
    )
    dolls, familiars = h.unit("dolls"), h.unit("familiars")
    normal = defense_profile(h.state, familiars, h.unit("akari"), "passive", ranged=False).value
    for g in (dolls, familiars):
        g.status = "routed"
    assert defense_profile(h.state, familiars, h.unit("akari"), "passive", ranged=False).value == normal - 3
    targets = {a.target for a in legal_actions(h, h.unit("akari")) if a.kind == "attack"}
    assert "familiars" in targets and "dolls" not in targets  # dolls are size 3
    assert "dolls" in {a.target for a in legal_actions(h, h.unit("militia")) if a.kind == "attack"}
    h.run(apply_withering(h, h.unit("akari"), familiars, 6))
    assert h.state.casualties == {"familiars": 6}


def test_dispersing_reaches_farther_without_the_size_bonus(make):
    """战团与移动: a group spread out wide attacks farther but loses its size bonus."""
    h = heroes_vs_familiars(make, band=1)
    group = h.unit("familiars")
    assert not [a for a in legal_actions(h, group) if a.kind == "attack"]
    before = attack_profile(h.state, group, h.unit("akari")).accuracy
    h.run(perform(h, group, Action("disperse"), []))
    assert [a for a in legal_actions(h, group) if a.kind == "attack"]
    assert attack_profile(h.state, group, h.unit("akari")).accuracy == before - 2


def test_non_combatants_have_zero_initiative_and_give_none(make):
    """非战斗人员: initiative fixed at 0, no initiative for withering hits, which damage their health."""
    from wargamekit_mttt_rpg.initiative import join_battle

    h = setup(
        make,
        make.unit_entry("akari", "heroes"),
        make.unit_entry("crowd", "foes", sheet="bystander", noncombatant=True),
    )
    crowd, akari = h.unit("crowd"), h.unit("akari")
    assert join_battle(h.dice, crowd) == 0
    h.run(apply_withering(h, akari, crowd, 3))
    assert crowd.hp == 5 - 3 and akari.initiative == 10


def test_trivial_opponents_are_treated_as_non_combatants(make):
    """微不足道的对手: initiative fixed at 0, no initiative for hitting them, their hits give none either."""
    from wargamekit_mttt_rpg.initiative import join_battle

    h = setup(
        make,
        make.unit_entry("akari", "heroes"),
        make.unit_entry("guard", "foes", sheet="militiaman", trivial=True),
    )
    guard, akari = h.unit("guard"), h.unit("akari")
    assert join_battle(h.dice, guard) == 0 and not guard.crashed
    h.run(apply_withering(h, akari, guard, 2))
    assert guard.hp == guard.hp_max - 2 and akari.initiative == 10
    h.run(apply_withering(h, guard, akari, 3))
    assert akari.initiative == 7 and guard.initiative == 10


def test_perfect_morale_never_retreats_without_orders(make):
    """完美士气: a fearless group never disengages or withdraws unless ordered to."""
    h = setup(make, make.unit_entry("dolls", "foes", group="doll_legion"), make.unit_entry("akari", "heroes"),
              band=2)
    dolls = h.unit("dolls")
    assert not {a.kind for a in legal_actions(h, dolls)} & {"disengage", "withdraw"}
    dolls.order_bonus = 1
    assert "disengage" in {a.kind for a in legal_actions(h, dolls)}


def crossbows_at_kyo(make, faces):
    """The militia's crossbows (range 3) at Kyo, 3 bands off; around Kyo, within close range of
    her but 4 bands from the militia: the Witch (her ally), Akari (the militia's ally) and the
    doll legion (a battle group)."""
    return setup(
        make,
        make.unit_entry("militia", "heroes", group="town_militia", weapon="crossbow"),
        make.unit_entry("kyo", "foes"),
        make.unit_entry("witch", "foes"),
        make.unit_entry("akari", "heroes"),
        make.unit_entry("dolls", "foes", group="doll_legion"),
        band=5,
        distances=[
            {"a": "militia", "b": "kyo", "band": 3},
            *({"a": "kyo", "b": uid, "band": 1} for uid in ("witch", "akari", "dolls")),
            *({"a": "militia", "b": uid, "band": 4} for uid in ("witch", "akari", "dolls")),
        ],
        faces=faces,
    )


def test_a_groups_ranged_area_attack_affects_every_character_near_the_target(make):
    """与战团战斗 / 区域攻击: "如果目标是单独个体，此次攻击会影响到与目标处于近距离内的所有单独角色
    （无论是盟友还是敌人）": the crossbows reach Kyo (3); the Witch and Akari, within close range of
    Kyo but beyond the crossbows' range, are struck by the same roll; the doll legion (a battle
    group, not an individual) is not."""
    # hit check d20 15; then each target's damage, 2d6 each: Kyo 1 1, Witch 2 1, Akari 1 2
    h = crossbows_at_kyo(make, [15, 1, 1, 2, 1, 1, 2])
    militia = h.unit("militia")
    h.run(attack(h, militia, h.unit("kyo"), "withering", []), ["passive defense"] * 3)
    texts = h.texts()
    assert "Town militia declares a withering attack on Kyo, Witch of Thorns, Akari" in texts
    assert not any("is lost" in t for t in texts)
    hits = [t for t in texts if t.startswith("Town militia ") and "'s defense" in t]
    assert [t.split(" vs ")[1].split("'s")[0] for t in hits] == ["Kyo", "Witch of Thorns", "Akari"]
    atk = attack_profile(h.state, militia, h.unit("kyo"))
    assert atk.accuracy == 1 + 2 + 1 + 3  # crossbow, ranged, agility, size 3
    assert "Town militia 22 vs Kyo's defense 19: hit" in texts  # 15 + 7 against every target
    assert "Town militia 22 vs Witch of Thorns's defense 18: hit" in texts
    assert "Town militia 22 vs Akari's defense 18: hit" in texts
    # raw = 2d6 + crossbow 1 + agility 1 + size 3, less toughness; the group gains nothing
    assert h.unit("kyo").initiative == 10 - (7 - 4) and h.unit("akari").initiative == 10 - (8 - 3)
    assert "Witch of Thorns has a chaos phase (歪曲阶段): immune to withering damage" in texts
    assert h.unit("dolls").magnitude == h.unit("dolls").magnitude_max and militia.initiative == 10


def test_the_area_attack_is_lost_when_its_main_target_is_out_of_reach(make):
    """区域攻击: the area lies around the main target: with Kyo beyond the crossbows' range the
    characters near her are not struck either."""
    h = crossbows_at_kyo(make, [10])  # the hit check is still rolled, for nobody
    h.state.set_distance("militia", "kyo", 4)
    h.run(attack(h, h.unit("militia"), h.unit("kyo"), "withering", []))
    lost = [t for t in h.texts() if "is lost" in t]
    assert lost == [
        "the attack on Kyo is lost: no longer a legal target",
        "the attack on Witch of Thorns is lost: Kyo is out of reach",
        "the attack on Akari is lost: Kyo is out of reach",
    ]
