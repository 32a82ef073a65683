"""The interrupt phase (插入阶段：瞬间法术与战时触发效果) on the core stack."""

from wargamekit_mttt_rpg.interrupt_phase import (
    make_response,
    open_window,
    turn_responses,
)
from wargamekit_mttt_rpg.sheets import Effect


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


def test_a_trigger_is_answered_once(make):
    """插入阶段: a triggered effect answers its trigger once, not again at later resolution points."""
    h, akari, sayo, witch = trio(make)
    mana(akari, order=4)
    h.run(
        open_window(
            h, "attack declared", active="witch", trigger="attacked", subject="akari", source="witch"
        ),
        [
            lambda o: o.label.startswith("Akari: Counter-Shot"),
            "pass",
            # resolution point: Counter-Shot is not offered again, Ribbon Shield still is
            lambda o: o.label == "pass",
        ],
    )
    assert [o.label.startswith("Akari: Counter-Shot") for o in h.asked[-1].options].count(True) == 0
    assert akari.order_mp == 3
    # a new occurrence of the trigger may be answered again
    h.run(
        open_window(
            h, "attack declared", active="witch", trigger="attacked", subject="akari", source="witch"
        ),
        [lambda o: o.label.startswith("Akari: Counter-Shot"), "pass", "pass"],
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
