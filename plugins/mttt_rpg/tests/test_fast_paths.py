"""The shortcuts taken for speed change nothing: games played with them and without them give
the same log, byte for byte (seeded random bots on every bundled scenario)."""

import copy
import itertools
import re
from functools import partial
from math import inf
from types import SimpleNamespace

import attrs
import pytest

from wargamekit import ChooseSubset, Game, Option, RandomBot
from wargamekit.interrupts import TimingPoint
from wargamekit.players import bot_seed
from wargamekit.plugins import installed_rulesets
from wargamekit.testing import play_random_game
from wargamekit_mttt_rpg import MtttRpg, combat_actions, combat_round, interrupt_phase, kinds
from wargamekit_mttt_rpg.combat_actions import legal_actions
from wargamekit_mttt_rpg.interrupt_phase import open_window
from wargamekit_mttt_rpg.sheets import Effect, Spell, Trigger, library

SCENARIOS = ("default", "duel", "battle")


def _logs(options=None, seeds=range(8)):
    ruleset = installed_rulesets()["mttt_rpg"]
    return [
        play_random_game(ruleset, scenario, seed=seed, options=options, check_invariants=False).log_text()
        for scenario in SCENARIOS
        for seed in seeds
    ]


@pytest.mark.parametrize("interrupts", [True, False])
def test_the_cheap_tests_of_the_interrupt_phase_never_hide_a_response(monkeypatch, interrupts):
    """插入阶段: a window whose stack is empty and where nobody may respond closes at once, and a
    poll builds only the responses of characters who may respond (``_may_respond``); building
    every character's offers at every window gives the same games."""
    options = {"interrupts": interrupts}
    fast = _logs(options)
    monkeypatch.setattr(interrupt_phase, "_may_respond", lambda *args: True)
    monkeypatch.setattr(interrupt_phase, "_nobody_responds", lambda ctx: False)
    assert _logs(options) == fast


def test_the_cheap_test_of_triggered_effects_never_hides_one(monkeypatch):
    """战时触发效果: a timing point whose trigger conditions no fighting character's optional
    triggered effects answer (``_may_trigger``) asks nobody which effects answer it; asking at
    every such point gives the same games, and the test does skip points (turn responses meet
    "turn_start", which few sheets answer)."""
    fast = _logs({"interrupts": True})
    real, skipped = interrupt_phase._may_trigger, []

    def counting(scene, triggers):
        answers = real(scene, triggers)
        if not answers:
            skipped.append(triggers)
        return answers

    monkeypatch.setattr(interrupt_phase, "_may_trigger", counting)
    assert _logs({"interrupts": True}) == fast
    assert skipped
    monkeypatch.setattr(interrupt_phase, "_may_trigger", lambda scene, triggers: True)
    assert _logs({"interrupts": True}) == fast


def test_instant_actions_are_made_only_when_read(monkeypatch):
    """插入阶段 / 跟步, 燃玉: a poll finds the instant actions it offers (a rush, burning invested
    jade) with their keys and makes a response only when its option is read (a random bot reads
    the one it pushes): the games are the same, and fewer responses are made than offered, each
    with the key it was offered with."""
    fast = _logs({"interrupts": True})
    real, offered, made = interrupt_phase._instant_actions, [], []

    def recording(key, make, **kw):
        response = make(**kw)
        assert response.key == key
        made.append(key)
        return response

    def counting(*args):
        found = real(*args)
        offered.extend(key for key, _ in found)
        return [(key, partial(recording, key, make)) for key, make in found]

    monkeypatch.setattr(interrupt_phase, "_instant_actions", counting)
    assert _logs({"interrupts": True}) == fast
    assert any(key[0] == "rush" for key in offered)
    assert 0 < len(made) < len(offered)


def test_the_rushes_found_among_a_character_s_contacts_are_those_found_in_the_whole_scene(monkeypatch):
    """插入阶段 / 跟步: a poll looks for a responder's rushes among the opponents kept at contact
    distance of her (``_characters_and_contacts``), not the whole scene; at every poll of the seeded games
    they are the rushes (keys, in order) a pass over every combatant finds."""
    real, compared = interrupt_phase._instant_actions, []

    def scanning(ctx, unit, contacts, facts_of):
        found = real(ctx, unit, contacts, facts_of)
        scene = ctx.state
        everyone = [
            interrupt_phase._rush_key(scene, unit, enemy)
            for enemy in scene
            if not unit.prone
            and unit.engaged_by is None
            and enemy.side != unit.side
            and enemy.kind == "character"
            and enemy.fighting
            and enemy.id not in unit.rushing
            and scene.distance(unit.id, enemy.id) == 0
            and not (enemy.sheet.flies and not unit.sheet.flies)
        ]
        assert [key for key, _ in found if key[0] == "rush"] == everyone
        compared.append(bool(everyone))
        return found

    monkeypatch.setattr(interrupt_phase, "_instant_actions", scanning)
    _logs({"interrupts": True})
    assert any(compared) and not all(compared)


def test_an_offer_s_spells_take_the_item_numbers_reserved_for_them(monkeypatch):
    """插入阶段 / 瞬间法术: a poll reserves an item number for each spell response it offers, in
    order, and the responses of one spell (one per target) share what was found for it. Every
    response of every offer, made, takes its own number of those reserved, in the order offered,
    with the key it was offered with and a target of its own; reading them all changes no game."""
    fast = _logs({"interrupts": True})
    real, checked = interrupt_phase.offers, []

    def reading(ctx, timing, opening):
        offer = real(ctx, timing, opening)

        def read_all(side, point):
            before = ctx.state.next_item
            offered = offer(side, point)
            spells = [r for r in offered if "caster" in r.data]  # (instant actions take no number)
            assert [r.data["id"] for r in spells] == list(range(before + 1, ctx.state.next_item + 1))
            assert [r.key for r in offered] == list(getattr(offered, "keys", ()))
            by_spell = {}
            for r in spells:
                by_spell.setdefault((r.data["caster"], r.data["name"]), []).append(r.data["target"])
            assert all(len(set(targets)) == len(targets) for targets in by_spell.values())
            checked.extend(len(targets) for targets in by_spell.values())
            return offered

        return read_all

    monkeypatch.setattr(interrupt_phase, "offers", reading)
    assert _logs({"interrupts": True}) == fast
    assert max(checked) > 1  # spells with several targets


def _count_window_tests(monkeypatch) -> list:
    """The floors of every window test (``interrupt_phase._closes_at_once``) from now on."""
    real, tests = interrupt_phase._closes_at_once, []

    def counting(ctx, floor):
        tests.append(floor)
        return real(ctx, floor)

    monkeypatch.setattr(interrupt_phase, "_closes_at_once", counting)
    return tests


def test_a_turn_s_windows_after_one_that_closed_at_once_are_not_tested_again(monkeypatch):
    """插入阶段 / 阶段2: from before turn start to the standard action declared, a window that
    closes at once is followed by no rule that changes what anyone may answer (a group's turn
    start and turn responses that push or trigger aside), so the next windows are closed without
    the test (``quiet``); testing each window gives the same games, with more tests."""
    tests = _count_window_tests(monkeypatch)
    options = {"interrupts": True}
    fast, told = _logs(options), len(tests)
    # The games where a guard matters (found by dropping each guard over 150 seeds a scene): a
    # battle group's turn start frees the units it engaged, who may then rush (default 61 and
    # 103, battle 25 and 48); an action that keeps the standard action changes what anyone may
    # answer before "standard action declared" (default 93). Without either guard these differ.
    guarded = _logs_of(GUARDED, options)
    tests.clear()

    def untold(function):
        return lambda *args, quiet=False, **kw: function(*args, **kw)

    monkeypatch.setattr(combat_round, "open_windows", untold(interrupt_phase.open_windows))
    monkeypatch.setattr(combat_round, "turn_responses", untold(interrupt_phase.turn_responses))
    monkeypatch.setattr(combat_actions, "open_windows", untold(interrupt_phase.open_windows))
    assert _logs(options) == fast
    assert len(tests) > told
    assert _logs_of(GUARDED, options) == guarded


def test_a_turn_after_one_that_ended_quiet_in_the_same_round_starts_quiet(monkeypatch):
    """插入阶段 / 阶段2: between a turn whose end windows closed at once and the next turn's
    "before turn start" in the same round no rule changes what anyone may answer (the track
    gives the next tick; simultaneous actors are ordered), so that window closes without the
    test; testing it gives the same games, with more tests (and the skip does happen)."""
    tests = _count_window_tests(monkeypatch)
    options = {"interrupts": True}
    fast, told = _logs(options), len(tests)
    tests.clear()
    take_turn = combat_round.take_turn
    monkeypatch.setattr(
        combat_round, "take_turn", lambda ctx, uid, same_tick, *, quiet=False: take_turn(ctx, uid, same_tick)
    )
    assert _logs(options) == fast
    assert len(tests) > told


#: (scene, seed) of random games where the quiet windows' guards change the game
GUARDED = (("default", 61), ("default", 103), ("battle", 25), ("battle", 48), ("default", 93))


def _logs_of(games, options):
    ruleset = installed_rulesets()["mttt_rpg"]
    return [
        play_random_game(ruleset, scenario, seed=seed, options=options, check_invariants=False).log_text()
        for scenario, seed in games
    ]


def test_the_stack_s_mana_summed_once_per_stack_is_what_summing_it_again_gives(monkeypatch):
    """插入阶段 / 法术: a poll reads the mana the stack already commits (a caster cannot spend
    it twice) from a sum kept while the same item lies on top at the same depth; at every poll
    with a non-empty stack that sum is the one worked out afresh from the stack."""
    real, summed = interrupt_phase._may_respond, interrupt_phase._committed_by_caster
    checked = []

    def checking(ctx, unit, facts, contacts, committed, counterable):
        if ctx.interrupts.items:
            assert committed == summed(ctx)
            checked.append(unit.id)
        return real(ctx, unit, facts, contacts, committed, counterable)

    monkeypatch.setattr(interrupt_phase, "_may_respond", checking)
    _logs({"interrupts": True})
    assert len(checked) > 100


def test_what_the_cheap_tests_keep_is_what_finding_it_afresh_gives(monkeypatch):
    """插入阶段 / 跟步: each sheet's facts (what the cheap tests read: its instant spells and
    their least costs) are kept by sheet key for the scene, and whom each character could rush
    (a rush needs an opponent at contact distance) while no range band changes; at every test
    of every poll they are what finding them afresh gives."""
    real, find, checked = interrupt_phase._may_respond, interrupt_phase._contacts, []

    def checking(ctx, unit, facts, contacts, committed, counterable):
        assert facts is interrupt_phase._facts(unit.sheet)
        assert contacts == find(ctx.state)
        checked.append(unit.id)
        return real(ctx, unit, facts, contacts, committed, counterable)

    monkeypatch.setattr(interrupt_phase, "_may_respond", checking)
    _logs({"interrupts": True})
    assert len(set(checked)) > 4  # every scene's characters


def test_whom_each_character_could_rush_is_found_again_when_a_band_changes(make):
    """跟步: a rush is offered only against an opponent at contact distance. No rule moves
    anyone inside a window today, but whom each character could rush, kept from one timing
    point to the next, would offer no rush after a move into contact: it is found again when a
    range band has changed."""
    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("sayo", "foes"), band=1), [])
    for unit in (h.unit("akari"), h.unit("sayo")):
        unit.order_mp = unit.distortion_mp = 0  # no spells: only the rush to offer
    offer = interrupt_phase.offers(h, interrupt_phase.Timing("turn start"), "turn start")

    def offered(timing):
        return list(getattr(offer("heroes", TimingPoint(timing, None, 0)), "keys", ()))

    rush = ("rush", h.state.round, "akari", "sayo")
    assert offered("turn start") == []
    h.state.set_distance("akari", "sayo", 0)
    assert offered("resolution of one") == [rush]
    h.state.set_distance("akari", "sayo", 1)
    assert offered("resolution of two") == []


def test_what_the_cheap_tests_keep_of_a_scene_is_kept_for_that_scene_only(make):
    """插入阶段 / 跟步: whom each character could rush is kept from one timing point to the next
    while the range bands stay the same, and each sheet's facts by its key, but only
    for that scene: another scene (another game, a fork, a restart) finds its own, even with
    the same bands between characters of the same ids."""
    def scene(sayo_side):
        units = (make.unit_entry("akari", "heroes"), make.unit_entry("sayo", sayo_side), make.unit_entry("mio", "foes"))
        return make(make.scenario(*units, band=0), []).state

    one, other = scene("foes"), scene("heroes")
    assert one.distances == other.distances
    assert interrupt_phase._characters_and_contacts(one)[1] == {"akari": ("sayo", "mio"), "sayo": ("akari",), "mio": ("akari",)}
    assert interrupt_phase._characters_and_contacts(one)[1] is interrupt_phase._characters_and_contacts(one)[1]
    assert interrupt_phase._characters_and_contacts(other)[1] == {"akari": ("mio",), "sayo": ("mio",), "mio": ("akari", "sayo")}
    sheets = library().characters
    assert interrupt_phase._sheet_facts(one)["sayo"].sheet is sheets["sayo"]


def _contacts_kept_and_found(scene):
    return interrupt_phase._characters_and_contacts(scene)[1], interrupt_phase._contacts(scene)


def test_whom_each_character_could_rush_is_found_again_when_a_side_changes(make):
    """跟步: a rush is against an opponent, so whom each character could rush depends on the
    sides as well as the range bands: a character changing sides (a state edit) with every band
    the same is found again."""
    units = (make.unit_entry("akari", "heroes"), make.unit_entry("sayo", "heroes"), make.unit_entry("mio", "foes"))
    scene = make(make.scenario(*units, band=0), []).state
    interrupt_phase._characters_and_contacts(scene)[1]
    scene.unit("sayo").side = "foes"
    kept, found = _contacts_kept_and_found(scene)
    assert kept == found == {"akari": ("sayo", "mio"), "sayo": ("akari",), "mio": ("akari",)}


def test_whom_each_character_could_rush_is_found_again_when_a_combatant_comes_or_goes(make):
    """跟步: whom each character could rush is found again when a combatant joins the scene with
    her range bands already in the table, or leaves it (a state edit), every band the same."""
    units = (make.unit_entry("akari", "heroes"), make.unit_entry("sayo", "foes"), make.unit_entry("mio", "foes"))
    scene = make(make.scenario(*units, band=0), []).state
    mio = scene.combatants.pop("mio")
    assert _contacts_kept_and_found(scene)[0] == {"akari": ("sayo",), "sayo": ("akari",)}
    scene.combatants["mio"] = mio  # her bands were never removed
    kept, found = _contacts_kept_and_found(scene)
    assert kept == found == {"akari": ("sayo", "mio"), "sayo": ("akari",), "mio": ("akari",)}
    del scene.combatants["sayo"]
    kept, found = _contacts_kept_and_found(scene)
    assert kept == found == {"akari": ("mio",), "mio": ("akari",)}


def test_whom_each_character_could_rush_is_found_again_when_another_takes_a_character_s_place(make):
    """跟步: whom each character could rush is kept by the fighting characters' ids as well as
    their sides: one out of the fight (helpless) while another of her side comes back into it in
    her place in the order, the sides the same, is found again from the newcomer's bands."""
    units = (make.unit_entry("akari", "heroes"), make.unit_entry("sayo", "foes"), make.unit_entry("mio", "foes"))
    scene = make(make.scenario(*units, band=0), []).state
    scene.set_distance("akari", "mio", 2)
    scene.unit("mio").status = "helpless"
    assert _contacts_kept_and_found(scene)[0] == {"akari": ("sayo",), "sayo": ("akari",)}
    scene.unit("sayo").status, scene.unit("mio").status = "helpless", "active"  # [akari, mio]: sides as before
    kept, found = _contacts_kept_and_found(scene)
    assert kept == found == {}


def test_whom_each_character_could_rush_is_found_again_when_a_character_comes_back_to_the_fight(make):
    """跟步: whom each character could rush is kept from the fighting characters alone, so a
    character back in the fight (revived from helpless: a heal, or a state edit) with every band
    the same is found again, and one out of it is dropped."""
    units = (make.unit_entry("akari", "heroes"), make.unit_entry("sayo", "foes"))
    scene = make(make.scenario(*units, band=0), []).state
    scene.unit("sayo").status = "helpless"
    assert _contacts_kept_and_found(scene) == ({}, {})
    scene.unit("sayo").status = "active"
    kept, found = _contacts_kept_and_found(scene)
    assert kept == found == {"akari": ("sayo",), "sayo": ("akari",)}
    scene.unit("akari").status = "helpless"
    assert _contacts_kept_and_found(scene) == ({}, {})


@pytest.mark.parametrize(
    "sides",
    [("heroes", "foes", "foes"), ("heroes", "heroes", "foes"), ("heroes", "foes", "heroes"), ("heroes",) * 3],
)
def test_whom_each_character_could_rush_is_found_again_when_any_opposing_pair_s_band_changes(make, sides):
    """跟步: whom each character could rush is kept while the range band of each pair of
    fighting characters on opposing sides stays the same (the only bands it is found from, read
    at once): every such pair moved into contact and out again, with two, one or no such pairs,
    is found again, and a band between allies changes nothing."""
    ids = ("akari", "sayo", "mio")
    scene = make(make.scenario(*map(make.unit_entry, ids, ("heroes", "foes", "foes")), band=1), []).state
    for unit_id, side in zip(ids, sides, strict=True):
        scene.unit(unit_id).side = side  # (a state edit: a scene is loaded with both sides)
    seen, previous = [], interrupt_phase._characters_and_contacts(scene)[1]
    for index, a in enumerate(ids):
        for b in ids[index + 1 :]:
            for band in (0, 1):
                scene.set_distance(a, b, band)
                kept, found = _contacts_kept_and_found(scene)
                assert kept == found
                seen.append(bool(found))
                if scene.unit(a).side == scene.unit(b).side:
                    assert kept is previous  # an allies' band is not read: still the record kept
                previous = kept
    # each opposing pair in contact once, alone
    assert seen.count(True) == sum(sides[i] != sides[j] for i in range(3) for j in range(i + 1, 3))


def test_a_character_given_another_sheet_is_tested_with_that_sheet(make):
    """插入阶段: the cheap tests read each sheet's facts by the sheet's key, not by the
    character's: a character given another sheet (a state edit) after the facts were read is
    tested with the new sheet's instant spells (瞬间法术). Akari's distortion mana pays for
    nothing of hers, but pays for the Witch's Thorn Wall."""
    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("witch", "foes"), band=3), [])
    akari, witch = h.unit("akari"), h.unit("witch")
    akari.order_mp, akari.distortion_mp = 0, 3
    witch.order_mp = witch.distortion_mp = 0
    assert interrupt_phase._nobody_responds(h)
    akari.sheet_key = "witch"
    assert not interrupt_phase._nobody_responds(h)


def test_the_odds_in_an_attacks_label_are_worked_out_only_when_the_attack_is_read(make, monkeypatch):
    """战斗行动 / 攻击: an attack's label shows its odds against passive defense; the menu holds the
    attack as its key and makes it, its odds with it, only when it is read (the chosen one, when
    the game logs it), and the text is the one the menu always showed."""
    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("witch", "foes"), band=0), [])
    akari, witch = h.unit("akari"), h.unit("witch")
    akari.initiative = 10  # not in crash: decisive attacks are open
    made = []
    odds_label = combat_actions._odds_label
    monkeypatch.setattr(
        combat_actions, "_odds_label", lambda *args, **kw: made.append(args[3]) or odds_label(*args, **kw)
    )
    menu = combat_actions.LazyOptions(
        combat_actions._menu(h, akari), combat_actions._action_label, combat_actions._action_data,
        make=combat_actions._made_action,
    )
    attacks = [i for i, entry in enumerate(menu._values) if type(entry) is tuple and entry[0] is combat_actions._attack_action]
    assert [menu._values[i][4] for i in attacks] == ["withering", "decisive"] and made == []
    weapon = akari.ready_weapon.name
    decisive = odds_label(h.state, akari, witch, "decisive", None)
    assert menu[attacks[1]].label == f"decisive attack on Witch of Thorns with {weapon} ({decisive})"
    assert made == ["decisive"]  # the withering attack's odds were never needed
    assert re.fullmatch(r"\d+% vs passive defense, \d+ HP on a hit", decisive)


def test_the_menus_share_equal_actions_and_play_as_actions_made_afresh(make, monkeypatch):
    """战斗行动: an action with its label made is a frozen value, made once and shared by every
    menu that offers it (``combat_actions._action``; a move found by what its label reads,
    ``_move_action``); an attack, whose label holds its odds (read from the scene), is made
    afresh for its menu. Games played with every action made afresh are the same."""
    shared = combat_actions._action("move", "kyo", delta=-1, label="move toward Kyo (to band 1)")
    assert shared == combat_actions.Action("move", "kyo", delta=-1) and shared.label == "move toward Kyo (to band 1)"
    assert combat_actions._action("move", "kyo", delta=-1, label="move toward Kyo (to band 1)") is shared
    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("witch", "foes"), band=0), [])
    akari = h.unit("akari")
    akari.initiative = 10
    first = legal_actions(h, akari)
    moves = sum(a.kind == "move" for a in first)
    # the same menu again finds every move in the memo (_move_action): its body, which makes the
    # label and finds the action (_action) by it, does not run
    made = []
    action = combat_actions._action
    monkeypatch.setattr(combat_actions, "_action", lambda *args, **kw: made.append(args[0]) or action(*args, **kw))
    hits = combat_actions._move_action.cache_info().hits
    again = legal_actions(h, akari)
    assert moves and "move" not in made
    assert combat_actions._move_action.cache_info().hits == hits + moves
    monkeypatch.setattr(combat_actions, "_action", action)
    assert first == again
    assert [a is b for a, b in zip(first, again, strict=True) if a.kind == "attack"] == [False, False]
    assert all(a is b for a, b in zip(first, again, strict=True) if a.kind != "attack")
    # a move is found by what its label reads (_move_action), and is the shared action
    move = combat_actions._move_action("kyo", "Kyo", -1, 1)
    assert move is shared and combat_actions._move_action("kyo", "Kyo", -1, 1) is move
    assert combat_actions._move_action("kyo", "Kyo", 1, 3).label == "move away from Kyo (to band 3)"
    fast = _logs()
    monkeypatch.setattr(combat_actions, "_action", combat_actions._fresh_action)
    monkeypatch.setattr(combat_actions, "_move_action", combat_actions._move_action.__wrapped__)
    assert _logs() == fast


def test_the_action_menu_made_from_keys_is_the_menu_of_every_legal_action(monkeypatch):
    """战斗行动: the active step's lazy menu holds most actions as keys (``combat_actions._menu``),
    each made into its action only when read (a random bot reads the one it picks). At every
    menu of the seeded games the menu, every option made, is the eager one built from the
    actions (``legal_actions``); some actions, but fewer than a quarter of all the menus'
    entries (keys and actions together), are made from keys; and games whose menus hold every
    action made are the same."""
    real, made_action = combat_actions._menu, combat_actions._made_action
    menus, keys = [], []

    def comparing(ctx, unit):
        entries = real(ctx, unit)
        menu = combat_actions.LazyOptions(
            entries, combat_actions._action_label, combat_actions._action_data, make=made_action
        )
        # legal_actions' list: every entry of a second menu from the real _menu, made (legal_actions
        # itself would call this patched _menu)
        actions = [made_action(entry) for entry in real(ctx, unit)]
        assert menu == tuple(Option(a, a.text, data=a.data) for a in actions)
        assert [o.value for o in menu] == actions and [o.label for o in menu] == [a.text for a in actions]
        menus.append(len(entries))
        return entries

    monkeypatch.setattr(combat_actions, "_menu", comparing)
    fast = _logs(seeds=range(4))
    assert menus
    monkeypatch.setattr(combat_actions, "_menu", real)

    def counting(entry):
        if type(entry) is not combat_actions.Action:
            keys.append(entry)
        return made_action(entry)

    monkeypatch.setattr(combat_actions, "_made_action", counting)
    assert _logs(seeds=range(4)) == fast
    assert 0 < len(keys) < sum(menus) / 4
    monkeypatch.setattr(combat_actions, "_menu", lambda ctx, unit: [made_action(e) for e in real(ctx, unit)])
    assert _logs(seeds=range(4)) == fast


def test_a_timing_point_s_offers_are_found_afresh_at_the_next_resolution_point(make):
    """插入阶段: instants may be cast at any timing point "只要法术力支持、施法条件支持", and "在此结算
    时点上" (at each resolution point) more may be pushed; HP 0 makes a character helpless (无助),
    and 跟步 (a rush, an instant action) is only against an opponent in contact distance. What a
    poll keeps for its timing point's later polls (the fighting characters, the spells' targets,
    the instant actions) is found afresh at the next point: after Akari's Counter-Shot resolves
    and fells Sayo, Sayo is offered nothing at its resolution point, though she has the mana for
    Second Wind, and Akari is no longer offered a rush after her."""
    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("sayo", "foes"), band=0), [])
    akari, sayo = h.unit("akari"), h.unit("sayo")
    akari.order_cap = akari.order_mp = 4
    akari.distortion_cap = akari.distortion_mp = 0
    sayo.order_cap = sayo.order_mp = 3  # Second Wind, even with Counter-Shot resolved
    sayo.distortion_cap = sayo.distortion_mp = 3  # Severing Charm
    sayo.initiative, sayo.hp = 0, 2  # crashed: a withering blast of 2 takes her last 2 HP
    window = open_window(h, "attack declared", active="sayo", trigger="attacked", subject="akari", source="sayo")
    asked = []
    try:
        decision = next(window)
        while True:
            asked.append((decision.prompt.rsplit(": ", 1)[0], [o.label.split(" (")[0] for o in decision.options]))
            if isinstance(decision, ChooseSubset):  # Akari answers the attack with Counter-Shot
                decision = window.send(tuple(o.value for o in decision.options))
            else:  # and everyone passes at every poll
                decision = window.send(next(o.value for o in decision.options if o.label == "pass"))
    except StopIteration:
        pass
    point = "attack declared [Sayo -> Akari]"
    assert asked == [
        (point, ["Akari: Counter-Shot on Sayo"]),
        (point, ["pass", "Sayo: Severing Charm", "Sayo: Second Wind on Sayo", "Sayo: rush Akari"]),
        (point, ["pass", "Akari: Ribbon Shield on Akari", "Akari: rush Sayo"]),
        # Sayo fell: she is not polled (helpless), and Akari has nobody to rush
        (
            "resolution of Akari: Counter-Shot on Sayo (withering blast 2, 1 order MP)",
            ["pass", "Akari: Ribbon Shield on Akari"],
        ),
    ]
    assert sayo.status == "helpless" and sayo.order_mp == 3 and akari.order_mp == 3


def test_what_the_cheap_tests_keep_of_a_sheet_is_that_sheet_s():
    """插入阶段: the cheap tests read a sheet's instant spells (瞬间法术), the least mana that pays
    for one in each pool (counterspells apart, then with them) and the conditions its optional
    triggered effects (战时触发效果) answer from what is kept per sheet (``_facts``); a sheet
    that is not the one kept (another sheet, or one built anew) gets its own."""
    sayo = library().characters["sayo"]
    facts = interrupt_phase._facts(sayo)
    assert interrupt_phase._facts(sayo) is facts
    assert [s.name for s in facts.instant_spells] == [s.name for s in sayo.spells if s.timing == "instant"]
    assert (facts.order, facts.distortion, facts.order_any, facts.distortion_any) == (3, inf, 3, 3)
    cheaper = attrs.evolve(sayo, spells=tuple(attrs.evolve(s, cost=1) for s in sayo.spells))
    assert (interrupt_phase._facts(cheaper).order, interrupt_phase._facts(cheaper).distortion_any) == (1, 1)
    assert interrupt_phase._facts(sayo) is not interrupt_phase._facts(cheaper)
    akari = interrupt_phase._facts(library().characters["akari"])
    assert akari.answers == {"attacked"} and akari.distortion == inf


def _instant_actions_as_the_rule_says(scene, unit):
    """跟步, 燃玉: the keys of ``unit``'s instant actions, stated plainly from each character's own
    sheet: a rush after each fighting opponent at contact distance not yet rushed, unless the
    opponent flies and ``unit`` does not; burning each invested item not yet converted, in a
    boss fight once ignited."""
    out = []
    if not unit.prone and unit.engaged_by is None:
        for enemy in scene:
            if (
                enemy.side != unit.side
                and enemy.kind == "character"
                and enemy.fighting
                and enemy.id not in unit.rushing
                and scene.distance(unit.id, enemy.id) == 0
                and not (enemy.sheet.flies and not unit.sheet.flies)
            ):
                out.append(("rush", scene.round, unit.id, enemy.id))
    if scene.boss_fight and unit.ignited:
        out += [("convert", unit.id, i.name) for i in unit.sheet.invested if i.name not in unit.converted]
    return out


@pytest.mark.parametrize("boss_fight", [True, False])
def test_a_responder_s_instant_actions_read_from_the_kept_sheets_are_the_rule_s(make, monkeypatch, boss_fight):
    """跟步, 燃玉: a poll finds a responder's instant actions reading the sheets from what is kept
    per sheet (``_instant_actions`` with the scene's facts), not ``Combatant.sheet``: for Akari
    and Sayo in contact, each responding, with either, both or neither flying, ignited or not,
    with or without her invested item converted, they are the rule's."""
    sheets = library().characters
    plain = {key: sheets[key] for key in ("akari", "sayo")}
    for akari_flies, sayo_flies, ignited, converted in itertools.product((False, True), repeat=4):
        monkeypatch.setitem(sheets, "akari", attrs.evolve(plain["akari"], flies=akari_flies))
        monkeypatch.setitem(sheets, "sayo", attrs.evolve(plain["sayo"], flies=sayo_flies))
        h = make(
            make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("sayo", "foes"), boss_fight=boss_fight),
            [],
        )
        facts_of = interrupt_phase._sheet_facts(h.state)
        for unit, other in ((h.unit("akari"), "sayo"), (h.unit("sayo"), "akari")):
            unit.ignited = ignited
            unit.converted = [i.name for i in unit.sheet.invested] if converted else []
            found = [key for key, _ in interrupt_phase._instant_actions(h, unit, (other,), facts_of)]
            assert found == _instant_actions_as_the_rule_says(h.state, unit)
            assert any(key[0] == "convert" for key in found) is (boss_fight and ignited and not converted)


def test_the_turn_responses_kept_of_a_sheet_are_its_mandatory_turn_start_triggers_in_order():
    """轮响应: a turn pushes the acting character's mandatory turn-start triggered effects, read
    from what is kept per sheet (``_facts``); for every bundled sheet, and for one mixing
    mandatory and optional effects on turn start and on other conditions, they are the sheet's
    triggers that are mandatory and on "turn_start", in its order."""

    def plainly(sheet):
        return [t for t in sheet.triggers if t.mandatory and t.on == "turn_start"]

    sheets = list(library().characters.values())
    assert any(plainly(sheet) for sheet in sheets)
    for sheet in sheets:
        assert list(interrupt_phase._facts(sheet).turn_responses) == plainly(sheet)
    heal = Effect(kind="heal", amount=1, target="self")
    first, optional, other, last = (
        Trigger("first", "turn_start", heal, mandatory=True),
        Trigger("optional", "turn_start", heal),
        Trigger("other", "attacked", heal, mandatory=True),
        Trigger("last", "turn_start", heal, mandatory=True),
    )
    mixed = attrs.evolve(sheets[0], triggers=(first, optional, other, last))
    assert list(interrupt_phase._facts(mixed).turn_responses) == plainly(mixed) == [first, last]


def test_each_response_of_a_lazy_offer_is_its_spell_s_on_its_own_target_with_its_own_marks(make):
    """瞬间法术 / 插入阶段: a lazy offer keeps one record per spell for all its responses, one per
    target, and makes each response when read: response n of a spell is on the spell's nth
    target (in the order its target finder gives) and carries that target's marks. A heal on
    an unhurt ally is marked unplayable ("<name> is unhurt"), a heal on a hurt one is not,
    whatever the spell's first target is. Mio, given an instant heal (no bundled sheet has one),
    answers the Witch's attack on Akari with it and with Guardian Light (a non-heal on every
    ally in range): Akari is hurt, Kyo and Mio are not."""
    mending = Spell("Mending Touch", Effect("heal", amount=2, target="ally", range=2), pool="order", cost=2)
    units = ("mio", "heroes"), ("akari", "heroes"), ("kyo", "heroes"), ("witch", "foes")
    h = make(make.scenario(*(make.unit_entry(uid, side) for uid, side in units), band=1), [])
    mio = library().characters["mio"]
    healing_mio = attrs.evolve(mio, spells=(*mio.spells, mending))
    interrupt_phase._sheet_facts(h.state)["mio"] = interrupt_phase._facts(healing_mio)
    healer = h.unit("mio")
    healer.order_mp, healer.distortion_mp = 4, 0
    for uid in ("akari", "kyo"):
        h.unit(uid).order_mp = h.unit(uid).distortion_mp = 0  # only Mio responds
    h.unit("akari").hp -= 2
    timing = interrupt_phase.Timing("attack declared", active="witch", subject="akari", source="witch")
    offer = interrupt_phase.offers(h, timing, "attack declared")("heroes", TimingPoint("attack declared", None, 0))

    by_spell: dict[str, list] = {}
    for response in offer:
        by_spell.setdefault(response.data["name"], []).append(response.data)
    assert list(by_spell) == ["Guardian Light", "Mending Touch"]
    guardian = next(s for s in mio.spells if s.name == "Guardian Light")
    for name, spell in (("Guardian Light", guardian), ("Mending Touch", mending)):
        targets = [u.id for u in interrupt_phase._targets(h.state, healer, spell.effect, None)]
        assert [data["target"] for data in by_spell[name]] == targets
    assert [data["target"] for data in by_spell["Mending Touch"]] == ["mio", "akari", "kyo"]
    marks = [(data.get("playable"), data.get("why")) for data in by_spell["Mending Touch"]]
    assert marks == [(False, "Mio is unhurt"), (None, None), (False, "Kyo is unhurt")]
    assert all("playable" not in data for data in by_spell["Guardian Light"])  # the point calls for an answer


def test_at_a_quiet_point_every_response_is_marked_quiet_but_a_heal_on_an_unhurt_target(make):
    """插入阶段: at a point that calls for no answer of the side polled (her own character's
    turn start), every response offered to her is marked unplayable with why the point is
    quiet (``_quiet``), spells and instant actions (跟步, a rush) alike, but a heal on an unhurt
    target, marked with that. Each response is the caster's, on its own target, with its own
    name and key. Mio, given an instant heal, is the only one with mana; Akari is hurt."""
    mending = Spell("Mending Touch", Effect("heal", amount=2, target="ally", range=2), pool="order", cost=2)
    units = ("mio", "heroes"), ("akari", "heroes"), ("kyo", "heroes"), ("witch", "foes")
    h = make(make.scenario(*(make.unit_entry(uid, side) for uid, side in units), band=0), [])
    mio = library().characters["mio"]
    interrupt_phase._sheet_facts(h.state)["mio"] = interrupt_phase._facts(
        attrs.evolve(mio, spells=(*mio.spells, mending))
    )
    h.unit("mio").order_mp, h.unit("mio").distortion_mp = 4, 0
    for uid in ("akari", "kyo"):
        h.unit(uid).order_mp = h.unit(uid).distortion_mp = 0
    h.unit("akari").hp -= 2
    timing = interrupt_phase.Timing("turn start", active="akari")
    offer = interrupt_phase.offers(h, timing, "turn start")("heroes", TimingPoint("turn start", None, 0))

    quiet = (False, "nothing to answer at turn start")
    heals = [r for r in offer if r.data.get("name") == "Mending Touch"]
    names, items = ("Mio", "Akari", "Kyo"), ((4, "mio"), (5, "akari"), (6, "kyo"))
    assert [r.name for r in heals] == [f"Mio: Mending Touch on {name} (heal 2, 2 order MP)" for name in names]
    assert [(r.data["id"], r.data["target"], r.key) for r in heals] == [(n, uid, None) for n, uid in items]
    marks = [(r.data["playable"], r.data["why"]) for r in heals]
    assert marks == [(False, "Mio is unhurt"), quiet, (False, "Kyo is unhurt")]
    others = [r for r in offer if r.data.get("name") != "Mending Touch"]
    rushes = [("rush", 1, uid, "witch") for uid in ("mio", "akari", "kyo")]
    assert [r.key for r in others if r.key is not None] == rushes
    assert len(others) == 6  # Guardian Light on each of the three, and three rushes
    assert all((r.data["playable"], r.data["why"]) == quiet for r in others)
    assert {r.controller for r in offer} == {"heroes"}


@pytest.mark.parametrize("first", ["foes", "heroes"])
def test_a_band_edited_between_two_polls_of_one_point_offers_no_rush_out_of_contact(make, first):
    """跟步 (a rush) needs contact distance. The state may be edited directly while a poll's
    decision is pending (the design's rule): the next poll at the same timing point, of the
    other side or of the same one (as after a push), reads the bands again, and Akari, no longer
    in contact with Sayo, is offered no rush after her (what the point's first poll found is not
    kept past a decision)."""
    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("sayo", "foes"), band=0), [])
    for unit in (h.unit("akari"), h.unit("sayo")):
        unit.order_mp = unit.distortion_mp = 0  # no spells: only the rushes to offer
    offer = interrupt_phase.offers(h, interrupt_phase.Timing("turn start"), "turn start")
    point = TimingPoint("turn start", None, 0)
    rush = ("rush", h.state.round, "akari", "sayo")
    offered = list(getattr(offer(first, point), "keys", ()))
    assert offered  # a decision follows (the core asks one only of a poll that offers something)
    h.state.set_distance("akari", "sayo", 1)  # edited while that decision is pending
    assert rush not in list(getattr(offer("heroes", point), "keys", ()))


def test_the_pair_keys_kept_per_id_are_the_keys_pair_builds(make):
    """距离: a range band is read from the distance table by its pair's key (``ranges.pair``,
    the ids in order); the keys kept per id (``ranges.pair_keys``: a poll's spell targets, a
    menu's bands, ``Scene.distance``) are those keys whichever id comes first, are kept, and
    read the bands a state edit set."""
    from wargamekit_mttt_rpg import ranges

    ids = ("witch", "akari", "mio", "Akari", "akari2")
    for a in ids:
        for b in ids:
            if a != b:
                assert ranges.pair_keys(a)[b] == ranges.pair(a, b) == ranges.pair(b, a)
    assert ranges.pair_keys("witch") is ranges.pair_keys("witch")
    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("witch", "foes"), band=2), [])
    h.state.distances[ranges.pair("witch", "akari")] = 0  # a direct edit of the table
    assert h.state.distance("witch", "akari") == h.state.distance("akari", "witch") == 0
    assert combat_actions._bands(h.state, h.unit("witch")) == {"akari": 0, "witch": 0}


def test_the_pair_keys_memo_starts_again_past_its_ids(monkeypatch):
    """``ranges.pair_keys`` keeps the keys of at most ``_IDS_KEPT`` ids (a generator of scenes
    makes ids up by the thousand): past them it starts again, and the keys read after are
    still :func:`ranges.pair`'s."""
    from wargamekit_mttt_rpg import ranges

    monkeypatch.setattr(ranges, "_PAIR_KEYS", {})
    monkeypatch.setattr(ranges, "_IDS_KEPT", 4)
    ids = [f"u{n}" for n in range(11)]
    for a in ids:
        for b in ids:
            if a != b:
                assert ranges.pair_keys(a)[b] == ranges.pair(a, b)
                assert 1 <= len(ranges._PAIR_KEYS) <= 4
    assert list(ranges._PAIR_KEYS) == ids[8:]  # kept since the last start: 8 ids, 3 more


def test_the_pair_keys_kept_for_one_id_start_again_past_their_limit(monkeypatch):
    """One id read against ids made up by the thousand keeps at most ``_KEYS_PER_ID_KEPT``
    keys (``ranges.pair_keys``' dict of it starts again past them), still :func:`ranges.pair`'s."""
    from wargamekit_mttt_rpg import ranges

    monkeypatch.setattr(ranges, "_PAIR_KEYS", {})
    monkeypatch.setattr(ranges, "_KEYS_PER_ID_KEPT", 4)
    keys = ranges.pair_keys("witch")
    others = [f"u{n}" for n in range(11)]
    for b in others:
        assert keys[b] == ranges.pair("witch", b) and 1 <= len(keys) <= 4
    assert list(keys) == others[8:] and ranges.pair_keys("witch") is keys


def _lockstep_menus(scenario, seed, edit):
    """The wait and move labels of every action menu of two games of one seed played in
    lockstep (a random bot answers game A; game B gets the same answer): game A's read as soon
    as the menu is offered, game B's read after ``edit(scene, unit)`` changed its live scene
    (``edit`` undoes itself when resumed, after the read); and whether the two logs are the same."""
    a, b = Game.new(MtttRpg(), scenario, seed=seed), Game.new(MtttRpg(), scenario, seed=seed)
    bots = {side: RandomBot(bot_seed(seed, i)) for i, side in enumerate(MtttRpg.sides)}
    pairs = []
    for _ in range(3000):
        pending = a.pending
        if pending is None:
            break
        if pending.kind == kinds.ACTION:
            first = [o.label for o in pending.options]
            undo = edit(b.state, b.state.unit(b.pending.context["unit"]))
            next(undo)
            second = [o.label for o in b.pending.options]
            next(undo, None)
            pairs.append(([x for x in first if x.startswith(("wait", "move "))],
                          [x for x in second if x.startswith(("wait", "move "))]))
        answer = bots[pending.side].choose(pending, None)
        a.answer(answer)
        b.answer(answer)
    return pairs, b.log_text() == a.log_text()


def _more_waits(scene, unit):
    unit.consecutive_waits += 3
    yield
    unit.consecutive_waits -= 3


def _other_bands(scene, unit):
    was = dict(scene.distances)
    for key, band in was.items():
        scene.distances[key] = band + 1 if band < 2 else band - 1
    yield
    scene.distances.update(was)


@pytest.mark.parametrize("edit", [_more_waits, _other_bands])
def test_an_action_menu_s_labels_are_made_as_offered_not_as_read(edit):
    """战斗行动 / the lazy-label contract (``LazyOptions``; design.md "Decisions"): an action
    menu's labels say what was offered, though most actions are kept as keys and made only when
    read (``combat_actions._menu``). Two games of one seed in lockstep: at each action menu game
    A reads its labels at once; game B first edits the live scene (the unit's waits in a row
    three more, or every range band moved by one), reads, and undoes the edit. The wait and
    move labels are the same (the attacks' odds are left out: an attack, made when read, reads
    its odds from the scene then, so the band edit changes the odds the log writes of an attack chosen: the
    games' logs are compared after the waits' edit only)."""
    menus = 0
    for scenario in SCENARIOS:
        for seed in range(3):
            pairs, same_log = _lockstep_menus(scenario, seed, edit)
            for first, second in pairs:
                assert second == first
                menus += bool(first)
            assert same_log or edit is _other_bands
    assert menus > 20


def _fizzles_as_the_rule_says(ctx, item_id, caster_id, target_id, effect, pool, cost, countering):
    """插入阶段: why a stack item fizzles as it resolves (its legality checked again), stated
    plainly: countered; its caster no longer fighting or short of the mana; its target no longer
    fighting (a heal's: neither fighting nor helpless) or out of range; what it counters gone."""
    scene = ctx.state
    caster = scene.unit(caster_id)
    if item_id in scene.countered:
        return "countered"
    if not caster.fighting:
        return f"{caster.name} can no longer act"
    if interrupt_phase._mana(caster, pool) < cost:
        return f"{caster.name} lacks the mana"
    if target_id is not None:
        target = scene.unit(target_id)
        if not (target.fighting or (effect.kind == "heal" and target.status == "helpless")):
            return f"{target.name} is no longer a legal target"
        if scene.distance(caster_id, target_id) > effect.range:
            return f"{target.name} is out of range"
    if countering is not None and not any(
        isinstance(i.data, dict) and i.data.get("id") == countering for i in ctx.interrupts.items
    ):
        return "the countered item is gone"
    return None


STATUSES = ("active", "helpless", "withdrawn", "routed", "gone", "absent")


def test_an_item_fizzles_exactly_when_the_rule_says(monkeypatch):
    """插入阶段: an item's legality, checked again as it resolves, read from slots and the
    distance table (``_item_fizzles``), is the rule stated plainly at every check of the seeded
    games, and with the check's target and caster put in every status, its caster's mana one
    short, and the band between them at the spell's range and one past it."""
    real, reasons = interrupt_phase._item_fizzles, []

    def both(ctx, item_id, caster_id, target_id, effect, pool, cost, countering):
        args = ctx, item_id, caster_id, target_id, effect, pool, cost, countering

        def check():
            reasons.append(real(*args))
            assert reasons[-1] == _fizzles_as_the_rule_says(*args)

        check()
        scene = ctx.state
        for uid in {caster_id, target_id} - {None}:
            unit, status = scene.unit(uid), scene.unit(uid).status
            for unit.status in STATUSES:
                check()
            unit.status = status
        caster = scene.unit(caster_id)
        field = "order_mp" if pool == "order" else "distortion_mp"
        mana = getattr(caster, field)
        setattr(caster, field, cost - 1)
        check()
        setattr(caster, field, mana)
        if target_id is not None and target_id != caster_id:
            key = interrupt_phase.pair_keys(caster_id)[target_id]
            band = scene.distances[key]
            for scene.distances[key] in (effect.range, effect.range + 1):
                check()
            scene.distances[key] = band
        return real(*args)

    monkeypatch.setattr(interrupt_phase, "_item_fizzles", both)
    fast = _logs({"interrupts": True}, seeds=range(4))
    for why in ("can no longer act", "lacks the mana", "is no longer a legal target", "is out of range"):
        assert any(r is not None and r.endswith(why) for r in reasons), why
    assert None in reasons
    monkeypatch.undo()
    assert _logs({"interrupts": True}, seeds=range(4)) == fast


def test_only_a_fighting_unit_takes_a_turn_and_chooses_an_action(monkeypatch):
    """战斗行动: a unit takes its turn, and chooses actions, only while it fights (the turn and
    the active step read the status slot, not ``Combatant.fighting``): ``fighting`` is the
    status "active" alone, and in the seeded games every turn taken, every active step entered
    and every menu asked is a fighting unit's."""
    from wargamekit_mttt_rpg import state

    unit = Game.new(MtttRpg(), None, seed=0).state.unit("akari")
    for unit.status in (state.ACTIVE, state.HELPLESS, state.WITHDRAWN, state.ROUTED, state.GONE, state.ABSENT):
        assert unit.fighting is (unit.status == "active")
    turns, steps, menus = [], [], []
    take_turn, active_step, menu = combat_round.take_turn, combat_round.active_step, combat_actions._menu

    def turn(ctx, uid, *args, **kw):
        turns.append(ctx.state.unit(uid).fighting)
        return take_turn(ctx, uid, *args, **kw)

    def step(ctx, unit, *args, **kw):
        steps.append(unit.fighting)
        return active_step(ctx, unit, *args, **kw)

    def asked(ctx, unit):
        menus.append(unit.fighting)
        return menu(ctx, unit)

    monkeypatch.setattr(combat_round, "take_turn", turn)
    monkeypatch.setattr(combat_round, "active_step", step)
    monkeypatch.setattr(combat_actions, "_menu", asked)
    _logs({"interrupts": True})
    assert all(turns) and all(steps) and all(menus) and len(menus) > 1000


@pytest.mark.parametrize("status", ["helpless", "withdrawn", "routed", "gone", "absent"])
def test_a_unit_out_of_the_fight_does_nothing_at_its_turn_or_in_an_active_step(make, status):
    """战斗行动: a unit out of the fight (any status but active) at its turn does nothing past the
    turn's announcement: her "until her next turn" effects do not end, and she is asked no
    action; an active step entered while she is out of it asks nothing."""
    h = make(make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("sayo", "foes"), band=1), [],
             interrupts=False)
    akari = h.unit("akari")
    akari.guarding, akari.status = True, status
    assert h.run(combat_round.take_turn(h, "akari", [])) is False
    assert akari.guarding and h.asked == [] and [kind for kind, _, _ in h.log] == ["turn"]
    h.run(combat_actions.active_step(h, akari, []))
    assert h.asked == []


def test_the_hit_chance_kept_by_the_margin_is_the_chance_enumerated_of_the_whole_profiles(monkeypatch):
    """命中检定: the hit chance kept by the defense's mode and block and the margin (value less
    accuracy; ``attack._hit_chance``) is the chance enumerated of the hit check itself with the
    whole profiles, for every attack whose odds the seeded games' menus showed, against its
    defense in every mode and blocked, and over a sweep of accuracies and values past both ends
    of the d20."""
    from fractions import Fraction

    from wargamekit.odds import distribution
    from wargamekit_mttt_rpg import attack
    from wargamekit_mttt_rpg.attack import AttackProfile, DefenseProfile

    seen = []

    def recording(atk, dfn):
        seen.append((atk, dfn))
        return attack.hit_chance(atk, dfn)

    monkeypatch.setattr(combat_actions, "hit_chance", recording)
    _logs({"interrupts": True}, seeds=range(4))
    assert len(seen) > 20
    sweep = [
        (AttackProfile(accuracy=accuracy, dice=2, sides=10, damage_bonus=3, initiative=7), DefenseProfile("passive", value))
        for accuracy in (-3, 0, 5, 12)
        for value in range(-4, 36, 3)
    ]
    attack._hit_chance.cache_clear()
    checked = set()
    for atk, dfn in seen + sweep:
        for mode in ("passive", "parry", "dodge"):
            for blocked in (False, True):
                other = attrs.evolve(dfn, mode=mode, blocked=blocked)
                enumerated = distribution(attack._hit, atk, other).get(True, Fraction(0))
                assert attack.hit_chance(atk, other) == enumerated, (atk, other)
                checked.add(enumerated)
    assert {Fraction(0), Fraction(1)} < checked


def _pools_released_as_the_rule_says(scene):
    """阶段1 解放法力, stated plainly: the activation speed counts the long-river characters on
    the field (active, helpless, or a routed group's: ``present``); each character on the field
    unfolds both pools by it and refreshes her mana to the new caps; nobody else changes."""
    from wargamekit_mttt_rpg.resources import activation_speed, unfold_pool

    speed = activation_speed(sum(1 for u in scene if u.present and u.kind == "character" and u.sheet.long_river))
    out = {}
    for u in scene:
        if u.kind == "character" and u.present:
            order = unfold_pool(u.order_cap, u.sheet.order_pool, speed)
            distortion = unfold_pool(u.distortion_cap, u.sheet.distortion_pool, speed)
            out[u.id] = order, distortion, order, distortion
        else:
            out[u.id] = u.order_cap, u.distortion_cap, u.order_mp, u.distortion_mp
    return out


def test_each_round_s_mana_is_released_as_the_rule_says(monkeypatch):
    """阶段1 解放法力: the long-river count and each pool's unfolding (read from the status slot,
    the sheet once) are the rule stated plainly at every round of the seeded games, and with
    each character put in every status there."""
    import copy
    from types import SimpleNamespace

    real, speeds = combat_round.release_mana, []

    def pools(scene):
        return {u.id: (u.order_cap, u.distortion_cap, u.order_mp, u.distortion_mp) for u in scene}

    def checking(ctx):
        scene = ctx.state
        speeds.append(scene.long_river_count())
        for uid in [u.id for u in scene if u.kind == "character"]:
            for status in STATUSES:
                mixed = copy.deepcopy(scene)
                mixed.unit(uid).status = status
                expected = _pools_released_as_the_rule_says(mixed)
                real(SimpleNamespace(state=mixed, event=lambda *args, **kw: None))
                assert pools(mixed) == expected, (uid, status)
        expected = _pools_released_as_the_rule_says(scene)
        real(ctx)
        assert pools(scene) == expected

    monkeypatch.setattr(combat_round, "release_mana", checking)
    _logs({"interrupts": True}, seeds=range(2))
    assert len(speeds) > 10 and max(speeds) > 0


def _plain_menu_parts(scene, unit):
    """What the rules say of a unit's menu entries that ``_menu`` reads inline, stated plainly
    (the properties, ``any``): whether she may guard and disengage, which weapons she may ready,
    and whether she may make a decisive attack (a character in crash may not)."""
    character = unit.kind == "character"
    near = [a for a in scene.allies(unit) if a.id != unit.id]
    guard = character and any(scene.distance(unit.id, a.id) <= 1 for a in near)
    group_sheet = unit.group_sheet
    holds = group_sheet is not None and group_sheet.perfect_morale and unit.order_bonus == 0
    disengage = (
        not unit.prone
        and not holds
        and unit.engaged_by is None
        and any(scene.distance(unit.id, e.id) <= combat_actions.movement.SIGHT for e in scene.enemies(unit))
    )
    ready = [k for k in unit.sheet.weapons if k != unit.weapon] if character and not unit.readied_this_turn else []
    targets = combat_actions._attack_targets(scene, unit)
    decisive = character and not unit.trivial and not unit.crashed and any(t.status != "routed" for t in targets)
    # a standard spell: a character not in crash, with the mana, on a target in range
    spells = []
    if character and not unit.crashed:
        for spell in unit.sheet.spells:
            mana = unit.order_mp if spell.pool == "order" else unit.distortion_mp
            if spell.timing == "standard" and mana >= spell.cost:
                pool = {"self": [unit], "ally": scene.allies(unit)}.get(spell.effect.target, scene.enemies(unit))
                spells += [(spell.name, t.id) for t in pool if scene.distance(unit.id, t.id) <= spell.effect.range]
    return guard, disengage, ready, decisive, spells


def _menu_parts(entries):
    keyed = [e for e in entries if type(e) is tuple]
    return (
        entries.count(combat_actions._GUARD) == 1,
        entries.count(combat_actions._DISENGAGE) == 1,
        [e[1] for e in keyed if e[0] is combat_actions._ready_action],
        any(e[0] is combat_actions._attack_action and e[4] == "decisive" for e in keyed),
        [(e.name, e.target) for e in entries if type(e) is combat_actions.Action and e.kind == "spell"],
    )


def test_a_menu_s_guard_disengage_ready_and_decisive_entries_are_the_rule_s(monkeypatch):
    """战斗行动: the menu reads the unit's crash, sheet and group traits from slots and the library
    rather than the properties, and tests guard (an ally within 0-1) and disengage (an enemy in
    sight) in loops rather than ``any``. At every menu of the seeded games of every scenario,
    and again with the unit put in crash, out of crash, trivial, prone, readied, engaged, given
    no order and given mana (crashed or not, trivial), those entries and the standard spells
    offered are what the rules give stated plainly."""
    real, checked = combat_actions._menu, []
    changes = (
        {}, {"initiative": 0}, {"initiative": 7}, {"trivial": True}, {"prone": True},
        {"readied_this_turn": True}, {"engaged_by": "nobody"}, {"order_bonus": 0},
        {"order_mp": 9, "distortion_mp": 9}, {"order_mp": 9, "distortion_mp": 9, "initiative": 0},
        {"order_mp": 9, "distortion_mp": 9, "initiative": 0, "trivial": True},
    )

    def checking(ctx, unit):
        for change in changes:
            scene = copy.deepcopy(ctx.state)
            mine = attrs.evolve(scene.unit(unit.id), aiming=False, **change)
            scene.combatants[unit.id] = mine
            got = real(SimpleNamespace(state=scene, hooks=ctx.hooks), mine)
            plain = _plain_menu_parts(scene, mine)
            assert _menu_parts(got) == plain, (unit.id, change)
            checked.append((mine.kind, plain))
        return real(ctx, unit)

    monkeypatch.setattr(combat_actions, "_menu", checking)
    _logs(seeds=range(3))
    parts = [p for _, p in checked]
    for index in (0, 1, 3):  # each entry seen offered and not
        assert {p[index] for p in parts} == {True, False}
    assert any(p[2] for p in parts) and any(not p[2] for p in parts)
    assert any(p[4] for p in parts) and any(not p[4] for p in parts)
    assert {kind for kind, _ in checked} >= {"character", "group"}


def _foes_and_friends_as_the_rule_says(scene, unit):
    """Her foes and friends still fighting, stated plainly: every fighting combatant of another
    side, and every fighting combatant of hers (herself included), in the scene's order."""
    foes = [u for u in scene if u.fighting and u.side != unit.side]
    friends = [u for u in scene if u.fighting and u.side == unit.side]
    return foes, friends


def _same_units(got, expected):
    return [[u.id for u in units] for units in got] == [[u.id for u in units] for units in expected] and all(
        a is b for g, e in zip(got, expected, strict=True) for a, b in zip(g, e, strict=True)
    )


def test_a_menu_s_foes_and_friends_found_in_one_pass_are_the_rule_s(monkeypatch):
    """战斗行动: the menu finds the unit's foes and friends in one pass over the combatants
    (``combat_actions._foes_and_friends``) rather than ``Scene.enemies`` and ``Scene.allies``.
    At every menu of the seeded games of every scenario, and again with each combatant put in
    every status and (each in turn) on the unit's side or the other, they are the combatants the
    rule names, stated plainly, in the same order, and the lists the two methods give."""
    real, checked = combat_actions._menu, []

    def check(scene, unit):
        got = combat_actions._foes_and_friends(scene, unit)
        assert _same_units(got, _foes_and_friends_as_the_rule_says(scene, unit)), unit.id
        assert _same_units(got, (scene.enemies(unit), scene.allies(unit))), unit.id
        checked.append(tuple(len(units) for units in got))

    def checking(ctx, unit):
        scene = ctx.state
        check(scene, unit)
        for other in list(scene):
            status, side = other.status, other.side
            for other.status in STATUSES:
                check(scene, unit)
            other.status = status
            for other.side in MtttRpg.sides:
                check(scene, unit)
            other.side = side
        return real(ctx, unit)

    monkeypatch.setattr(combat_actions, "_menu", checking)
    fast = _logs(seeds=range(3))
    assert len(checked) > 1000 and {0} < {foes for foes, _ in checked} and {1} < {friends for _, friends in checked}
    monkeypatch.undo()
    assert _logs(seeds=range(3)) == fast
