"""FIR / FPR — fire and the fire procedure, with forced dice (sections 射击, 射击的流程)."""

from fractions import Fraction

import pytest

from wargamekit import odds
from wargamekit_lnl import fire, rules
from wargamekit_lnl.fire import Attack, Target, dft
from wargamekit_lnl.scenario import parse_hex as H
from wargamekit_lnl.state import Unit
from wargamekit_lnl.testing import context, scenario, unit


def village(*extra, terrain=None):
    units = [
        unit("us-1", "us", "us_squad", "0103", weapons=["bar"]),
        unit("us-2", "us", "us_squad", "0103"),
        unit("us-l", "us", "leader_2", "0103"),
        unit("de-1", "german", "de_squad", "0403", weapons=["lmg"]),
        *extra,
    ]
    return scenario(units, terrain=terrain or {})


def test_fpr2_group_fire_lead_full_supporters_half_sw_full_rounded_up():
    """FPR 2.1–2.5, SW 2.1: lead squad 2 + BAR 2, second squad 2/2, leader 1/2 → 5.5 → 6."""
    ctx = context(village())
    s = ctx.state
    fp, jam = fire.firepower([s.units["us-1"], s.units["us-2"], s.units["us-l"]], H("0403"))
    assert (fp, jam) == (6, False)


def test_fpr2_hero_fires_full_and_sw_replaces_half_squad_fp():
    """FPR 2.3 (a hero counts in full, not as a supporter), SW 2.2 (a half-squad fires its SW, not its own FP)."""
    ctx = context(village(unit("us-h", "us", "hero", "0103", skill="steady"),
                          unit("us-half", "us", "us_half", "0103", weapons=["bar"])))
    s = ctx.state
    # lead us-half: BAR 2 (own FP ignored); hero 2 in full: 4.
    assert fire.firepower([s.units["us-half"], s.units["us-h"]], H("0403")) == (4, False)


def test_fir12_long_range_halves_fp():
    """FIR 1.2: a boxed range doubles range and halves FP (A27: each unit's share)."""
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0903")]))
    s = ctx.state
    assert fire.reach(s.units["us-1"], 8) == 2 and fire.reach(s.units["de-1"], 8) is None
    assert fire.firepower([s.units["us-1"]], H("0903")) == (1, False)


def test_fpr1_to_5_hit_and_shaken():
    """FPR 1–5: 1D6 + FP + leadership vs 1D6 + terrain; 1 + 6 + 2 = 9 > 6 + 0: difference 3;
    damage check 3 + 3 − 0 = 6 > morale 5 → shaken."""
    ctx = context(village(), dice=[1, 6, 3])
    s = ctx.state
    firers = [s.units["us-1"], s.units["us-2"], s.units["us-l"]]
    hit = rules.fire_at(ctx, firers, (H("0403"), 0))
    assert hit == [s.units["de-1"]] and s.units["de-1"].shaken
    assert all("fire" in u.markers for u in firers)  # FPR 7


def test_fpr4_attacker_must_be_strictly_greater():
    """FPR 4: equal finals do nothing: lead squad 4 + supporter 1 = 5, no leader among the firers;
    2 + 5 = 7 against 5 + woods 2 = 7."""
    ctx = context(village(terrain={"woods": ["0403"]}), dice=[2, 5])
    s = ctx.state
    assert rules.fire_at(ctx, [s.units["us-1"], s.units["us-2"]], (H("0403"), 0)) == []
    assert not s.units["de-1"].shaken and ctx.dice.remaining == []


def test_fpr5_casualty_reduces_a_squad_to_a_shaken_half_squad_keeping_one_sw():
    """FPR 5, SW 1.2: value 5 + 3 = 8 ≥ morale 5 + 3 → casualty: the squad becomes a shaken
    half-squad carrying its one SW."""
    ctx = context(village(), dice=[1, 6, 5])
    s = ctx.state
    rules.fire_at(ctx, [s.units["us-1"], s.units["us-2"], s.units["us-l"]], (H("0403"), 0))
    assert not s.units["de-1"].alive
    half = s.units["de-1/half"]
    assert half.type == "de_half" and half.shaken and [w.type for w in half.weapons] == ["lmg"]


def test_fpr5_dft_provisional_shape():
    """D4 (provisional): ≤ morale nothing; up to morale + 2 shaken; beyond casualty; a shaken unit's
    second shaken result is a casualty; single-man counters are wounded, then eliminated."""
    assert [dft(v, Target("half", 5)) for v in (5, 6, 7, 8)] == ["no effect", "shaken", "shaken", "eliminated"]
    assert dft(6, Target("team", 5, shaken=True)) == "eliminated"
    assert dft(7, Target("leader", 6)) == "shaken"
    assert dft(7, Target("leader", 6, shaken=True)) == "wounded"
    assert dft(9, Target("leader", 6, wounded=True, shaken=True)) == "eliminated"


def test_fpr5_wounded_leader_and_ldr3_leadership_minus_one():
    """FPR 5: a casualty on a single-man counter wounds it (flipped, wounded marker); LDR 3: a
    wounded leader's leadership is one less. A shaken leader gives no leadership (LDR 2.4)."""
    ctx = context(village(unit("de-l", "german", "leader_2", "0403")), dice=[1, 6, 6])
    s = ctx.state
    s.units["de-1"].alive = False
    leader = s.units["de-l"]
    leader.shaken = True
    # 1 + 6 + 2 = 9 against 6: difference 3; 6 + 3 − 0 = 9 > morale 6, shaken already → wounded.
    rules.fire_at(ctx, [s.units["us-1"], s.units["us-2"], s.units["us-l"]], (H("0403"), 0))
    assert leader.alive and leader.shaken and leader.wounded
    leader.shaken = False
    assert leader.leadership == 1


def test_fpr4_every_unit_in_the_hex_checks_with_the_hex_leadership():
    """FPR 4 (A31): every defending unit rolls, each subtracting the best Good Order leadership in the hex."""
    ctx = context(village(unit("de-2", "german", "de_squad", "0403"), unit("de-l", "german", "leader_1", "0403")),
                  dice=[1, 6, 4, 5, 1, 2])
    s = ctx.state
    rules.fire_at(ctx, [s.units["us-1"], s.units["us-2"], s.units["us-l"]], (H("0403"), 0))
    # difference 3, leadership 1: de-1 4+3−1 = 6 shaken; de-2 5+3−1 = 7 shaken; de-l 1+3−1 = 3 nothing
    assert s.units["de-1"].shaken and s.units["de-2"].shaken and not s.units["de-l"].shaken


def test_fpr6_hero_created_on_a_one_then_odd():
    """FPR 6.1–6.3, HER 1: a damage-check die of 1 on an infantry squad, then an odd 1D6: a hero
    enters in Good Order with a skill drawn at random (index 1 of the sorted skills: marksman)."""
    ctx = context(village(unit("de-9", "german", "de_squad", "0103")), dice=[6, 1, 1, 3, 1])
    s = ctx.state
    # de-1 (3 + LMG 2 = 5) fires at the US hex in the open: 6 + 5 = 11 against 1 + 0: difference 10.
    targets = [s.units["us-1"]]
    rules.fire_at(ctx, [s.units["de-1"]], (H("0103"), 0), targets=targets)
    heroes = [u for u in s.alive("us") if u.kind == "hero"]
    assert len(heroes) == 1 and heroes[0].skill == "marksman" and heroes[0].good_order
    # 1 + 10 − leadership 2 = 9 ≥ 5 + 3: the squad itself is also reduced (A33: its result stands).
    assert not s.units["us-1"].alive and s.units["us-1/half"].shaken

def test_fpr6_no_hero_on_even_or_beyond_two():
    """FPR 6.2: an even second die gives no hero; HER 3: never a third hero on the map."""
    ctx = context(village(unit("us-h1", "us", "hero", "0203", skill="steady"),
                          unit("us-h2", "us", "hero", "0203", skill="steady")))
    s = ctx.state
    assert not Target.of(s, s.units["us-1"]).hero_possible
    assert rules.create_hero(ctx, "us", (H("0103"), 0)) is None
    ctx2 = context(village(), dice=[6, 1, 1, 4])
    s2 = ctx2.state
    rules.fire_at(ctx2, [s2.units["de-1"]], (H("0103"), 0), targets=[s2.units["us-2"]])
    assert not [u for u in s2.alive("us") if u.kind == "hero"]


def test_sw34_j_weapon_jams_on_equal_dice():
    """SW 3.4 (A10): both natural dice equal → the firing J weapon jams; RAL 5 clears it."""
    ctx = context(village(), dice=[4, 4, 2])
    s = ctx.state
    rules.fire_at(ctx, [s.units["de-1"]], (H("0103"), 0), targets=[s.units["us-2"]])
    assert s.units["de-1"].weapons[0].jammed
    # A jammed SW adds nothing: the squad fires its own 3 only.
    assert fire.firepower([s.units["de-1"]], H("0103")) == (3, False)


def test_fpr3_terrain_drm_with_wall_capped_at_four():
    """FPR 3, D2: a building (3) behind a wall crossed by the fire (+1) is 4; a sniper's doubling
    (SMC 2.4) is capped at 4 too (A30)."""
    target, firer = H("0503"), H("0103")
    from wargamekit.geometry import hex_line

    before = hex_line(firer, target)[-2]
    ctx = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503")],
                           terrain={"buildings": ["0503"], "walls": [{"hex": "0503", "side": target.direction_to(before)}]}))
    assert fire.terrain_drm(ctx.state, firer, (target, 0)) == 4
    ctx2 = context(scenario([unit("us-1", "us", "us_squad", "0103"), unit("de-1", "german", "de_squad", "0503")],
                            terrain={"woods": ["0503"]}))
    assert fire.terrain_drm(ctx2.state, firer, (target, 0)) == 2
    assert fire.terrain_drm(ctx2.state, firer, (target, 0), sniper=True) == 4


def test_fpr12_hindrance_subtracts_one_per_hex():
    """FPR 1.2 (D3: −1 per hindering hex between) and LOS 2 (the hexes' own terrain not counted)."""
    ctx = context(village(terrain={"brush": ["0203", "0403"]}))
    s = ctx.state
    attack = fire.plan_fire(s, [s.units["us-1"]], (H("0403"), 0))
    assert attack is not None and attack.drm == -1 and attack.defence == 1


def test_exact_odds_compose_to_the_full_procedure():
    """The exact odds beside each fire option equal the distribution of the whole procedure
    (attack, defence, damage check and hero die)."""
    attack, target = Attack(4, 1, 2, 1), Target("squad", 5, hero_possible=True)
    assert fire.full_odds(attack, target) == odds.distribution(fire.one_target, attack, target)
    assert sum(fire.outcome_odds(attack, target).values()) == 1
    # 1D6 + 5 > 1D6 + 2 with a 1D6 damage check: P(no effect) computed by hand.
    p_none = Fraction(0)
    for a in range(1, 7):
        for d in range(1, 7):
            diff = a + 5 - (d + 2)
            p_none += Fraction(1, 36) * (1 if diff <= 0 else Fraction(sum(1 for c in range(1, 7) if c + diff - 1 <= 5), 6))
    assert fire.outcome_odds(attack, target)["no effect"] == p_none


@pytest.mark.parametrize("kind", ["medic", "sniper"])
def test_smc11_medics_and_snipers_do_not_fire(kind):
    """SMC 1.1: a medic cannot attack; a sniper fires only through its own procedure (SMC 2.3,
    ``sniper.snipe``), never small arms (it is placed in play, SMC 2.1, so it is added here)."""
    if kind == "medic":
        ctx = context(village(unit("us-x", "us", kind, "0203")))
    else:
        ctx = context(village())
        ctx.state.units["us-x"] = Unit("us-x", "us", kind, H("0203"))
    assert not fire.can_fire(ctx.state.units["us-x"])
