"""Attack resolution (战斗行动 / 攻击, 伤害, 交锋): the pure functions with forced dice."""

from fractions import Fraction

from wargamekit import ScriptedDice
from wargamekit.odds import distribution
from wargamekit_mttt_rpg.attack import (
    AttackProfile,
    DefenseProfile,
    attack_odds,
    decisive_damage,
    resolve_attack,
    resolve_clash,
    roll_raw_damage,
    withering_damage,
)

SWORD = AttackProfile(accuracy=9, dice=2, sides=10, damage_bonus=4, penetration=1, initiative=12)
PASSIVE = DefenseProfile(mode="passive", value=18, toughness=3, protection=2)


def test_withering_damage_is_raw_minus_toughness_floored_at_penetration():
    """伤害 / 处理制敌攻击: raw − toughness, never below the weapon's penetration."""
    assert withering_damage(12, 3, 1) == 9
    assert withering_damage(4, 9, 2) == 2
    assert withering_damage(4, 9, 0) == 0


def test_withering_hit_rolls_adb_plus_bonuses():
    """攻击 / 命中检定 and 处理制敌攻击: d20 + accuracy meets the defense; raw = ADB + bonuses."""
    out = resolve_attack(ScriptedDice([9, 3, 5]), SWORD, PASSIVE, "withering")
    assert (out.hit, out.attack_total, out.defense_total) == (True, 18, 18)  # a tie hits (provisional)
    assert (out.raw_damage, out.damage) == (12, 9)


def test_miss_rolls_no_damage():
    """攻击: a hit check below the defense misses and rolls no damage."""
    dice = ScriptedDice([8])
    out = resolve_attack(dice, SWORD, PASSIVE, "withering")
    assert not out.hit and out.damage == 0 and dice.remaining == []


def test_active_defense_rolls_a_d20():
    """防御 / 主动防御: the defense is D20 + its bonus."""
    active = DefenseProfile(mode="parry", value=6, toughness=3)
    out = resolve_attack(ScriptedDice([10, 14]), SWORD, active, "withering")
    assert (out.attack_total, out.defense_total, out.hit) == (19, 20, False)


def test_decisive_damage_is_half_a_plus_initiative_rounded_up_minus_protection():
    """伤害 / 处理关键攻击: Damage = (A + Pr) / 2 rounded up, minus protection."""
    out = resolve_attack(ScriptedDice([15]), SWORD, PASSIVE, "decisive")
    assert out.hit and out.damage == 7 - 2  # ceil((2 + 12) / 2) = 7
    odd = AttackProfile(accuracy=0, dice=2, sides=6, initiative=11)
    assert decisive_damage(odd, 0) == 7  # ceil(13 / 2)


def test_decisive_against_protection_at_least_the_pool_does_nothing_but_still_hits():
    """处理关键攻击: armour at or above the damage pool stops the damage; the attack still succeeds."""
    out = resolve_attack(
        ScriptedDice([15]), SWORD, DefenseProfile(mode="passive", value=10, protection=9), "decisive"
    )
    assert out.hit and out.damage == 0


def test_double_ten_rule_on_damage_dice_and_not_for_battle_groups():
    """与战团战斗: a damage die showing 10 counts twice, but battle groups never get the double-10 rule."""
    assert roll_raw_damage(ScriptedDice([10, 4]), SWORD) == 20 + 4 + 4
    group = AttackProfile(accuracy=0, dice=2, sides=10, damage_bonus=4, double_ten=False)
    assert roll_raw_damage(ScriptedDice([10, 4]), group) == 10 + 4 + 4


def test_charge_adds_to_hit_and_half_to_damage(make):
    """攻击 / 充能: X order MP gives +X to hit and +X/2 damage (declared before the roll)."""
    from wargamekit_mttt_rpg.defense import attack_profile

    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), band=2), [])
    base = attack_profile(h.state, h.unit("akari"), h.unit("kyo"))
    charged = attack_profile(h.state, h.unit("akari"), h.unit("kyo"), charge=3)
    assert charged.accuracy == base.accuracy + 3
    assert charged.damage_bonus == base.damage_bonus + 1 and charged.decisive_bonus == 1
    # Akari's bow: accuracy 2 + ranged 3 + agility modifier 3; damage 1 + 3
    assert (base.accuracy, base.damage_bonus, base.dice, base.sides) == (8, 4, 2, 6)


def test_clash_withering_winner_adds_margin_and_three():
    """交锋: defenses ignored; the withering winner adds the margin to raw damage, then +3."""
    a = AttackProfile(accuracy=8, dice=1, sides=6, damage_bonus=2, penetration=0)
    b = AttackProfile(accuracy=6, dice=1, sides=6, damage_bonus=2)
    da = DefenseProfile(mode="passive", value=99, toughness=1)
    db = DefenseProfile(mode="passive", value=99, toughness=2)
    out = resolve_clash(ScriptedDice([12, 10, 4]), a, "withering", b, "withering", da, db)
    assert (out.winner, out.a_total, out.b_total) == ("a", 20, 16)
    assert out.raw_damage == 4 + 2 + 4 and out.damage == (10 - 2) + 3


def test_clash_decisive_winner_deals_one_more_hp():
    """交锋: a successful decisive clash deals 1 extra HP after the damage."""
    a = AttackProfile(accuracy=0, dice=2, sides=6, initiative=10)
    b = AttackProfile(accuracy=5, dice=1, sides=6, initiative=4)
    d = DefenseProfile(mode="passive", value=0, protection=1)
    out = resolve_clash(ScriptedDice([3, 9]), a, "decisive", b, "decisive", d, d)
    assert out.winner == "b" and out.damage == (-(-(1 + 4) // 2) - 1) + 1


def test_clash_tie_thwarts_both():
    """交锋: equal results (provisional): nobody strikes."""
    p = AttackProfile(accuracy=3, dice=1, sides=6)
    d = DefenseProfile(mode="passive", value=0)
    assert resolve_clash(ScriptedDice([10, 10]), p, "withering", p, "withering", d, d).winner is None


def test_attack_odds_equal_brute_force_enumeration():
    """Exact odds: attack_odds gives the same distribution as enumerating resolve_attack."""
    atk = AttackProfile(accuracy=7, dice=2, sides=6, damage_bonus=3, penetration=1, initiative=9)
    for defense in (PASSIVE, DefenseProfile(mode="dodge", value=5, toughness=2, protection=1)):
        for kind in ("withering", "decisive"):
            brute: dict[int, Fraction] = {}
            for outcome, p in distribution(resolve_attack, atk, defense, kind).items():
                brute[outcome.damage] = brute.get(outcome.damage, Fraction(0)) + p
            assert attack_odds(atk, defense, kind).damage == dict(sorted(brute.items()))
