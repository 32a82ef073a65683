"""Soul disability (灵魂残疾) and burning soul jade (燃玉)."""

from wargamekit_mttt_rpg import movement
from wargamekit_mttt_rpg.attack_flow import attack
from wargamekit_mttt_rpg.combat_actions import Action, perform
from wargamekit_mttt_rpg.combat_round import end_of_fight, preparation, round_start
from wargamekit_mttt_rpg.damage import apply_decisive, apply_withering
from wargamekit_mttt_rpg.defense import attack_profile
from wargamekit_mttt_rpg.initiative import boost_join
from wargamekit_mttt_rpg.interrupt_phase import open_window
from wargamekit_mttt_rpg.soul import (
    disability_tier,
    jade_cost,
    max_boost,
    max_die_boost,
)
from wargamekit_mttt_rpg.warfare import strategic_warfare


def setup(make, faces=(), boss=False, interrupts=False):
    h = make(
        make.scenario(
            make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), band=2, boss_fight=boss
        ),
        list(faces),
        interrupts=interrupts,
    )
    for u in h.state:
        u.initiative = 10
        h.state.track.set(u.id, 10)
    return h, h.unit("akari"), h.unit("kyo")


def test_disability_tiers():
    """灵魂残疾: 1–4 HP, 5–8 HP, 9–13 HP and 14+ HP tiers."""
    assert [disability_tier(n) for n in (1, 4, 5, 8, 9, 13, 14)] == [1, 1, 2, 2, 3, 3, 4]


def test_disability_replaces_lethal_damage_with_two_hp_and_a_physical_penalty(make):
    """灵魂残疾: instead of the damage, 2 HP (never below 1); 1–4 HP: −5 on a GM-chosen physical attribute."""
    h, akari, kyo = setup(make)
    h.run(apply_decisive(h, kyo, akari, 4, 8), [True, "agility"])
    assert akari.hp == 5 and akari.attribute_penalties == {"agility": 5} and akari.disability_used
    h.run(apply_decisive(h, kyo, akari, 3, 8))  # once per story: not offered again
    assert akari.hp == 2


def test_disability_of_five_to_eight_adds_a_mental_penalty_and_never_kills(make):
    """灵魂残疾: 5–8 HP also −5 on a mental attribute; HP never drops below 1 from it."""
    h, akari, kyo = setup(make)
    akari.hp = 2
    h.run(apply_decisive(h, kyo, akari, 6, 8), [True, "strength", "charisma"])
    assert akari.hp == 1 and akari.attribute_penalties == {"strength": 5, "charisma": 5}


def test_disability_of_nine_doubles_wound_penalties(make):
    """灵魂残疾: 9+ HP negated in the scene doubles the wound penalties for the rest of it."""
    h, akari, kyo = setup(make)
    akari.hp = 3
    before = akari.wound
    h.run(apply_decisive(h, kyo, akari, 9, 12), [True, "strength", "charisma"])
    assert akari.hp == 1 and akari.wound == 2 * 2 and before == 1


def test_only_player_characters_may_take_a_disability(make):
    """灵魂残疾: it is the player's request; the GM's characters never get the offer."""
    h, akari, kyo = setup(make)
    h.run(apply_decisive(h, akari, kyo, 4, 8))
    assert kyo.hp == 3 and not kyo.disability_used


def test_jade_costs_an_arithmetic_series_up_to_the_maximum_face():
    """燃玉点数的使用: raising a die by k costs 1 + 2 + … + k; never past the die's maximum face."""
    assert [jade_cost(k) for k in range(5)] == [0, 1, 3, 6, 10]
    assert max_boost(9) == 3 and max_die_boost(face=18, sides=20, points=50) == 2


def test_burning_jade_boosts_the_hit_die_in_a_boss_fight(make):
    """燃玉: only in boss fights; the first boost ignites all remaining soul jade (first stage)."""
    h, akari, kyo = setup(make, faces=[12, 3, 3], boss=True)
    h.run(attack(h, akari, kyo, "withering", []), ["passive defense", 4, 0, False])  # no damage boost
    # 12 + 4 boosted = 16, + 8 = 24 hits; 30 jade ignited, 10 burnt
    assert akari.ignited and akari.soul_jade == 0 and akari.burn_points == 20
    assert any("hit check die 12 -> 16" in t for t in h.texts())
    plain, a2, k2 = setup(make, faces=[12, 3, 3], boss=False)
    plain.run(attack(plain, a2, k2, "withering", []), ["passive defense"])
    assert not a2.ignited


def test_burning_jade_raises_the_bonus_of_a_d20_plus_x_roll_past_the_maximum_face(make):
    """燃玉点数的使用: on a dX+x roll the +x takes burn points too, without the die's cap, in its own
    series: a natural 20 cannot rise, but its +8 can (+3 for 1+2+3 = 6 points)."""
    h, akari, kyo = setup(make, faces=[1, 3, 3], boss=True)
    h.run(attack(h, akari, kyo, "withering", []), ["passive defense", 0, 3])
    assert [d.high for d in h.asked[1:3]] == [7, 7]  # 30 points pay for 1+…+7 = 28 at most
    assert "the +x of the hit check" in h.asked[2].prompt
    assert akari.burn_points == 30 - 6 and any("hit check bonus +3" in t for t in h.texts())
    assert any(t.startswith("Akari 12 vs Kyo's defense") for t in h.texts())  # 1 + 8 + 3
    h2, a2, k2 = setup(make, faces=[20, 3, 3], boss=True)
    h2.run(attack(h2, a2, k2, "withering", []), ["passive defense", 2, False])
    hit_boosts = [d for d in h2.asked if "burn soul jade" in d.prompt and "hit check" in d.prompt]
    assert len(hit_boosts) == 1  # a natural 20: only the +x
    assert a2.burn_points == 30 - 3


def test_second_stage_converts_invested_jade_and_points_vanish_after_the_fight(make):
    """燃玉点数的获得/消失: after ignition, invested jade converts (lost after the fight); unused points vanish."""
    h, akari, kyo = setup(make, boss=True, interrupts=True)
    akari.ignited, akari.burn_points = True, 5
    h.run(open_window(h, "turn start", active="akari"), ["Akari: burn spell: Ribbon Shield"])
    assert akari.burn_points == 25 and akari.converted == ["spell: Ribbon Shield"]
    end_of_fight(h, None)
    assert akari.burn_points == 0
    assert any("lost to the flames: spell: Ribbon Shield" in t for t in h.texts())


def test_burning_jade_raises_damage_dice_and_a_die_pushed_to_ten_doubles(make):
    """燃玉点数的使用: "用点数增幅投掷骰子的结果" — any rolled die, the damage dice too; "由燃玉将dx骰推向满骰时
    可以触发满骰效果": Sayo's spirit sword rolls 2d10 [8 4]; she raises the 8 by 2 to 10 (1+2 = 3
    points), which doubles (double-10 rule), and puts 1 point into the +x (raw damage is dX+x)."""
    h = make(
        make.scenario(make.unit_entry("sayo", "heroes"), make.unit_entry("kyo", "foes"), band=0, boss_fight=True),
        [15, 8, 4],
        interrupts=False,
    )
    sayo, kyo = h.unit("sayo"), h.unit("kyo")
    for u in (sayo, kyo):
        u.initiative = 30
        h.state.track.set(u.id, 30)
    h.run(attack(h, sayo, kyo, "withering", []), ["passive defense", 0, 0, True, 2, 0, 1])
    asked = [d.prompt for d in h.asked]
    assert "Sayo: burn soul jade on the damage (d10 [8 4])? (40 points available)" in asked
    assert any(p.startswith("Sayo: burn soul jade to raise damage die 2 of 2 from 4?") for p in asked)
    assert sayo.burn_points == 40 - 3 - 1
    bonus = attack_profile(h.state, sayo, kyo).damage_bonus
    raw = 10 * 2 + 4 + bonus + 1
    assert any(t.startswith(f"raw {raw} − toughness 4") for t in h.texts())
    assert "Sayo burns 3 points: damage die 1 8 -> 10" in h.texts()


def test_burning_jade_raises_the_join_battle_roll_die_and_bonus(make):
    """燃玉: join battle (参战骰) is a d20+x roll: Akari raises her 9 by 3 (6 points) and the +x by 2
    (3 points): initiative 9 + 3 + agility 3 + 2 = 17 instead of 12."""
    h = make(
        make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), boss_fight=True),
        [9, 12],
        phase="preparation",
    )
    h.run(preparation(h), [3, 2])
    akari = h.unit("akari")
    assert [d.prompt.split(" (boost")[0] for d in h.asked] == [
        "Akari: burn soul jade to raise the join battle die from 9?",
        "Akari: burn soul jade to put points into the +x of the join battle (dX+x: no cap but your points)?",
    ]
    assert akari.initiative == 17 and h.state.track.values["akari"] == 17 and akari.burn_points == 30 - 9
    assert "Akari: initiative 12 -> 17 (soul jade burnt into the join battle (燃玉))" in h.texts()


def test_burning_jade_raises_a_pool_die_to_a_success_but_a_pool_has_no_plus_x(make):
    """燃玉点数的使用: a d10 pool is dX ("若一个骰子并非dx+x，仅为dX，则角色不能进行+x的燃玉点数投入"):
    Akari's withdraw pool rolls [6 3 10]; she raises the 6 to 7 (1 point) — a success — and is
    asked nothing for the 10 (already at its maximum face) nor for a +x."""
    h, akari, kyo = setup(make, faces=[6, 3, 10], boss=True)
    akari.initiative = 20
    h.run(movement.withdraw(h, akari), [True, 1, 0])
    prompts = [d.prompt for d in h.asked]
    assert prompts[0] == "Akari: burn soul jade on the withdraw pool (d10 [6 3 10])? (30 points available)"
    assert len(prompts) == 3 and not any("+x" in p for p in prompts)
    assert "Akari withdraws: 3 successes (total 3/5)" in h.texts() and akari.burn_points == 29


# -- 燃玉 on every other roll a character makes ----------------------------------------------
def boss(make, *units, faces=(), band=2):
    h = make(make.scenario(*units, band=band, boss_fight=True), list(faces), interrupts=False)
    for u in h.state:
        u.initiative = 10
        h.state.track.set(u.id, 10)
    return h


def test_burning_jade_into_a_clash_die_turns_the_clash(make):
    """燃玉 + 交锋: the clash's opposed hit checks are d20+x rolls: Akari's die 10 raised by 2 turns
    a clash she loses by 1 into one she wins by 1."""
    h = boss(make, make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), band=1)
    akari, kyo = h.unit("akari"), h.unit("kyo")
    ka = attack_profile(h.state, akari, kyo).accuracy
    kb = attack_profile(h.state, kyo, akari).accuracy
    kyo_die = 10 + ka - kb + 1
    h.dice.extend([10, kyo_die, 1, 1])  # the two hit checks, then Akari's 2d6 damage
    h.run(attack(h, akari, kyo, "withering", ["kyo"]), ["clash with a withering attack", 2, 0, False])
    assert f"clash (交锋): Akari {12 + ka} vs Kyo {kyo_die + kb}" in h.texts()
    assert any(t.startswith("Akari wins the clash") for t in h.texts()) and akari.burn_points == 30 - 3


def test_burning_jade_into_the_guards_defense_holds_the_attack(make):
    """燃玉 + 护卫: the protector's active defense is a d20+x roll: Sayo's guard die 5 raised to 10
    (15 points) and its +x by 4 (10 points) holds Kyo's 19 off (19 vs 20)."""
    h = boss(make, make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), make.unit_entry("sayo", "heroes"), faces=[10, 5], band=0)
    sayo, kyo = h.unit("sayo"), h.unit("kyo")
    sayo.guarding = True
    kyo.initiative = 15
    h.state.track.set("kyo", 15)
    h.run(attack(h, kyo, h.unit("akari"), "decisive", []), ["passive defense", 5, 4])
    assert "Sayo turns the attack aside (19 vs 20)" in h.texts() and sayo.burn_points == 40 - 15 - 10
    assert kyo.initiative == 15 - 5  # the failed decisive attack


def test_burning_jade_into_a_contest_and_a_cover_roll(make):
    """燃玉 + 跟步 / 寻求掩蔽: a rush contest and the take-cover roll are d20+x rolls: Akari's rush
    die 12 raised by 1 beats Kyo's 13 (16 vs 15, where the tie would have gone to Kyo); her cover
    die 10 raised by 2 reaches the difficulty (12 + 3 = 15 vs 14)."""
    h = boss(make, make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), faces=[12, 13, 10], band=0)
    akari, kyo = h.unit("akari"), h.unit("kyo")
    h.run(movement.rush_response(h, akari, kyo, key="k").resolve(), [1, 0])
    assert akari.rushing == ["kyo"] and "Akari rushes Kyo: 16 vs 15: she will follow every step" in h.texts()
    akari.cover_available, akari.cover_difficulty = "light", 14
    assert h.run(movement.take_cover(h, akari), [2, 0]) and akari.cover == "light"
    assert akari.burn_points == 30 - 1 - 3


def test_burning_jade_into_a_reversal_and_a_late_join(make):
    """燃玉 + 先导逆转 / 中途加入: the reversal's join-battle roll and a late joiner's take points too
    (the initiative rises by what the roll's total gains)."""
    h = boss(make, make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), faces=[7])
    akari, kyo = h.unit("akari"), h.unit("kyo")
    for unit, value in ((kyo, 3), (akari, 0)):
        unit.initiative = value
        h.state.track.set(unit.id, value)
    akari.crashed_by = "kyo"
    h.run(apply_withering(h, akari, kyo, 5), [2, 0])
    # +1 hit, +3 taken, +5 break = 9; then max(9, 5) + (7 + 2 burnt + 3 agility)
    assert akari.initiative == 9 + 12 and akari.reversal_target == "kyo"
    late = make(
        make.scenario(
            make.unit_entry("akari", "heroes"),
            make.unit_entry("kyo", "foes"),
            make.unit_entry("sayo", "heroes", joins_round=2, prepared=True),
            boss_fight=True,
        ),
        [11],
        interrupts=False,
    )
    late.state.round = 2
    joined = round_start(late)
    sayo = late.unit("sayo")
    assert [(u.id, natural) for u, natural in joined] == [("sayo", 11)] and sayo.initiative == 11 + 2
    late.run(boost_join(late, sayo, 11, what="join battle"), [0, 3])
    assert sayo.initiative == 11 + 2 + 3 and late.state.track.values["sayo"] == 16


def test_burning_jade_into_a_leaders_order_and_a_generals_maneuver(make):
    """燃玉 + 指挥动作 / 战术机动: a leader's order pool and a general's strategic-maneuver pool are
    the character's dX pools: one die raised from 6 to 7 makes the order heard (0 → 1 success)
    and ties the maneuver (1 vs 1: no tactic)."""
    h = boss(
        make,
        make.unit_entry("akari", "heroes", leader_of=["militia"]),
        make.unit_entry("militia", "heroes", group="town_militia"),
        make.unit_entry("kyo", "foes"),
        faces=[6, 6, 1],
    )
    h.run(perform(h, h.unit("akari"), Action("order", "militia"), []), [True, 1, 0, 0])
    assert h.unit("militia").pending_order == 1 and h.unit("akari").burn_points == 29
    war = boss(make, make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), faces=[6, 2, 7, 1])
    war.state.phase = "preparation"
    pincer = lambda o: o.value == "pincer"  # noqa: E731
    war.run(strategic_warfare(war, {"heroes": "akari", "foes": "kyo"}), [pincer, pincer, True, 1, 0])
    assert "strategic maneuver: heroes 1 vs foes 1 successes: no tactic takes effect" in war.texts()
