"""Movement on range bands (移动): move, rush, disengage, recover, cover, withdraw, groups."""

from wargamekit_mttt_rpg import movement
from wargamekit_mttt_rpg.combat_actions import Action, legal_actions, perform


def setup(make, *extra, band=2, faces=(), **kw):
    units = [make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes"), *extra]
    h = make(make.scenario(*units, band=band, **kw), list(faces), interrupts=False)
    for u in h.state:
        u.initiative = 10
        h.state.track.set(u.id, 10)
    return h


def options(h, uid):
    return [(a.kind, a.target, a.delta) for a in legal_actions(h, h.unit(uid))]


def test_move_changes_one_band_toward_or_away_from_one_combatant(make):
    """移动 / 通常移动: one band toward or away from one combatant; other bands are unchanged."""
    h = setup(make, make.unit_entry("sayo", "heroes"))
    h.run(movement.move(h, h.unit("akari"), h.unit("kyo"), -1))
    assert h.state.distance("akari", "kyo") == 1 and h.state.distance("akari", "sayo") == 2


def test_move_does_not_work_beyond_six(make):
    """通常移动: no move beyond sight distance (6), none at 7 or more."""
    h = setup(make, band=6)
    assert ("move", "kyo", 1) not in options(h, "akari") and ("move", "kyo", -1) in options(h, "akari")
    h.state.set_distance("akari", "kyo", 7)
    assert not [o for o in options(h, "akari") if o[0] == "move"]


def test_rush_follows_every_step_away(make):
    """移动 / 跟步: an instant agility contest at contact; won, the rusher follows each move away."""
    h = setup(make, band=0, faces=[12, 9])
    akari, kyo = h.unit("akari"), h.unit("kyo")
    item = movement.rush_response(h, akari, kyo, key="k")
    h.run(item.resolve())  # a procedure: soul jade may be burnt into the contest (燃玉)
    assert akari.rushing == ["kyo"]
    h.run(movement.move(h, kyo, akari, +1))
    assert h.state.distance("akari", "kyo") == 0


def test_rush_lost_does_not_follow(make):
    """跟步: the rusher must beat the opponent's agility (ties go to the opponent: provisional)."""
    h = setup(make, band=0, faces=[9, 10])
    akari, kyo = h.unit("akari"), h.unit("kyo")
    h.run(movement.rush_response(h, akari, kyo, key="k").resolve())
    assert akari.rushing == [] and any(t.startswith("Akari rushes Kyo") and t.endswith("fails") for t in h.texts())
    h.run(movement.move(h, kyo, akari, +1))
    assert akari.rushing == [] and h.state.distance("akari", "kyo") == 1


def test_disengage_won_moves_to_geographic_distance_and_costs_five(make):
    """移动 / 撤退: beat every opponent who tries to stop you: geographic distance; −5 initiative."""
    h = setup(make, band=1, faces=[15, 3])
    akari = h.unit("akari")
    won = h.run(movement.disengage(h, akari), [["Kyo"]])
    assert won and h.state.distance("akari", "kyo") == 7 and akari.initiative == 5
    assert akari.disengaged_from == ["kyo"]


def test_disengage_lost_still_costs_five(make):
    """撤退: lose any contest and you stay; the 5 initiative is lost win or lose."""
    h = setup(make, band=1, faces=[3, 15])
    akari = h.unit("akari")
    assert not h.run(movement.disengage(h, akari), [["Kyo"]])
    assert h.state.distance("akari", "kyo") == 1 and akari.initiative == 5


def test_disengage_reflexive_step_against_the_first_escaped_opponent(make):
    """撤退: if an escaped opponent closes in before her next turn she steps one band away, once."""
    h = setup(make, band=3)
    akari, kyo = h.unit("akari"), h.unit("kyo")
    akari.disengaged_from = ["kyo"]
    h.run(movement.move(h, kyo, akari, -1))
    assert h.state.distance("akari", "kyo") == 3 and akari.disengaged_from == []
    h.run(movement.move(h, kyo, akari, -1))
    assert h.state.distance("akari", "kyo") == 2


def test_recover_from_prone_next_to_an_enemy_needs_a_contest(make):
    """移动 / 恢复移动力: a standard action; with an enemy at contact an agility/strength contest."""
    h = setup(make, band=0, faces=[10, 5])
    akari = h.unit("akari")
    akari.prone = True
    assert ("recover", None, 0) in options(h, "akari") and not [
        o for o in options(h, "akari") if o[0] == "move"
    ]
    assert h.run(movement.recover(h, akari)) and not akari.prone
    far = setup(make, band=3)
    far.unit("akari").prone = True
    assert far.run(movement.recover(far, far.unit("akari")))  # no enemy at contact: no roll


def test_take_cover_is_an_agility_roll_against_the_gm_difficulty(make):
    """移动 / 寻求掩蔽: d20 + agility modifier against the scene's difficulty for that cover."""
    h = setup(make, faces=[11, 10])
    akari = h.unit("akari")
    akari.cover_available, akari.cover_difficulty = "light", 14
    assert h.run(movement.take_cover(h, akari)) and akari.cover == "light"
    akari.cover, akari.cover_available = "light", "heavy"
    assert not h.run(movement.take_cover(h, akari)) and akari.cover == "light"


def test_withdraw_extended_roll_ends_the_scene(make):
    """移动 / 逃脱: only with every enemy at sight or farther; −10 initiative a round (even below 0);
    each success pushes one band farther; 5 successes and astronomical distance end the scene."""
    h = setup(make, band=5, faces=[8, 9, 10, 7, 1, 1])
    akari = h.unit("akari")
    assert not movement.can_withdraw(h.state, akari)
    h.state.set_distance("akari", "kyo", 6)
    assert movement.can_withdraw(h.state, akari)
    assert not h.run(movement.withdraw(h, akari))
    assert akari.withdraw_successes == 4 and h.state.distance("akari", "kyo") == 8
    assert akari.initiative == 10 - 10 - 5  # crashed by her own action: 5 more
    assert h.run(movement.withdraw(h, akari))
    assert akari.status == "withdrawn" and h.state.over and akari.initiative == -15


def test_battle_group_leaves_smaller_opponents_without_disengaging(make):
    """战团与移动: a group may leave opponents 2+ sizes smaller (characters: size 0) by moving."""
    h = setup(make, make.unit_entry("militia", "foes", group="town_militia"), band=6)
    assert ("move", "akari", 1) in options(h, "militia")
    assert ("move", "kyo", 1) not in options(h, "militia")  # an ally: no


def test_engaged_character_cannot_move_away_from_the_group(make):
    """与战团战斗 / 包围: the engaged target cannot move relative to the group or disengage."""
    h = setup(make, make.unit_entry("familiars", "foes", group="thorn_familiars"), band=0)
    akari = h.unit("akari")
    h.run(perform(h, h.unit("familiars"), Action("engage", "akari"), []))
    assert akari.engaged_by == "familiars" and h.unit("familiars").initiative == 8
    kinds = options(h, "akari")
    assert not [o for o in kinds if o[0] == "move" and o[1] == "familiars"]
    assert not [o for o in kinds if o[0] == "disengage"]


def test_passing_through_a_group_costs_one_initiative_once_a_round(make):
    """战团与移动: once a round, for 1 initiative, a character passes through a group."""
    h = setup(
        make,
        make.unit_entry("familiars", "foes", group="thorn_familiars"),
        band=0,
        distances=[{"a": "akari", "b": "kyo", "band": 3}],
    )
    akari = h.unit("akari")
    passes = [a for a in legal_actions(h, akari) if a.kind == "pass_through"]
    assert passes and passes[0].target == "kyo"
    h.run(perform(h, akari, passes[0], []))
    assert akari.initiative == 9 and h.state.distance("akari", "kyo") == 2
    assert not [a for a in legal_actions(h, akari) if a.kind == "pass_through"]


def test_disengage_with_five_initiative_is_a_self_inflicted_crash(make):
    """先导崩溃 (the source's own example): disengaging with only 5 initiative crashes her through her
    own action: 5 more are lost at once, the GM may give the break, and she cannot reverse it."""
    h = setup(make, band=1, faces=[3, 15])  # Kyo stops her
    akari, kyo = h.unit("akari"), h.unit("kyo")
    akari.initiative = 5
    h.state.track.set("akari", 5)
    h.run(movement.disengage(h, akari), [["Kyo"], "Kyo (+5 initiative)"])  # the GM names Kyo
    assert akari.initiative == 5 - 5 - 5 and akari.crashed and akari.crash_self
    assert kyo.initiative == 10 + 5
