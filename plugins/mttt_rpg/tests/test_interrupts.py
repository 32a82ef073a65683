"""The interrupt phase (插入阶段：瞬间法术与战时触发效果) on the core stack."""

import pytest
from attrs import evolve

from wargamekit import IllegalChoiceError
from wargamekit_mttt_rpg.attack_flow import attack
from wargamekit_mttt_rpg.combat_actions import active_step
from wargamekit_mttt_rpg.interrupt_phase import (
    RULE_INTERRUPT,
    make_response,
    open_window,
    turn_responses,
)
from wargamekit_mttt_rpg.sheets import Effect, library


def trio(make, interrupts=True):
    h = make(
        make.scenario(
            make.unit_entry("akari", "heroes"),
            make.unit_entry("sayo", "heroes"),
            make.unit_entry("witch", "foes"),
            band=1,
        ),
        [],
        interrupts=interrupts,
    )
    return h, h.unit("akari"), h.unit("sayo"), h.unit("witch")


def mana(unit, order=0, distortion=0):
    unit.order_cap = unit.order_mp = order
    unit.distortion_cap = unit.distortion_mp = distortion


def test_chain_of_three_resolves_last_in_first_out_with_legality_rechecked(make):
    """插入阶段: pushes stack, the last pushed resolves first, a countered item fizzles at resolution."""
    h, akari, sayo, witch = trio(make)
    mana(sayo, distortion=3)
    mana(witch, distortion=6)
    h.run(
        open_window(h, "attack declared", active="witch"),
        [
            "Witch of Thorns: Thorn Wall on Witch of Thorns",  # 1: the acting side is polled first
            "Sayo: Severing Charm",  # 2: counters Thorn Wall
            "Witch of Thorns: Dark Counter",  # 3: counters Severing Charm
        ],
    )  # Sayo is not offered a second counter on Thorn Wall: her key answered it already
    texts = h.texts()
    assert [t.split(" (")[0] for t in texts if "pushes" in t] == [
        "foes pushes Witch of Thorns: Thorn Wall on Witch of Thorns",
        "heroes pushes Sayo: Severing Charm",
        "foes pushes Witch of Thorns: Dark Counter",
    ]
    results = [t for t in texts if t.endswith("resolves") or "fizzles" in t]
    assert results[0].startswith("Witch of Thorns: Dark Counter") and results[0].endswith("resolves")
    assert results[1].startswith("Sayo: Severing Charm") and results[1].endswith("fizzles: countered")
    assert results[2].startswith("Witch of Thorns: Thorn Wall") and results[2].endswith("resolves")
    assert witch.protection_bonus == 2 and witch.distortion_mp == 0
    assert sayo.distortion_mp == 3  # a fizzled spell costs nothing: mana is paid at resolution


def test_more_pushes_at_each_resolution_point(make):
    """插入阶段: at every resolution point more instants may be pushed before the next item resolves."""
    h, akari, sayo, witch = trio(make)
    mana(akari, order=4)
    mana(witch, distortion=2)
    h.run(
        open_window(h, "turn start", active="akari"),
        [
            "Akari: Ribbon Shield on Sayo",
            "pass",
            "pass",
            # Ribbon Shield resolved; at its resolution point Akari pushes again, on herself
            "Akari: Ribbon Shield on Akari",
            "pass",
            "pass",
        ],
    )
    assert sayo.defense_bonus == 3 and akari.defense_bonus == 3 and akari.order_mp == 0
    points = [d.prompt for d in h.asked]
    assert points[3].startswith("resolution of Akari: Ribbon Shield on Sayo")


COUNTER_SHOT = "Akari: Counter-Shot on Witch of Thorns (withering blast 2, 1 order MP)"


def test_a_trigger_is_answered_once(make):
    """插入阶段: a triggered effect answers its trigger once, not again at later resolution points
    ("不可能响应相同的战时触发效果，因为其触发在上一次结算时点已经触发")."""
    h, akari, sayo, witch = trio(make)
    mana(akari, order=4)
    h.run(
        open_window(
            h, "attack declared", active="witch", trigger="attacked", subject="akari", source="witch"
        ),
        [
            [COUNTER_SHOT],  # the triggered effects she answers
            "pass",  # then the window: Ribbon Shield is offered, she passes
            # resolution point: Counter-Shot is not offered again, Ribbon Shield still is
            lambda o: o.label == "pass",
        ],
    )
    assert h.asked[0].prompt.startswith("attack declared") and h.asked[0].labels == [COUNTER_SHOT]
    assert [o.label.startswith("Akari: Counter-Shot") for o in h.asked[-1].options].count(True) == 0
    assert akari.order_mp == 3
    # a new occurrence of the trigger may be answered again
    h.run(
        open_window(
            h, "attack declared", active="witch", trigger="attacked", subject="akari", source="witch"
        ),
        [[COUNTER_SHOT], "pass", "pass"],
    )
    assert akari.order_mp == 2


def test_item_fizzles_when_its_caster_can_no_longer_act(make):
    """插入阶段: legality is re-checked at resolution; a helpless caster's spell fizzles."""
    h, akari, sayo, witch = trio(make, interrupts=False)
    mana(akari, order=2)
    item = make_response(h, akari, "Ribbon Shield", Effect("defense", 3, "ally"), "order", 2, sayo)
    h.interrupts.push(item)
    akari.hp, akari.status = 0, "helpless"
    h.run(h.interrupts.window("test", ["heroes", "foes"], lambda s, p: [], floor=0))
    assert sayo.defense_bonus == 0 and any("fizzles: Akari can no longer act" in t for t in h.texts())


def test_disabled_interrupt_phase_polls_nobody_but_turn_responses_resolve(make):
    """可选·禁用插入阶段: no window asks anyone; mandatory turn responses (轮响应) still resolve."""
    h, akari, sayo, witch = trio(make, interrupts=False)
    mana(akari, order=6)
    mana(witch, distortion=8)
    witch.hp = 10
    h.run(open_window(h, "turn start", active="akari"))
    h.run(turn_responses(h, witch))
    assert h.asked == [] and witch.hp == 11


def test_turn_responses_resolve_with_windows_when_enabled(make):
    """阶段2：行动轮 (轮响应): a mandatory turn response goes on the stack and may be answered."""
    h, akari, sayo, witch = trio(make)
    mana(sayo, distortion=3)
    witch.hp = 10
    h.run(turn_responses(h, witch), ["Sayo: Severing Charm"])
    assert witch.hp == 10 and any(
        "Regrowth on Witch of Thorns (heal 1) fizzles: countered" in t for t in h.texts()
    )


def _healer(make, interrupts):
    """Akari (HP 5 of 7, 2 temporary distortion points, 3 order MP) facing Kyo, round 3."""
    h = make(
        make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), band=2),
        [],
        interrupts=interrupts,
    )
    h.state.round = 3
    akari, kyo = h.unit("akari"), h.unit("kyo")
    for u in (akari, kyo):
        u.initiative = 10
        h.state.track.set(u.id, 10)
    akari.hp, akari.distortion_points = 5, 2
    mana(akari, order=3)
    mana(kyo)
    return h, akari, kyo


@pytest.mark.parametrize("interrupts", [True, False])
def test_a_standard_spell_resolves_within_the_casters_action(make, interrupts):
    """战斗行动 / 施法: "大部分的标准法术（spell）都需要消耗1个标准动作 … 施法的效果以及有关检定参照对应法术本身":
    Healing Song (standard, 3 order MP, heal 2) takes effect as Akari casts it and spends her
    standard action; the healed HP take the temporary distortion points with them (伤害). With
    the interrupt phase on or off (可选·禁用插入阶段), the spell leaves nothing on the stack."""
    h, akari, kyo = _healer(make, interrupts)
    answers = ["cast Healing Song on Akari"]
    if interrupts:
        answers.append("pass")  # "standard action declared": Akari could still raise Ribbon Shield
    h.run(active_step(h, akari, []), answers)
    assert (akari.hp, akari.distortion_points, akari.order_mp) == (7, 0, 0)
    assert h.interrupts.items == []
    assert [d.prompt for d in h.asked].count(
        "Akari (initiative 10, HP 5/7, MP 3 order/0 distortion): choose an action"
    ) == 1  # one standard action: the step ends with the spell
    assert "Healing Song: Akari regains 2 HP (7/7)" in h.texts()


def test_a_standard_spell_on_the_stack_may_be_countered_in_its_casting_window(make):
    """插入阶段: the cast spell is a stack item; Kyo's Dispel, pushed in its casting window,
    resolves first and the spell fizzles (its mana is not paid: 法术力 is paid at resolution)."""
    h, akari, kyo = _healer(make, True)
    mana(kyo, distortion=3)
    h.run(
        active_step(h, akari, []),
        ["cast Healing Song on Akari", "pass", "Kyo: Dispel", "pass"],
    )
    assert (akari.hp, akari.distortion_points, akari.order_mp, kyo.distortion_mp) == (5, 2, 3, 0)
    assert any("Healing Song on Akari (heal 2, 3 order MP) fizzles: countered" in t for t in h.texts())
    assert h.interrupts.items == []


def _kyo_with_two_triggers(make, monkeypatch, faces, band):
    """Kyo with Fury (when damaged, +2 initiative, 1 order MP) and, for this test, Steel Resolve
    (when crashed, +3 initiative, 2 order MP); 3 order MP, initiative 3; Akari at initiative 10."""
    kyo_sheet = library().characters["kyo"]
    steel = next(t for t in library().characters["sayo"].triggers if t.name == "Steel Resolve")
    monkeypatch.setitem(library().characters, "kyo", evolve(kyo_sheet, triggers=[*kyo_sheet.triggers, steel]))
    h = make(
        make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), band=band),
        faces,
    )
    akari, kyo = h.unit("akari"), h.unit("kyo")
    for u, value in ((akari, 10), (kyo, 3)):
        u.initiative = value
        h.state.track.set(u.id, value)
    mana(kyo, order=3)
    return h, akari, kyo


FURY = "Kyo: Fury on Kyo (gain initiative 2, 1 order MP)"
STEEL = "Kyo: Steel Resolve on Kyo (gain initiative 3, 2 order MP)"


def _resolved(h):
    return [t.split(" (")[0] for t in h.texts() if t.endswith(" resolves")]


def test_a_hit_that_damages_and_crashes_offers_both_triggers_in_the_controllers_order(make, monkeypatch):
    """插入阶段: "只要法术力支持、触发条件发生，战时触发效果将在任何最先它被触发的时点响应": a withering hit
    that takes Kyo from 3 to 0 initiative both damages and crashes her, so "when damaged" (Fury)
    and "when crashed" (Steel Resolve) are both offered at once; she pushes Steel Resolve first,
    then Fury, and the stack resolves them last in first out."""
    # hit check 15; raw damage 2d6 = 3 + 3 (+1 bow, +3 agility) = 10 − toughness 4 = 6 ≥ 3: crash
    h, akari, kyo = _kyo_with_two_triggers(make, monkeypatch, [15, 3, 3], band=2)
    h.run(
        attack(h, akari, kyo, "withering", []),
        ["pass", "passive defense", 0, [FURY, STEEL], "Kyo: Steel Resolve"],
    )
    offered = next(d for d in h.asked if d.prompt.startswith("attack resolved"))
    assert offered.labels == [FURY, STEEL]
    order = h.asked[-1]
    assert order.prompt.startswith("Order your simultaneous triggered effects") and order.labels == [FURY, STEEL]
    assert _resolved(h) == ["Kyo: Fury on Kyo", "Kyo: Steel Resolve on Kyo"]
    assert kyo.initiative == 0 + 2 + 3 and kyo.order_mp == 0


def test_a_lost_clash_that_crashes_offers_the_crash_trigger(make, monkeypatch):
    """交锋 + 插入阶段: a clash lost is a hit on the loser: the "when crashed" trigger is offered
    (and "when damaged" too) when the clash takes her to 0."""
    # clash hit checks: Akari d20 18, Kyo d20 2; Akari's raw damage 2d6 = 1 + 1 (+ margin)
    h, akari, kyo = _kyo_with_two_triggers(make, monkeypatch, [18, 2, 1, 1], band=1)
    h.run(
        attack(h, akari, kyo, "withering", ["kyo"]),
        ["clash with a withering attack", 0, [FURY, STEEL], "Kyo: Fury"],
    )
    assert kyo.crashed is False and any("Kyo is in initiative crash" in t for t in h.texts())
    offered = next(d for d in h.asked if d.prompt.startswith("attack resolved"))
    assert offered.labels == [FURY, STEEL]
    assert _resolved(h) == ["Kyo: Steel Resolve on Kyo", "Kyo: Fury on Kyo"]
    assert kyo.initiative == 5 and kyo.order_mp == 0


def test_triggered_effects_answered_together_must_be_paid_for_together(make, monkeypatch):
    """插入阶段: "只要法术力支持": with 2 order MP Kyo may answer with Fury (1) or Steel Resolve (2),
    not both (3); answering with both is refused naming the rule and the shortfall."""
    h, akari, kyo = _kyo_with_two_triggers(make, monkeypatch, [15, 3, 3], band=2)
    mana(kyo, order=2)
    procedure = attack(h, akari, kyo, "withering", [])
    subset = next(procedure)
    for raw in ("pass", "passive defense", 0):
        subset = procedure.send(h._value(subset, raw))
    assert subset.prompt.startswith("attack resolved") and subset.labels == [FURY, STEEL]
    with pytest.raises(IllegalChoiceError, match="Kyo has 2 order MP for triggered effects costing 3") as err:
        subset.check([0, 1])
    assert err.value.rule == RULE_INTERRUPT
    assert subset.check([1]) == [1] and subset.check([0]) == [0]
