"""The pure shot resolution: hit check, damage check, close range, special rounds, ammunition
(标准规则修改部分 4; 特殊规则 3, 4, 12; 作战阶段 注)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from wargamekit import ScriptedDice
from wargamekit.odds import distribution
from wargamekit_tank_solo.fire import Shot, _summary, close_range_bonus, fire_type_modifier, resolve_shot, shot_odds
from wargamekit_tank_solo.special_rounds import overloaded_damage_dice


def test_hit_needs_total_at_least_range():
    """4 命中判定 ii: 2d6 + modifiers >= range hits; one less misses."""
    shot = Shot(range=7, hit_modifier=0, attack=0, armour=99)
    assert resolve_shot(ScriptedDice([3, 4, 1, 1]), shot).hit
    miss = resolve_shot(ScriptedDice([3, 3]), shot)
    assert (miss.hit, miss.effect, miss.hit_total, miss.damage_total) == (False, "miss", 6, None)


def test_kill_needs_damage_at_least_armour():
    """4 伤害判定 i: 2d6 + attack >= armour destroys; one less has no effect."""
    shot = Shot(range=3, hit_modifier=0, attack=8, armour=12)
    killed = resolve_shot(ScriptedDice([6, 6, 2, 2]), shot)
    assert (killed.effect, killed.damage_total) == ("killed", 12)
    assert resolve_shot(ScriptedDice([6, 6, 1, 2]), shot).effect == "no effect"


def test_close_range_adds_to_damage():
    """特殊规则 3 近距射击: +1 to the damage dice at range 2, +3 at range 1."""
    assert [close_range_bonus(r) for r in (1, 2, 3, 10)] == [3, 1, 0, 0]
    at_one = resolve_shot(ScriptedDice([6, 6, 2, 2]), Shot(range=1, hit_modifier=0, attack=5, armour=12))
    at_two = resolve_shot(ScriptedDice([6, 6, 2, 2]), Shot(range=2, hit_modifier=0, attack=5, armour=12))
    at_three = resolve_shot(ScriptedDice([6, 6, 2, 2]), Shot(range=3, hit_modifier=0, attack=5, armour=12))
    assert (at_one.damage_total, at_two.damage_total, at_three.damage_total) == (12, 10, 9)
    assert (at_one.effect, at_two.effect) == ("killed", "no effect")


def test_modified_rolls_may_go_negative():
    """作战阶段 注: reductions may take a roll below zero."""
    result = resolve_shot(ScriptedDice([1, 1]), Shot(range=1, hit_modifier=-10, attack=0, armour=1))
    assert result.hit_total == -8 and not result.hit


def test_fire_form_modifiers_and_national_exceptions():
    """作战阶段 1-1 (German +1), 1-2 (-3, US -2), 2-2 (-2, UK -1), 3 (-1, Soviet -0)."""
    assert [fire_type_modifier(f, "italy") for f in ("aimed", "leap", "defensive", "advance")] == [0, -3, -2, -1]
    assert fire_type_modifier("aimed", "germany") == 1
    assert fire_type_modifier("leap", "usa") == -2
    assert fire_type_modifier("defensive", "uk") == -1
    assert fire_type_modifier("advance", "ussr") == 0
    assert fire_type_modifier("aimed", "ussr") == 0  # exceptions apply only to their own form


def test_overloaded_charge_multiplies_damage_dice_by_class():
    """特殊规则 4-1: damage dice x2 light, x1.5 medium, x1.2 heavy (fractions dropped), then modifiers."""
    totals = {}
    for cls in ("light", "medium", "heavy"):
        shot = Shot(range=2, hit_modifier=0, attack=1, armour=99, firer_class=cls, special="overloaded")
        totals[cls] = resolve_shot(ScriptedDice([6, 6, 3, 4]), shot).damage_total
    # 7 dice -> 14 / 10 / 8, then +1 close range +1 attack
    assert totals == {"light": 16, "medium": 12, "heavy": 10}


def test_overloaded_charge_drops_fractions_for_every_dice_total():
    """特殊规则 4-1: "fractions dropped" for every 2d6 total and class (2 x 11 = 22 light, 11 x 1.5
    = 16.5 -> 16 medium, 11 x 1.2 = 13.2 -> 13 heavy), and the exact odds of an overloaded shot
    (lazy die values) equal a face-by-face enumeration of the same procedure."""
    factor = {"light": Fraction(2), "medium": Fraction(3, 2), "heavy": Fraction(6, 5)}
    for cls, total in product(factor, range(2, 13)):
        assert overloaded_damage_dice(total, cls) == int(total * factor[cls])
    assert [overloaded_damage_dice(11, c) for c in factor] == [22, 16, 13]
    for cls in factor:
        shot = Shot(range=4, hit_modifier=0, attack=5, armour=19, firer_class=cls, special="overloaded")
        assert distribution(_summary, shot) == distribution(_summary, shot, lazy=False)


def test_overloaded_charge_wasted_on_a_miss():
    """特殊规则 4-1: a miss rolls no damage (the round is simply used up)."""
    dice = ScriptedDice([1, 1])
    result = resolve_shot(dice, Shot(range=5, hit_modifier=0, attack=9, armour=9, special="overloaded"))
    assert result.effect == "miss" and dice.remaining == []


def test_fin_round_counts_one_die_as_six():
    """特殊规则 4-2: one of the two dice (the lower: only the total matters) counts as 6."""
    result = resolve_shot(ScriptedDice([1, 2, 1, 1]), Shot(range=8, hit_modifier=0, attack=0, armour=99, special="fin"))
    assert result.hit_total == 8 and result.hit and result.hit_dice == (1, 2)


def test_fin_round_still_triggers_ammunition_shortage():
    """特殊规则 4-2 注 and 12: the natural 12 is read before the fin round's change."""
    shot = Shot(range=2, hit_modifier=0, attack=0, armour=99, special="fin", ammo_rule=True)
    assert resolve_shot(ScriptedDice([6, 6, 1, 1]), shot).ammo_shortage
    assert not resolve_shot(ScriptedDice([6, 5, 1, 1]), shot).ammo_shortage


def test_hesh_table_replaces_damage_check():
    """特殊规则 4-3: on a hit roll 1d6: 1-2 immobilised, 3-4 weapon destroyed, 5-6 killed."""
    shot = Shot(range=2, hit_modifier=0, attack=0, armour=99, special="hesh")
    effects = [resolve_shot(ScriptedDice([6, 6, face]), shot).effect for face in range(1, 7)]
    assert effects == ["immobilised"] * 2 + ["weapon destroyed"] * 2 + ["killed"] * 2


def test_ammunition_shortage_only_on_natural_twelve_with_the_rule():
    """特殊规则 12: a natural 12 (before modifiers) with the rule on; the shot resolves normally."""
    on = Shot(range=20, hit_modifier=-5, attack=0, armour=99, ammo_rule=True)
    result = resolve_shot(ScriptedDice([6, 6]), on)
    assert result.ammo_shortage and result.effect == "miss"
    assert not resolve_shot(ScriptedDice([6, 6]), Shot(range=20, hit_modifier=-5, attack=0, armour=99)).ammo_shortage
    assert not resolve_shot(ScriptedDice([5, 6]), on).ammo_shortage


def test_exact_odds_match_brute_force():
    """The exact odds of the pure resolution equal a direct count over all dice."""
    shot = Shot(range=6, hit_modifier=-1, attack=7, armour=14, firer_class="medium", special="overloaded")
    hits = kills = 0
    for a, b, c, d in product(range(1, 7), repeat=4):
        if a + b - 1 >= 6:
            hits += 1
            if int((c + d) * Fraction(3, 2)) + 7 >= 14:
                kills += 1
    odds = shot_odds(shot)
    assert odds.hit == Fraction(hits, 6**4)
    assert odds.kill == Fraction(kills, 6**4)
