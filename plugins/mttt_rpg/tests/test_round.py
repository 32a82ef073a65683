"""The combat flow (战斗流程): preparation, the three phases, turn order, joining, wait, aim, ready."""

import pytest
from attrs import evolve

from wargamekit import Choose, Game, ScriptedDice
from wargamekit_mttt_rpg import MtttRpg, kinds
from wargamekit_mttt_rpg.combat_round import action_round, round_start, take_turn, victory
from wargamekit_mttt_rpg.initiative import set_initiative
from wargamekit_mttt_rpg.sheets import Effect, Spell, library


def drive(game, answers):
    """Answer the pending decisions in order; a string picks the option starting with it."""
    for raw in answers:
        d = game.pending
        assert d is not None, f"the game ended before {raw!r}"
        if isinstance(d, Choose) and isinstance(raw, str):
            hits = [i for i, label in enumerate(d.labels) if label.startswith(raw)]
            assert hits, f"{d.prompt}: no {raw!r} in {d.labels}"
            raw = hits[0]
        game.answer(raw)


def texts(game):
    return [e.text for e in game.log if e.kind not in ("choice",)]


def duel(faces, interrupts=False):
    return Game.new(MtttRpg(), "duel", options={"interrupts": interrupts}, dice=ScriptedDice(faces))


def test_the_scene_ends_when_a_side_has_nobody_left_in_the_fight():
    """The scene's end (victory, checked after every turn and action; one pass that stops at the
    first unit of the second side still fighting): a side is out when none of its characters and
    battle groups is active or yet to join (non-combatants and trivial opponents never keep it
    in), and a withdrawal ends it undecided. Every mix of statuses of the default scene's six
    units (a group and a bystander among them), the witch trivial or not, against the rule
    stated plainly."""
    import itertools

    scene = Game.new(MtttRpg(), None, seed=0).state
    units = list(scene)
    assert {u.kind for u in units} == {"character", "group", "noncombatant"}

    def in_the_fight(side):
        return any(
            u.side == side and u.kind != "noncombatant" and not u.trivial and u.status in ("active", "absent")
            for u in units
        )

    witch = scene.unit("witch")
    for trivial in (False, True):
        witch.trivial = trivial
        for statuses in itertools.product(("active", "absent", "helpless", "routed", "withdrawn"), repeat=len(units)):
            for u, status in zip(units, statuses, strict=True):
                u.status = status
            heroes, foes = in_the_fight("heroes"), in_the_fight("foes")
            outcome = victory(scene)
            if heroes and foes:
                assert outcome is None
            else:
                assert outcome is not None
                assert outcome.winner == ("heroes" if heroes else "foes" if foes else None)
    scene.over = "Akari withdrew"
    outcome = victory(scene)
    assert outcome is not None and outcome.winner is None and outcome.reason == "Akari withdrew"


def test_preparation_then_turns_from_high_to_low():
    """准备阶段 then 阶段1/2/3: join battle for all, pools unfold, turns from the highest initiative down."""
    game = duel([10, 8])
    drive(game, ["move toward Kyo", "move toward Akari"])
    log = texts(game)
    order = [t for t in log if t.startswith(("Akari joins", "Kyo joins", "round 1", "round 2"))]
    assert order == [
        "Akari joins battle with initiative 13",
        "Kyo joins battle with initiative 10",
        "round 1: activation speed 1; pools unfold",
        "round 1 begins",
        "round 1, tick 13: Akari's turn",
        "round 1, tick 10: Kyo's turn",
        "round 1 ends: leftover MP lapses; the order is recomputed",
        "round 2: activation speed 1; pools unfold",
        "round 2 begins",
        "round 2, tick 13: Akari's turn",
    ]
    akari = game.state.unit("akari")
    assert (akari.order_cap, akari.order_mp) == (2, 2)  # two long-river units: speed 1 per round


def test_wait_adds_five_times_the_consecutive_waits():
    """战斗行动 / 待机: skipping the turn raises initiative next round by 5 × consecutive waits."""
    game = duel([10, 8])
    drive(game, ["wait", "wait", "wait", "wait"])
    akari = game.state.unit("akari")
    assert akari.initiative == 13 + 5 + 10
    drive(game, ["full defense", "wait"])
    assert akari.initiative == 28 and akari.consecutive_waits == 0  # the run is broken


def test_equal_initiative_a_yielding_player_goes_second():
    """先导度变动和同步动作: equal values act together; a player who yields lets the other go first."""
    game = duel([9, 10])
    assert game.pending.prompt.startswith("Akari acts at tick 12 together with Kyo")
    drive(game, [True, False])
    assert game.pending.prompt.startswith("Kyo")


def test_equal_initiative_both_eager_toss_a_coin():
    """先导度变动和同步动作: if both want to go first, a coin toss breaks the tie."""
    game = duel([9, 10, 1])
    drive(game, [False, False])
    assert game.pending.prompt.startswith("Kyo")
    assert any(t.startswith("coin toss: who acts first at tick 12") for t in texts(game))


def test_aim_delays_the_attack_spending_initiative_per_tick():
    """战斗行动 / 瞄准: spend 1 initiative per tick of delay; the delayed attack gets half of it to hit."""
    game = duel([10, 8, 9, 3, 3])
    drive(game, ["aim", 4])
    akari = game.state.unit("akari")
    assert akari.initiative == 9 and akari.aim_bonus == 2
    assert game.pending.prompt.startswith("Kyo (initiative 10")  # Kyo acts at tick 10 first
    drive(game, ["full defense"])
    assert game.pending.prompt.startswith("Akari (initiative 9")
    labels = game.pending.labels
    assert labels[0].startswith("aimed withering attack on Kyo (+2 to hit)")
    assert not any(label.startswith("move") for label in labels)


def test_ready_weapon_costs_two_initiative_and_keeps_the_standard_action():
    """战斗行动 / 拔出/预备武器: readying a weapon costs 2 initiative, not the standard action."""
    game = duel([10, 8])
    drive(game, ["ready Knife"])
    akari = game.state.unit("akari")
    assert akari.weapon == "knife" and akari.initiative == 11
    assert game.pending.prompt.startswith("Akari (initiative 11")
    assert not any(label.startswith("ready") for label in game.pending.labels)
    drive(game, ["full defense"])
    assert game.pending.prompt.startswith("Kyo")


def test_initiative_rising_past_the_tick_acts_at_the_next_tick(make):
    """先导度变动和同步动作: one turn a round; rising above the current tick, she acts at the next tick."""
    h = make(
        make.scenario(make.unit_entry("akari", "heroes"), make.unit_entry("kyo", "foes")),
        [],
        interrupts=False,
    )
    track = h.state.track
    for uid, value in (("akari", 13), ("kyo", 6)):
        h.unit(uid).initiative = value
        track.set(uid, value)
    assert track.next_turn().actors == ("akari",)
    set_initiative(h, h.unit("kyo"), 20, why="test")
    turn = track.next_turn()
    assert turn.actors == ("kyo",) and turn.number == 13
    set_initiative(h, h.unit("akari"), 30, why="test")
    assert track.next_turn() is None  # Akari already acted this round


def test_joining_mid_fight_prepared_or_unprepared(make):
    """中途加入: a prepared newcomer acts this round at her initiative; an unprepared one next round."""
    for prepared, acts in ((True, True), (False, False)):
        h = make(
            make.scenario(
                make.unit_entry("akari", "heroes"),
                make.unit_entry("kyo", "foes"),
                make.unit_entry("mio", "heroes", joins_round=2, prepared=prepared),
            ),
            [11],
            interrupts=False,
        )
        assert h.unit("mio").status == "absent" and "mio" not in h.state.track.values
        h.state.round = 2
        round_start(h)
        assert h.unit("mio").initiative == 12 and ("mio" in h.state.track.pending()) == acts


def test_round_limit_ends_in_a_draw():
    """Scene data: the round limit ends the fight undecided (the GM's call to break off)."""
    game = duel([10, 8] + [1] * 10)
    drive(game, ["wait", "wait"] * 10)
    assert game.over and game.outcome.winner is None and "round limit (10)" in game.outcome.reason


def test_a_character_lifted_past_the_tick_is_logged_at_the_tick_she_acts(make):
    """先导度变动和同步动作: "如果角色先导度的变化使她应该在更早的时候进行自己的回合，那么她将在下一个时点进行
    自己的回合": lifted from 2 to 8 after tick 5 has passed, Sayo acts next, at tick 5 — and the
    log says tick 5, not her new initiative 8."""
    h = make(
        make.scenario(
            make.unit_entry("akari", "heroes"), make.unit_entry("sayo", "heroes"), make.unit_entry("kyo", "foes")
        ),
        [],
        interrupts=False,
    )
    for uid, value in (("akari", 5), ("kyo", 3), ("sayo", 2)):
        h.unit(uid).initiative = value
        h.state.track.set(uid, value)
    assert h.state.track.next_turn().actors == ("akari",)
    set_initiative(h, h.unit("sayo"), 8, why="a spell lifts her")
    turn = h.state.track.next_turn()
    assert turn.actors == ("sayo",) and turn.number == 5
    h.run(take_turn(h, "sayo", []), ["full defense"])
    assert "round 1, tick 5: Sayo's turn" in h.texts()
    assert h.unit("sayo").initiative == 8


# -- a unit that leaves the fight during a turn: at a shared tick, and in her own turn's windows --

#: An instant spell that deals damage (no bundled sheet has one; 施法: "可以造成伤害其它法术，其造成
#: 的也基本上是制敌伤害", and 插入阶段: an instant spell may be cast at any timing point of phase 2).
HEX_DART = Spell("Hex Dart", Effect("withering_blast", amount=2, target="enemy", range=4), pool="order", cost=2)

#: The windows of a turn before its active step, in order (阶段2：行动轮: "轮开始前，轮开始后，结算轮
#: 响应，轮执行者获得标准动作前后").
TURN_WINDOWS = (
    "before turn start",
    "turn start",
    "turn responses",
    "before gaining the standard action",
    "after gaining the standard action",
)


def _crashed_turn(make, monkeypatch, caster):
    """Akari's turn, she and Sayo against Kyo, all at band 1, interrupts on: ``caster`` knows
    Hex Dart and has the mana for it alone (nobody else has any); Akari and Kyo are in crash
    (initiative 0) with 2 HP, so a withering blast goes to HP and leaves them helpless (先导崩溃:
    "由制敌攻击导致的目标HP归零仅能令目标陷入无助")."""
    sheet = library().characters[caster]
    monkeypatch.setitem(library().characters, caster, evolve(sheet, spells=(*sheet.spells, HEX_DART)))
    h = make(
        make.scenario(
            make.unit_entry("akari", "heroes"), make.unit_entry("sayo", "heroes"), make.unit_entry("kyo", "foes"),
            band=1,
        ),
        [],
    )
    for uid, value in (("akari", 0), ("sayo", 6), ("kyo", 0)):
        h.unit(uid).initiative = value
        h.state.track.set(uid, value)
    h.unit("akari").hp = h.unit("kyo").hp = 2
    h.unit(caster).order_mp = HEX_DART.cost
    return h


def test_a_unit_struck_down_by_the_first_actor_at_a_shared_tick_takes_no_turn(make):
    """先导度 / 先导度变动和同步动作: Kyo and Akari act at tick 8; Akari lets Kyo go first, and
    Kyo's decisive attack takes Akari's last HP (生命点数HP: "当HP降到0后，角色即进入无助状态").
    Akari, still waiting at the tick, is out of the fight: she takes no turn — no checkpoint,
    no turn announced, no action asked — and the round goes on with Sayo at tick 3."""
    h = make(
        make.scenario(
            make.unit_entry("akari", "heroes"), make.unit_entry("sayo", "heroes"), make.unit_entry("kyo", "foes"),
            band=1,
        ),
        [15],  # Kyo's hit check: 15 + 9 against Akari's passive defense 16
        interrupts=False,
    )
    for uid, value in (("akari", 8), ("kyo", 8), ("sayo", 3)):
        h.unit(uid).initiative = value
        h.state.track.set(uid, value)
    h.unit("akari").hp = 1
    h.run(
        action_round(h, lambda: victory(h.state) is not None),
        [
            True,  # Akari lets Kyo go first
            False,  # Kyo does not
            "decisive attack on Akari",
            "no: defend normally",  # Akari does not clash (交锋)
            "passive defense",
            False,  # no soul disability
            "full defense",  # Sayo's turn
        ],
    )
    assert h.unit("akari").status == "helpless" and "helpless" in [kind for kind, _, _ in h.log]
    assert h.checkpoints == ["round 1, tick 8: kyo's turn", "round 1, tick 3: sayo's turn"]
    assert [text for kind, text, _ in h.log if kind == "turn"] == [
        "round 1, tick 8: Kyo's turn",
        "round 1, tick 3: Sayo's turn",
    ]
    assert [d.context["unit"] for d in h.asked if d.kind == kinds.ACTION] == ["kyo", "sayo"]
    assert h.state.waiting == ()


@pytest.mark.parametrize("window", TURN_WINDOWS[3:])
def test_a_unit_struck_down_around_gaining_her_standard_action_takes_no_active_step(make, monkeypatch, window):
    """阶段2：行动轮 and 战斗流程 / 插入阶段：瞬间法术与战时触发效果: in the window before or after
    Akari gains her standard action, Kyo casts Hex Dart on her (crashed, 2 HP): she is helpless
    when the interrupt ends ("回到回合中继续执行当前行动（若仍可执行）与后续行动"), so she takes no
    active step — no action is asked — and her turn ends; the fight goes on (Sayo). (The
    turn's guard before the active step and the active step's loop both test her status: this
    fails only when both are dropped; the guard's test of the scene's end is the next test's.)"""
    h = _crashed_turn(make, monkeypatch, "kyo")
    passes = TURN_WINDOWS.index(window)
    h.run(take_turn(h, "akari", []), ["pass"] * passes + ["Kyo: Hex Dart on Akari"])
    assert [d.prompt.split(" [")[0] for d in h.asked] == list(TURN_WINDOWS[: passes + 1])
    assert [kind for kind, _, _ in h.log] == ["turn", "stack-push", "stack-resolve", "blast", "hp", "helpless"]
    assert h.unit("akari").status == "helpless" and victory(h.state) is None
    assert h.state.acting is None  # the turn ended


@pytest.mark.parametrize("window", TURN_WINDOWS[3:])
def test_a_turn_whose_last_opponent_falls_around_gaining_the_standard_action_has_no_active_step(
    make, monkeypatch, window
):
    """阶段2：行动轮 and the scene's end (victory, checked after every turn and action): in the
    window before or after Akari gains her standard action, Sayo casts Hex Dart on Kyo
    (crashed, 2 HP), the last foe in the fight: the foes are out, the heroes have won, and
    Akari takes no active step — no action is asked."""
    h = _crashed_turn(make, monkeypatch, "sayo")
    passes = TURN_WINDOWS.index(window)
    h.run(take_turn(h, "akari", []), ["pass"] * passes + ["Sayo: Hex Dart on Kyo"])
    assert [d.prompt.split(" [")[0] for d in h.asked] == list(TURN_WINDOWS[: passes + 1])
    assert [kind for kind, _, _ in h.log] == ["turn", "stack-push", "stack-resolve", "blast", "hp", "helpless"]
    assert h.unit("kyo").status == "helpless" and h.unit("akari").status == "active"
    assert victory(h.state).winner == "heroes"


def test_a_standard_action_declared_is_not_carried_out_by_a_unit_struck_down_in_its_window(make, monkeypatch):
    """战斗流程 / 插入阶段：瞬间法术与战时触发效果: "退出中断，回到回合中继续执行当前行动（若仍可执行）":
    Akari (crashed, 2 HP) declares a withering attack on Kyo; in the window of the standard
    action declared Kyo casts Hex Dart on her, and she is helpless when the interrupt ends. The
    attack is not carried out — not declared as an attack, no defense asked, no hit check, no
    initiative moved — and her turn ends."""
    h = _crashed_turn(make, monkeypatch, "kyo")
    h.run(
        take_turn(h, "akari", []),
        ["pass"] * len(TURN_WINDOWS) + ["withering attack on Kyo", "Kyo: Hex Dart on Akari"],
    )
    assert [d.prompt.split(" [")[0] for d in h.asked][-2:] == [
        "Akari (initiative 0, HP 2/7, MP 0 order/0 distortion): choose an action",
        "standard action declared",
    ]
    assert [kind for kind, _, _ in h.log] == ["turn", "stack-push", "stack-resolve", "blast", "hp", "helpless"]
    assert h.unit("akari").status == "helpless"
    assert (h.unit("akari").initiative, h.unit("kyo").initiative) == (0, 0)
    assert h.state.acting is None
