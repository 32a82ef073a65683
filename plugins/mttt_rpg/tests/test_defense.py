"""Defense (防御): passive and active formulas, full defense, onslaught, cover, guard, clash."""

from wargamekit_mttt_rpg.attack_flow import attack
from wargamekit_mttt_rpg.defense import active_bonus, defense_profile, passive_defense


def setup(make, *extra, band=0, faces=(), interrupts=False):
    units = [make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), *extra]
    h = make(make.scenario(*units, band=band), list(faces), interrupts=interrupts)
    for u in h.state:
        u.initiative = 10
        h.state.track.set(u.id, 10)
    return h


def test_passive_defense_formula(make):
    """一般防御 / 被动防御: 15 + armour parry + the lower of the agility/constitution modifiers."""
    h = setup(make)
    assert passive_defense(h.unit("akari")) == 15 + 1 + min(3, 2)
    assert passive_defense(h.unit("kyo")) == 15 + 2 + min(2, 2)


def test_active_defense_formulas(make):
    """一般防御 / 主动防御: skill + weapon parry (or armour dodge) + half the attribute modifier."""
    h = setup(make, make.unit_entry("sayo", "heroes"))
    sayo = h.unit("sayo")
    assert active_bonus(sayo, "parry") == 3 + 2 + 3 // 2  # physiology, sword parry, strength
    assert active_bonus(sayo, "dodge") == 2 + 1 + 2 // 2  # athletics, dress dodge, agility


def test_full_defense_onslaught_and_clash_penalty(make):
    """全力防御 +5; 猛攻减值 −1 per attack since her last turn; 交锋 loser −2."""
    h = setup(make)
    akari, kyo = h.unit("akari"), h.unit("kyo")
    base = defense_profile(h.state, akari, kyo, "passive", ranged=False).value
    akari.full_defense = True
    akari.onslaught = 2
    akari.clash_penalty = 2
    assert defense_profile(h.state, akari, kyo, "passive", ranged=False).value == base + 5 - 2 - 2


def test_cover_bonuses_and_full_cover_blocks_ranged(make):
    """寻求掩蔽: light +1, heavy +2; full cover makes ranged attacks impossible."""
    from wargamekit_mttt_rpg.combat_actions import legal_actions

    h = setup(make, band=3)
    akari, kyo = h.unit("akari"), h.unit("kyo")
    base = defense_profile(h.state, kyo, akari, "passive", ranged=True).value
    kyo.cover = "light"
    assert defense_profile(h.state, kyo, akari, "passive", ranged=True).value == base + 1
    kyo.cover = "heavy"
    assert defense_profile(h.state, kyo, akari, "passive", ranged=True).value == base + 2
    kyo.cover = "full"
    assert defense_profile(h.state, kyo, akari, "passive", ranged=True).blocked
    assert not [a for a in legal_actions(h, akari) if a.kind == "attack"]


def test_close_attackers_share_the_cover_bonus(make):
    """寻求掩蔽: "处于近距离的攻击者会和角色享受同样的掩蔽加值" — across the fence both sides' attacks
    are hampered: the close attacker's defense gains the covered character's bonus, and the
    attacker's accuracy gains nothing (the cover still protects its owner)."""
    from wargamekit_mttt_rpg.defense import attack_profile

    h = setup(make, band=3)
    akari, kyo = h.unit("akari"), h.unit("kyo")
    kyo.cover = "heavy"
    accuracy = attack_profile(h.state, akari, kyo).accuracy
    far = defense_profile(h.state, akari, kyo, "passive", ranged=False).value
    h.state.set_distance("akari", "kyo", 1)
    assert attack_profile(h.state, akari, kyo).accuracy == accuracy  # no bonus to hit
    assert defense_profile(h.state, kyo, akari, "passive", ranged=False).value == (
        defense_profile(h.state, kyo, akari, "passive", ranged=True).value
    )  # Kyo keeps her +2
    assert defense_profile(h.state, akari, kyo, "passive", ranged=False).value == far + 2  # Akari shares it
    h.state.set_distance("akari", "kyo", 2)
    assert defense_profile(h.state, akari, kyo, "passive", ranged=False).value == far  # short range: no


def test_attack_adds_onslaught_and_transfers_initiative(make):
    """攻击 + 猛攻减值: a withering hit, then the target has −1 defense until her next turn."""
    h = setup(make, band=2, faces=[11, 3, 4])
    akari, kyo = h.unit("akari"), h.unit("kyo")
    h.run(attack(h, akari, kyo, "withering", []), ["passive defense"])
    # 11 + 8 = 19 vs 19: hit; raw 3 + 4 + 4 = 11 − toughness 4 = 7
    assert (kyo.initiative, akari.initiative, kyo.onslaught) == (3, 18, 1)


def test_guard_uses_the_protectors_defense_and_the_attacker_chooses(make):
    """护卫: the protector parries for allies within 0-1; beaten, the attacker picks whom to strike;
    a decisive attack carried on loses 1 initiative of damage per 2 of the protector's defense."""
    h = setup(make, make.unit_entry("sayo", "heroes"), band=0, faces=[10, 5])
    akari, kyo, sayo = h.unit("akari"), h.unit("kyo"), h.unit("sayo")
    sayo.guarding = True
    kyo.initiative = 15
    h.state.track.set("kyo", 15)
    h.run(attack(h, kyo, akari, "decisive", []), ["passive defense", "carry on against Akari", False])
    # kyo 10 + 9 = 19 vs Sayo 5 + 6 = 11: beaten; vs Akari's 18: hit
    # damage ceil((2 + 15 − 11 // 2) / 2) − protection 1 = 6 − 1
    assert akari.hp == 7 - 5 and kyo.initiative == 5


def test_guard_that_holds_stops_the_attack(make):
    """护卫: an attack that does not beat the protector's defense fails."""
    h = setup(make, make.unit_entry("sayo", "heroes"), band=0, faces=[2, 15])
    akari, kyo, sayo = h.unit("akari"), h.unit("kyo"), h.unit("sayo")
    sayo.guarding = True
    h.run(attack(h, kyo, akari, "withering", []), ["passive defense"])
    assert akari.initiative == 10 and kyo.initiative == 10


def test_guard_broken_through_the_attacker_may_strike_the_protector(make):
    """护卫: an attack that breaks through the protector's parry may strike her instead: it hits her
    (no second defense roll)."""
    h = setup(make, make.unit_entry("sayo", "heroes"), band=0, faces=[10, 5, 3, 3])
    akari, kyo, sayo = h.unit("akari"), h.unit("kyo"), h.unit("sayo")
    sayo.guarding = True
    h.run(attack(h, kyo, akari, "withering", []), ["passive defense", "strike the protector Sayo"])
    # kyo 10 + 9 = 19 vs Sayo's parry 5 + 6 = 11: through; raw 3 + 3 + 4 = 10 − Sayo's toughness
    assert [d.prompt for d in h.asked].count("Sayo is attacked by Kyo: how does she defend?") == 0
    assert any(t == "Kyo 19 vs Sayo's defense 11: hit" for t in h.texts())
    assert akari.initiative == 10 and sayo.initiative < 10 and kyo.initiative > 10


def test_the_defense_and_its_charge_are_declared_before_the_hit_check(make):
    """防御 / 充能: the defender declares her defense and its charge right after the attack is
    declared, before the hit check is rolled."""
    h = setup(make, band=2, faces=[2, 8])
    akari, kyo = h.unit("akari"), h.unit("kyo")
    kyo.order_mp = 3
    seen = []
    procedure = attack(h, akari, kyo, "withering", [])
    decision = next(procedure)
    while True:
        seen.append((decision.prompt, h.dice.position))  # dice drawn before each decision
        try:
            decision = procedure.send("dodge" if "how does she" in decision.prompt else 2)
        except StopIteration:
            break
    assert seen == [
        ("Kyo is attacked by Akari: how does she defend?", 0),
        ("Kyo: charge how much order MP into the defense (+X)?", 0),
    ]
    assert h.dice.position == 2 and kyo.order_mp == 1  # then the hit check and the dodge roll


def test_clash_at_the_same_tick(make):
    """交锋: the target acting at the same tick strikes back; defenses ignored; the loser has −2 defense."""
    h = setup(make, band=0, faces=[15, 5, 3, 3])
    akari, kyo = h.unit("akari"), h.unit("kyo")
    same_tick = ["kyo"]
    h.run(attack(h, akari, kyo, "withering", same_tick), ["clash with a withering attack"])
    # Akari 15 + 8 = 23 vs Kyo 5 + 9 = 14: margin 9; raw 3 + 3 + 4 + 9 = 19 − 4 = 15, +3 = 18
    assert same_tick == [] and kyo.clash_penalty == 2
    assert kyo.initiative == 0 and akari.initiative == 10 + 1 + 10 + 5
