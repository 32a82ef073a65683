"""Initiative (先导度): join battle, withering transfer, crash, break and reversal."""

from wargamekit import ScriptedDice
from wargamekit_mttt_rpg.combat_actions import legal_actions
from wargamekit_mttt_rpg.combat_round import round_start
from wargamekit_mttt_rpg.damage import (
    apply_decisive,
    apply_decisive_miss,
    apply_withering,
)
from wargamekit_mttt_rpg.defense import defense_profile, passive_defense
from wargamekit_mttt_rpg.initiative import join_battle


def start(h, unit, value):
    """Give a starting initiative as join battle does (not a change during the fight)."""
    unit.initiative = value
    h.state.track.set(unit.id, value)


def duel(make, faces=(), band=0, **kw):
    h = make(
        make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), band=band, **kw),
        list(faces),
    )
    return h, h.unit("akari"), h.unit("kyo")


def test_join_battle_is_d20_plus_agility_minimum_zero(make):
    """先导度 (参战骰): Pr = D20 + agility modifier, never below 0."""
    h, akari, _ = duel(make)
    assert join_battle(ScriptedDice([9]), akari) == 12
    akari.attribute_penalties["agility"] = 10  # agility 6: −2
    assert join_battle(ScriptedDice([1]), akari) == 0


def test_withering_hit_transfers_initiative_plus_one(make):
    """处理制敌攻击: +1 for the hit, the target loses the damage, the attacker gains it."""
    h, akari, kyo = duel(make)
    start(h, akari, 10)
    start(h, kyo, 9)
    h.run(apply_withering(h, akari, kyo, 4))
    assert (akari.initiative, kyo.initiative) == (15, 5)
    assert h.state.track.values == {"akari": 15, "kyo": 5}


def test_withering_gain_capped_at_what_the_target_had_and_crash_gives_break(make):
    """处理制敌攻击 + 先导突破: the gain stops at the target's initiative; crashing her gives +5."""
    h, akari, kyo = duel(make)
    start(h, akari, 10)
    start(h, kyo, 6)
    h.run(apply_withering(h, akari, kyo, 9))
    assert kyo.initiative == 0 and kyo.crashed and kyo.crashed_by == "akari"
    assert akari.initiative == 10 + 1 + 6 + 5


def test_no_break_from_a_target_that_recovered_last_round(make):
    """先导突破: no break bonus in the round the enemy recovered from crash or the one after."""
    h, akari, kyo = duel(make)
    h.state.round = 4
    start(h, akari, 10)
    start(h, kyo, 3)
    kyo.recovered_round = 3
    h.run(apply_withering(h, akari, kyo, 5))
    assert kyo.crashed and akari.initiative == 10 + 1 + 3


def test_withering_on_a_crashed_target_hits_hp_without_distortion(make):
    """先导崩溃: withering hits go straight to HP, raise no distortion, and 0 HP only makes her helpless."""
    h, akari, kyo = duel(make)
    start(h, akari, 10)
    start(h, kyo, 0)
    h.run(apply_withering(h, akari, kyo, 3))
    assert (kyo.hp, kyo.distortion_points, akari.initiative) == (4, 0, 11)
    h.run(apply_withering(h, akari, kyo, 30))
    assert kyo.hp == 0 and kyo.status == "helpless" and "kyo" not in h.state.track.values


def test_chaos_phase_is_immune_to_withering(make):
    """歪曲阶段: a unit with a chaos phase is immune to withering damage (the attacker still gains 1)."""
    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("witch", "foes")), [])
    akari, witch = h.unit("akari"), h.unit("witch")
    start(h, akari, 8)
    start(h, witch, 12)
    h.run(apply_withering(h, akari, witch, 9))
    assert (witch.initiative, witch.hp, akari.initiative) == (12, 12, 9)


def test_crash_zeroes_protections_and_bars_decisive_attacks_and_standard_spells(make):
    """先导崩溃: "先导崩溃的角色所有防护都被视为0，无论其是由什么法术或装备所提供" — protection (防护, what
    decisive damage subtracts) counts 0, the dress's and a spell's alike; parry, dodge, toughness
    and defense bonuses are not protection and stay. "无法进行关键攻击", "无法使用需要标准动作的法术"."""
    h, akari, kyo = duel(make, band=0)
    akari.order_mp = akari.order_cap = 6
    akari.protection_bonus, akari.defense_bonus = 2, 3  # Thorn Wall-like and Ribbon Shield
    start(h, akari, 6)
    before = {m: defense_profile(h.state, akari, kyo, m, ranged=False) for m in ("passive", "parry", "dodge")}
    kinds = {(a.kind, a.kind_of_attack) for a in legal_actions(h, akari)}
    assert ("attack", "decisive") in kinds and ("spell", None) in kinds
    start(h, akari, 0)
    crashed = {m: defense_profile(h.state, akari, kyo, m, ranged=False) for m in ("passive", "parry", "dodge")}
    assert before["passive"].protection == 1 + 2 and crashed["passive"].protection == 0
    assert crashed["passive"].toughness == before["passive"].toughness == 2 + 1  # constitution, dress
    assert [crashed[m].value for m in crashed] == [before[m].value for m in before]
    assert crashed["passive"].value == 15 + 1 + 2 + 3  # dress parry, agility/constitution, Ribbon Shield
    assert passive_defense(akari) == 15 + 1 + 2
    kinds = {(a.kind, a.kind_of_attack) for a in legal_actions(h, akari)}
    assert ("attack", "decisive") not in kinds and ("spell", None) not in kinds
    assert ("attack", "withering") in kinds


def test_the_broader_reading_of_crash_strips_gear_as_a_scenario_option(make):
    """先导崩溃, the other reading (scenario option ``crash_strips_gear``): every bonus an item or
    spell provides counts 0 — dress parry, dodge and toughness, the bow's parry, spell defense."""
    h, akari, kyo = duel(make, band=0, crash_strips_gear=True)
    akari.defense_bonus = 3
    start(h, akari, 0)
    passive = defense_profile(h.state, akari, kyo, "passive", ranged=False)
    dodge = defense_profile(h.state, akari, kyo, "dodge", ranged=False)
    assert passive.value == 15 + 0 + 2 and passive.protection == 0 and passive.toughness == 2
    assert dodge.value == 3 + 0 + 3 // 2  # athletics, no dress dodge, half agility
    start(h, akari, 6)
    assert defense_profile(h.state, akari, kyo, "passive", ranged=False).value == 15 + 1 + 2 + 3


def test_three_crashed_rounds_reset_to_five(make):
    """先导崩溃: after three rounds in crash, initiative resets to 5 at the start of the next round."""
    h, akari, _ = duel(make)
    start(h, akari, -3)
    akari.crashed_rounds = 2
    round_start(h)
    assert akari.initiative == -3
    akari.crashed_rounds = 3
    round_start(h)
    assert akari.initiative == 5 and not akari.crashed


def test_crash_rounds_are_counted_and_the_fourth_round_starts_at_five(make):
    """先导崩溃: crashed in rounds 1, 2 and 3 (counted at each round's settlement): round 4 starts at 5."""
    from wargamekit_mttt_rpg.combat_round import settle

    h, akari, kyo = duel(make)
    start(h, akari, 10)
    start(h, kyo, 4)
    h.run(apply_withering(h, akari, kyo, 6))  # Kyo crashes in round 1
    assert kyo.crashed and kyo.crashed_rounds == 0
    for n in (1, 2, 3):
        settle(h)
        assert kyo.crashed_rounds == n
        h.state.round += 1
        round_start(h)
        assert kyo.initiative == (0 if n < 3 else 5)
    assert not kyo.crashed and kyo.recovered_round == 4


def test_self_inflicted_crash_costs_five_more_and_gm_gives_the_break(make):
    """先导崩溃 / 先导突破: crashing through one's own action costs 5 more; the GM names who gets +5."""
    h, akari, kyo = duel(make)
    start(h, akari, 3)
    start(h, kyo, 7)
    h.run(apply_decisive_miss(h, akari), ["Kyo (+5 initiative)"])
    assert akari.initiative == 3 - 5 - 5 and akari.crash_self
    assert kyo.initiative == 12


def test_decisive_hit_deals_lethal_hp_and_resets_to_base(make):
    """处理关键攻击: HP damage raises distortion points; the attacker resets to 5."""
    h, akari, kyo = duel(make)
    start(h, akari, 14)
    h.run(apply_decisive(h, akari, kyo, 4, 8))
    assert (kyo.hp, kyo.distortion_points, akari.initiative) == (3, 4, 5)


def test_decisive_miss_costs_five(make):
    """处理关键攻击: a failed decisive attack costs 5 initiative."""
    h, akari, _ = duel(make)
    start(h, akari, 12)
    h.run(apply_decisive_miss(h, akari))
    assert akari.initiative == 7


def test_reversal_resets_rerolls_and_refreshes_the_turn(make):
    """先导逆转: crashing the one who crashed you resets to base, adds a join-battle roll, refreshes the turn."""
    h, akari, kyo = duel(make, faces=[7])
    start(h, kyo, 3)
    start(h, akari, 0)
    akari.crashed_by = "kyo"
    h.state.track.next_turn()
    h.state.track.next_turn()
    assert h.state.track.pending() == []
    h.run(apply_withering(h, akari, kyo, 5))
    # +1 hit, +3 taken, +5 break = 9; then max(9, 5) + (7 + 3 agility)
    assert akari.initiative == 9 + 10 and akari.reversal_target == "kyo"
    assert h.state.track.pending() == ["akari"]
    attacks = [a for a in legal_actions(h, akari) if a.kind == "attack"]
    assert attacks and all(a.target == "kyo" for a in attacks)


def test_no_reversal_after_a_self_inflicted_crash(make):
    """先导逆转: a character who crashed through her own action cannot reverse."""
    h, akari, kyo = duel(make)
    start(h, kyo, 3)
    start(h, akari, 0)
    akari.crashed_by, akari.crash_self = "kyo", True
    h.run(apply_withering(h, akari, kyo, 5))
    assert akari.initiative == 9 and akari.reversal_target is None


def test_refreshed_turn_after_a_reversal_may_attack_only_the_reversed_opponent(make):
    """先导逆转: the refreshed action, if an attack, may only target the reversed opponent; once that
    action is spent the restriction ends."""
    from wargamekit_mttt_rpg.combat_actions import active_step

    h = make(
        make.scenario(
            make.unit_entry("akari", "heroes"),
            make.unit_entry("kyo", "foes"),
            make.unit_entry("witch", "foes"),
            band=2,
        ),
        [11, 3, 4, 7],
        interrupts=False,
    )
    akari, kyo = h.unit("akari"), h.unit("kyo")
    start(h, kyo, 3)
    start(h, akari, 0)
    akari.crashed_by = "kyo"
    h.run(active_step(h, akari, []), ["withering attack on Kyo", "passive defense"])
    # 11 + 8 = 19 hits Kyo's 19; raw 3 + 4 + 4 = 11 − 4 = 7: Kyo crashes and Akari reverses
    assert kyo.crashed and akari.reversal_target == "kyo"
    targets = {a.target for a in legal_actions(h, akari) if a.kind == "attack"}
    assert targets == {"kyo"}
    h.run(active_step(h, akari, []), ["full defense"])  # the refreshed action, not an attack
    assert akari.reversal_target is None
    assert {a.target for a in legal_actions(h, akari) if a.kind == "attack"} == {"kyo", "witch"}


def test_healing_removes_the_temporary_distortion_points(make):
    """生命点数HP: distortion points from lethal HP loss are temporary: they go as the HP come back."""
    from wargamekit_mttt_rpg.interrupt_phase import apply_effect
    from wargamekit_mttt_rpg.sheets import Effect

    h, akari, kyo = duel(make)
    h.run(apply_decisive(h, akari, kyo, 4, 8))
    assert (kyo.hp, kyo.distortion_points) == (3, 4)
    h.run(apply_effect(h, kyo, kyo, Effect("heal", 3), countering=None, name="Mend"))
    assert (kyo.hp, kyo.distortion_points) == (6, 1)
