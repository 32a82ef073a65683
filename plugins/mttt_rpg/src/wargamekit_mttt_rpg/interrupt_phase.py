"""The interrupt phase (插入阶段): instant spells and triggered effects on the core stack.

At every timing point of phase 2 a window opens on ``ctx.interrupts``. If the timing point
meets trigger conditions (a hit that damages and crashes its target meets both), each side, the
acting unit's side first, first says which of its triggered effects (战时触发效果) answer them;
they go on the stack together, each player ordering her own (``push_triggered``). Then each side
may push an instant spell (瞬间法术) or take another instant action (a rush, converting soul
jade). When everyone passes, the top item
resolves (last in, first out); its legality is checked again first (a caster who is helpless or
out of mana, a target out of range, an item countered: it fizzles), and a new window opens at
that resolution point. A trigger is answered at most once (the response's key names the
trigger's occurrence). Mana is paid at resolution; while an item waits on the stack its cost is
already committed, so nobody can push more than she can pay.

With the optional rule "disable the interrupt phase" (``ctx.interrupts.enabled = False``) the
windows poll nobody; mandatory turn responses (轮响应) still resolve.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from functools import partial
from math import inf
from operator import itemgetter
from typing import Any, NamedTuple
from weakref import ref

from attrs import frozen

from wargamekit import ChooseSubset, Data, Option, Response
from wargamekit.interrupts import LazyOffers, Offers, TimingPoint

from . import kinds
from .damage import apply_withering
from .initiative import change_initiative
from .movement import rush_response
from .ranges import pair_keys
from .sheets import CharacterSheet, Effect, Spell, Trigger, library
from .soul import convert
from .state import ACTIVE, HELPLESS, Combatant, Context, Scene

__all__ = ["TIMING_POINTS", "Timing", "open_window", "open_windows", "turn_responses"]

RULE_INTERRUPT = "战斗流程 / 插入阶段：瞬间法术与战时触发效果"
RULE_TURN_RESPONSES = "阶段2：行动轮 (轮响应)"

#: The timing points of a turn (the source: 轮开始前, 轮开始后, 结算轮响应, 获得标准动作前后,
#: 消耗标准动作, 轮结束前后, 下一轮开始前).
TIMING_POINTS = (
    "before turn start",
    "turn start",
    "turn responses",
    "before gaining the standard action",
    "after gaining the standard action",
    "standard action declared",
    "attack declared",
    "attack resolved",
    "before turn end",
    "after turn end (before the next turn)",
)


@frozen
class Timing:
    """A timing point: its name, the acting unit, and every trigger condition it meets (a hit
    that damages and crashes its target meets both "damaged" and "crashed")."""

    name: str
    active: str | None = None
    triggers: tuple[str, ...] = ()
    subject: str | None = None
    source: str | None = None
    serial: int = 0


def _committed(ctx: Context, unit: Combatant, pool: str) -> int:
    if not ctx.interrupts.items:  # hot (every poll of every window): usually nothing is on the stack
        return 0
    return sum(
        item.data["cost"]
        for item in ctx.interrupts.items
        if isinstance(item.data, dict)
        and item.data.get("caster") == unit.id
        and item.data.get("pool") == pool
    )


#: The stack's committed mana by caster: ``caster -> (order mana, distortion mana)``.
_Committed = Mapping[str, tuple[int, int]]


def _committed_by_caster(ctx: Context) -> dict[str, tuple[int, int]]:
    """:func:`_committed` of every caster and both pools at once (:data:`_Committed`)."""
    out: dict[str, tuple[int, int]] = {}
    for item in ctx.interrupts.items:
        data = item.data
        if isinstance(data, dict) and "caster" in data and "pool" in data:
            _commit(out, data)
    return out


def _commit(out: dict[str, tuple[int, int]], data: Mapping[str, Any]) -> None:
    """Add the cost of the stack item with ``data`` to its caster's committed mana in ``out``
    (a spell's or triggered effect's pool is "order" or "distortion": the sheets check it)."""
    caster = data["caster"]
    order, distortion = out.get(caster, (0, 0))
    if data["pool"] == "order":
        out[caster] = order + data["cost"], distortion
    else:
        out[caster] = order, distortion + data["cost"]


def _committed_with(
    ctx: Context,
    top: Response,
    below: tuple[Response, _Committed] | None,
    depth: int,
) -> _Committed:
    """:func:`_committed_by_caster` of the stack with ``top`` at ``depth``; ``below``: the item
    that lay on top at ``depth - 1`` and that stack's sum, if kept. If ``top`` was pushed onto
    that very stack, its sum and ``top``'s own cost, else the whole stack summed."""
    items = ctx.interrupts.items
    if below is None or depth < 2 or items[depth - 2] is not below[0]:
        return _committed_by_caster(ctx)
    data = top.data
    if not (isinstance(data, dict) and "caster" in data and "pool" in data):
        return below[1]  # nothing committed by ``top`` (a rush, burning jade)
    out = dict(below[1])
    _commit(out, data)
    return out


def _mana_left(unit: Combatant, committed: _Committed) -> tuple[int, int]:
    """``unit``'s order and distortion mana less what the stack already commits of it."""
    spent = committed.get(unit.id)
    if spent is None:
        return unit.order_mp, unit.distortion_mp
    return unit.order_mp - spent[0], unit.distortion_mp - spent[1]


def _mana(unit: Combatant, pool: str) -> int:
    return unit.order_mp if pool == "order" else unit.distortion_mp


def _targets(scene: Scene, caster: Combatant, effect: Effect, fixed: str | None) -> list[Combatant]:
    if effect.target == "self":
        return [caster]
    if fixed is not None:
        unit = scene.unit(fixed)
        ok = unit.fighting and scene.distance(caster.id, unit.id) <= effect.range
        return [unit] if ok else []
    # Scene.allies (the caster too) or Scene.enemies, within range: one pass over the scene with
    # the status and distance read inline, in a loop (hot: every spell of every responder at
    # every poll; a comprehension makes a function and its frame at every call)
    cid, side, reach, distances, keys = caster.id, caster.side, effect.range, scene.distances, pair_keys(caster.id)
    allies = effect.target == "ally"
    out = []
    for u in scene.combatants.values():
        if (
            u.status == ACTIVE
            and (u.side == side) is allies
            and (0 if (uid := u.id) == cid else distances[keys[uid]]) <= reach
        ):
            out.append(u)
    return out


def make_response(
    ctx: Context,
    caster: Combatant,
    name: str,
    effect: Effect,
    pool: str,
    cost: int,
    target: Combatant | None,
    *,
    key: Any = None,
    countering: int | None = None,
    countering_name: str = "",
    at: Mapping[str, Any] | None = None,
) -> Response:
    """A stack item that applies ``effect`` (paying ``cost`` mana) when it resolves; ``at``:
    where it is offered (see :func:`offers`: names to JSON scalars), added to its data. It
    takes the scene's next item number (its ``id``)."""
    scene: Scene = ctx.state
    scene.next_item += 1
    return _item(
        ctx, scene.next_item, caster, name, effect, pool, cost, target,
        key=key, countering=countering, countering_name=countering_name, at=at,
    )


def _item(
    ctx: Context,
    item_id: int,
    caster: Combatant,
    name: str,
    effect: Effect,
    pool: str,
    cost: int,
    target: Combatant | None,
    *,
    key: Any = None,
    countering: int | None = None,
    countering_name: str = "",
    at: Mapping[str, Any] | None = None,
) -> Response:
    """:func:`make_response`'s item numbered ``item_id`` (a number the scene already gave)."""
    caster_id = caster.id
    target_id = None if target is None else target.id
    if effect.kind == "counter":
        label = f"{caster.name}: {name} (counter {countering_name}, {cost} {pool} MP)"
    else:
        on = "" if target is None else f" on {target.name}"
        price = f", {cost} {pool} MP" if cost else ""
        label = f"{caster.name}: {name}{on} ({effect.kind.replace('_', ' ')} {effect.amount}{price})"

    # (by position, in Response's order: name, controller, resolve, is_legal, key, data; a
    # class called with keywords packs them into a dict: ~2,800 instructions more an item)
    return Response(
        label,
        caster.side,
        # partials, not closures: a closure over these nine names costs a cell each
        partial(_resolve_item, ctx, caster_id, target_id, effect, pool, cost, countering, name),
        partial(_item_fizzles, ctx, item_id, caster_id, target_id, effect, pool, cost, countering),
        key,
        # Frozen here rather than by the Response: ids, names and numbers, and ``at``'s JSON
        # scalars, are what freeze_data would keep as they are.
        Data(
            {
                "id": item_id,
                "name": name,
                "caster": caster_id,
                "pool": pool,
                "cost": cost,
                "effect": effect.kind,
                "target": target_id,
                "amount": effect.amount,
                **(at or {}),
            }
        ),
    )


def _item_fizzles(
    ctx: Context,
    item_id: int,
    caster_id: str,
    target_id: str | None,
    effect: Effect,
    pool: str,
    cost: int,
    countering: int | None,
) -> str | None:
    """Why the stack item :func:`make_response` built (``item_id``) fizzles at resolution, or
    ``None`` if it is still legal: its caster fighting with the mana, its target (if any)
    fighting (a heal's: fighting or helpless) and within range, what it counters still on the
    stack."""
    # Hot (every item, as it resolves and as the core checks it): Scene.unit, Combatant.fighting,
    # _mana and Scene.distance inline, as slot and table reads (a property or call costs several
    # times a slot's read)
    s: Scene = ctx.state
    combatants = s.combatants
    me = combatants[caster_id]
    if item_id in s.countered:
        return "countered"
    if me.status != ACTIVE:
        return f"{me.name} can no longer act"
    if (me.order_mp if pool == "order" else me.distortion_mp) < cost:
        return f"{me.name} lacks the mana"
    if target_id is not None:
        them = combatants[target_id]
        status = them.status
        if status != ACTIVE and (status != HELPLESS or effect.kind != "heal"):
            return f"{them.name} is no longer a legal target"
        if caster_id != target_id and s.distances[pair_keys(caster_id)[target_id]] > effect.range:
            return f"{them.name} is out of range"
    if countering is not None and not any(
        isinstance(i.data, dict) and i.data.get("id") == countering for i in ctx.interrupts.items
    ):
        return "the countered item is gone"
    return None


def _resolve_item(
    ctx: Context,
    caster_id: str,
    target_id: str | None,
    effect: Effect,
    pool: str,
    cost: int,
    countering: int | None,
    name: str,
) -> Generator[Any, Any, None]:
    """What the stack item :func:`make_response` built does when it resolves: its caster pays
    ``cost`` mana from ``pool``, then its effect applies."""
    combatants = ctx.state.combatants  # (Scene.unit inline: every item resolved)
    me = combatants[caster_id]
    if pool == "order":
        me.order_mp -= cost
    else:
        me.distortion_mp -= cost
    yield from apply_effect(
        ctx,
        me,
        None if target_id is None else combatants[target_id],
        effect,
        countering=countering,
        name=name,
    )


def apply_effect(
    ctx: Context,
    caster: Combatant,
    target: Combatant | None,
    effect: Effect,
    *,
    countering: int | None,
    name: str,
) -> Generator[Any, Any, None]:
    """Apply a spell's or triggered effect's effect."""
    scene: Scene = ctx.state
    if effect.kind == "counter":
        assert countering is not None
        scene.countered.append(countering)
        ctx.event(
            "counter", f"{caster.name}'s {name} counters the item below it", unit=caster.id, item=countering
        )
        return
    assert target is not None
    if effect.kind == "gain_initiative":
        change_initiative(ctx, target, effect.amount, why=name)
    elif effect.kind == "heal":
        healed = min(effect.amount, target.hp_max - target.hp)
        target.hp += healed
        target.distortion_points = max(0, target.distortion_points - healed)
        if healed and target.status == HELPLESS:
            target.status = ACTIVE
            scene.track.add(target.id, target.initiative, acts_this_round=False)
            ctx.event("revive", f"{target.name} is no longer helpless", unit=target.id)
        ctx.event(
            "heal", f"{name}: {target.name} regains {healed} HP ({target.hp}/{target.hp_max})", unit=target.id
        )
    elif effect.kind == "defense":
        target.defense_bonus += effect.amount
        ctx.event(
            "defense-bonus",
            f"{name}: {target.name} +{effect.amount} defense until her next turn",
            unit=target.id,
        )
    elif effect.kind == "protection":
        target.protection_bonus += effect.amount
        ctx.event(
            "protection-bonus",
            f"{name}: {target.name} +{effect.amount} protection this round",
            unit=target.id,
        )
    elif effect.kind == "withering_blast":
        ctx.event("blast", f"{name}: {effect.amount} withering damage to {target.name}", unit=target.id)
        yield from apply_withering(ctx, caster, target, effect.amount, spell=True)


def offers(ctx: Context, timing: Timing, opening: str) -> Offers:
    """The offers function of a window at ``timing`` (opened as the core's timing point
    ``opening``). Each offer's data says where it is offered: ``timing`` (the timing point's
    name) and ``resolution`` (true at the resolution point of an item inside that window)."""
    # The stack's mana by caster (_committed_by_caster), kept per depth with the item on
    # top then. The stack is last in, first out, and each item is pushed once: while an item lies
    # on top at a depth, the items below it are those it was pushed onto, so the same top at the
    # same depth means the same stack (the top is held: its id stays its own), and an item pushed
    # onto a kept stack adds its own cost to that stack's sum. Sound whatever is edited between
    # two polls: it reads only the stack (each item's caster, pool and cost, set when it was
    # made), which the core alone pushes and pops, never the scene.
    summed: dict[int, tuple[Response, _Committed]] = {}
    # What the offers at the last timing point found, kept until a poll offers something: the
    # point (a string made afresh at each resolution point of the window, and held here), the
    # fighting characters and whom each could rush (the other side, polled next at the same
    # point, reads them again). The core asks a decision only of a poll that offers something;
    # between two polls with none between them nothing runs, so nothing these read (who is
    # fighting, positions, conditions) can change. After a poll that offers something, the scene
    # may be edited directly before the next poll (the design's rule): it is read again.
    # (Cells, not a list: read at every poll.)
    at_point: str | None = None
    characters: list[Combatant] = []
    rushes: Mapping[str, tuple[str, ...]] = {}
    facts_of = _sheet_facts(ctx.state)

    def offer(side: str, point: TimingPoint) -> Sequence[Response]:
        # Hot: every side is polled at every timing point of every turn, and most polls offer
        # nothing; the cheap tests (side, kind, mana) come before anything is built.
        nonlocal at_point, characters, rushes
        scene: Scene = ctx.state
        top = point.top
        if top is None:
            committed: _Committed = {}
            counterable = False
        else:
            depth = point.depth
            kept = summed.get(depth)
            if kept is not None and kept[0] is top:
                committed = kept[1]  # the stack of an earlier poll (usually the other side's)
            else:
                committed = _committed_with(ctx, top, summed.get(depth - 1), depth)
                summed[depth] = top, committed
            counterable = top.controller != side and "id" in top.data
        if point.timing is not at_point:
            # who may respond, and whom each could rush: found once
            at_point = point.timing
            characters, rushes = _characters_and_contacts(scene)
        responders = []
        for u in characters:
            if u.side == side and _may_respond(ctx, u, facts_of[u.sheet_key], rushes, committed, counterable):
                responders.append(u)
        if not responders:
            return []  # most polls: nothing to build
        offered = _offer(ctx, timing, opening, side, point, responders, committed, rushes, facts_of)
        if offered:
            at_point = None  # a decision follows: what was found here is not kept past it
        return offered

    return offer


def _offer(
    ctx: Context,
    timing: Timing,
    opening: str,
    side: str,
    point: TimingPoint,
    responders: list[Combatant],
    committed: _Committed,
    rushes: Mapping[str, tuple[str, ...]],
    facts_of: Mapping[str, _SheetFacts],
) -> Sequence[Response]:
    """What :func:`offers` offers ``side`` at ``point`` once it has found her ``responders``
    (the characters its cheap test passed), as a :class:`LazyOffers` (or nothing): ``committed``,
    the stack's mana by caster; ``rushes``, whom each character could rush. (Apart from
    ``offers``' poll, which most polls leave before it: nobody may respond.)"""
    scene: Scene = ctx.state
    top = point.top
    at = {"timing": timing.name, "resolution": point.timing != opening}
    # ``at`` marked (``playable: False`` and why) when the point is quiet (see _quiet): every
    # response offered here is so marked, but a heal on an unhurt target (see _heal_at).
    # (Found at once, not by closures when first needed: an offer of something, which the
    # core asks a decision of, nearly always needs it.)
    why = _quiet(scene, side, timing, point, point.timing != opening)
    plain_at = at if why is None else {**at, "playable": False, "why": why}

    # What each response would be, found now; the responses themselves are made only when
    # read (a LazyOffers: a random bot reads one, or none). Each spell takes its item
    # numbers here, in the order the responses are offered, as building them would: a
    # spell's responses, one per target, take consecutive numbers and share one record.
    keys: list[Any] = []
    made: list[Any] = []  # per response: its spell's record, or (what makes it, ``at``) for an instant action
    for unit in responders:
        order, distortion = _mana_left(unit, committed)
        for spell in facts_of[unit.sheet_key].instant_spells:
            if (order if spell.pool == "order" else distortion) < spell.cost:
                continue
            kind = spell.effect.kind
            if kind == "counter":
                if top is None or top.controller == side or "id" not in top.data:
                    continue
                targets: Sequence[Combatant | None] = (None,)
                keys.append(("counter", top.data["id"], unit.id))
                countering: int | None = top.data["id"]
                countering_name = top.name
            else:
                targets = _targets(scene, unit, spell.effect, None)
                if not targets:
                    continue
                keys += [None] * len(targets)
                countering, countering_name = None, ""
            # a heal's marks per target (an unhurt one), any other's shared
            at_each: Any = plain_at if kind != "heal" else tuple(_heal_at(at, plain_at, t) for t in targets)
            # (the spell's first response's index and item number, then _item's arguments)
            record = (len(made), scene.next_item + 1, unit, spell, targets, countering, countering_name, at_each)
            scene.next_item += len(targets)
            made += [record] * len(targets)
        for key, make in _instant_actions(ctx, unit, rushes.get(unit.id, ()), facts_of):  # rarely any
            keys.append(key)
            made.append((make, plain_at))
    if not keys:
        return []
    return LazyOffers(keys, partial(_offered, ctx, keys, made))


def _heal_at(at: Mapping[str, Any], plain_at: Mapping[str, Any], target: Combatant | None) -> Mapping[str, Any]:
    """Where a heal on ``target`` is offered (see :func:`_offer`): ``plain_at``, or ``at``
    marked not playable if ``target`` is unhurt (the heal would do nothing now)."""
    if target is not None and target.hp >= target.hp_max:
        return {**at, "playable": False, "why": f"{target.name} is unhurt"}
    return plain_at


def _offered(ctx: Context, keys: list[Any], made: list[Any], index: int) -> Response:
    """Response ``index`` of an offer :func:`offers` found (see there): made from what was
    found when it was offered (the units' names and sheets do not change)."""
    what = made[index]
    if len(what) == 2:  # an instant action (see _instant_actions): what makes it, and where
        make, at = what
        return make(at=at)
    # a spell's response: the nth of its responses, one per target; a heal's marks are per
    # target (offers decides so by the spell's kind), any other spell's shared
    first, item_id, unit, spell, targets, countering, countering_name, at = what
    nth = index - first
    return _item(
        ctx, item_id + nth, unit, spell.name, spell.effect, spell.pool, spell.cost, targets[nth],
        key=keys[index], countering=countering, countering_name=countering_name,
        at=at[nth] if spell.effect.kind == "heal" else at,
    )


class _SheetFacts(NamedTuple):
    """What the cheap tests of the interrupt phase read of a character sheet (frozen library
    data), found once per sheet (:func:`_facts`)."""

    sheet: CharacterSheet
    #: its instant spells (瞬间法术), in its order
    instant_spells: tuple[Spell, ...]
    #: the least mana in the order and in the distortion pool that pays for an instant spell
    #: needing nothing to counter, then for any (counterspells too); no such spell: infinite,
    #: more than any mana
    order: float
    distortion: float
    order_any: float
    distortion_any: float
    #: the trigger conditions its optional triggered effects (战时触发效果) answer
    #: ("ally_attacked" answers "attacked" too)
    answers: frozenset[str]
    #: its mandatory turn responses (轮响应: triggered at its turn start), in its order
    turn_responses: tuple[Trigger, ...]


#: id of a character sheet -> its :class:`_SheetFacts`
_FACTS: dict[int, _SheetFacts] = {}


def _facts(sheet: CharacterSheet) -> _SheetFacts:
    """The :class:`_SheetFacts` of ``sheet``, found on the first call and kept."""
    held = _FACTS.get(id(sheet))
    if held is not None and held.sheet is sheet:
        return held
    spells = tuple(s for s in sheet.spells if s.timing == "instant")
    plain: dict[str, float] = {}
    every: dict[str, float] = {}
    for spell in spells:
        pool, cost = spell.pool, spell.cost
        every[pool] = min(cost, every.get(pool, inf))
        if spell.effect.kind != "counter":
            plain[pool] = min(cost, plain.get(pool, inf))
    answers = {t.on for t in sheet.triggers if not t.mandatory}
    if "ally_attacked" in answers:
        answers.add("attacked")
    held = _FACTS[id(sheet)] = _SheetFacts(
        sheet,
        spells,
        plain.get("order", inf),
        plain.get("distortion", inf),
        every.get("order", inf),
        every.get("distortion", inf),
        frozenset(answers),
        tuple(t for t in sheet.triggers if t.mandatory and t.on == "turn_start"),
    )
    return held


def _may_respond(
    ctx: Context,
    unit: Combatant,
    facts: _SheetFacts,
    contacts: Mapping[str, tuple[str, ...]],
    committed: _Committed,
    counterable: bool,
) -> bool:
    """Whether the fighting character ``unit`` might have a response to offer: a cheap test,
    true whenever :func:`offers` would build one for her (an affordable instant spell with
    something to counter if it is a counterspell, a rush not yet answered, soul jade to burn).
    ``facts``: her sheet's; ``contacts``: whom each character might rush (:func:`_characters_and_contacts`);
    ``committed``: the stack's mana by caster (:data:`_Committed`); ``counterable``:
    whether the stack's top item is the other side's, to counter."""
    # Hot: most polls offer nothing, and this spares building them (see ``offers``).
    scene: Scene = ctx.state
    order, distortion = unit.order_mp, unit.distortion_mp  # _mana_left, inline
    if committed and (spent := committed.get(unit.id)) is not None:  # usually nothing is committed
        order -= spent[0]
        distortion -= spent[1]
    if counterable:
        if order >= facts.order_any or distortion >= facts.distortion_any:
            return True
    elif order >= facts.order or distortion >= facts.distortion:
        return True
    enemies = contacts.get(unit.id)
    if enemies is not None and not unit.prone and unit.engaged_by is None:
        uid, rushing, answered, round_ = unit.id, unit.rushing, ctx.interrupts.answered, scene.round
        for eid in enemies:
            # Combatant.fighting and _rush_key, inline
            if (
                (enemy := scene.combatants.get(eid)) is not None
                and enemy.status == ACTIVE
                and eid not in rushing
                and ("rush", round_, uid, eid) not in answered
            ):
                return True
    if scene.boss_fight and unit.ignited:
        for invested in facts.sheet.invested:
            if invested.name not in unit.converted:
                return True
    return False


def _contacts(scene: Scene, characters: list[Combatant] | None = None) -> dict[str, tuple[str, ...]]:
    """The ids of the fighting characters of the other side at contact distance (band 0) of each
    fighting character who has any, in scene order: a rush (跟步) needs contact distance.
    ``characters``: the scene's fighting characters, if the caller has them."""
    if characters is None:
        characters = _fighting_characters(scene)
    out: dict[str, tuple[str, ...]] = {}
    for unit in characters:
        enemies = tuple(e.id for e in characters if e.side != unit.side and scene.distance(unit.id, e.id) == 0)
        if enemies:
            out[unit.id] = enemies
    return out


class _FactsBySheet(dict[str, _SheetFacts]):
    """:func:`_facts` by sheet key (``Combatant.sheet_key``), each found in the library on the
    first read of its key (a character given another sheet is read under its key)."""

    def __missing__(self, key: str) -> _SheetFacts:
        facts = self[key] = _facts(library().characters[key])
        return facts


class _Kept(NamedTuple):
    """What the cheap tests keep of the last scene they read: its sheets' facts by sheet key
    (:func:`_sheet_facts`), and whom each character could rush with what that was found from
    (:func:`_characters_and_contacts`). Never changed, only replaced whole: a game in another
    thread reads one record or another, never a mix."""

    #: the scene, held weakly
    scene: ref[Scene]
    facts: _FactsBySheet
    #: each fighting character's id then side, in order, in one flat list; None: no contacts
    #: found yet
    who: list[str] | None
    #: what reads the range bands of every opposing pair of them at once (:func:`_opposing_bands`;
    #: None: no such pair), and what it read
    bands_of: Callable[[Mapping[str, int]], Any] | None
    bands: Any
    contacts: dict[str, tuple[str, ...]]


#: The record of the last scene read. Hot: read at every poll and window opening.
_KEPT: _Kept | None = None


def _kept(scene: Scene) -> _Kept:
    """:data:`_KEPT`, a fresh one first if it was kept for another scene (another game, a fork,
    a restart)."""
    global _KEPT
    kept = _KEPT
    if kept is None or kept.scene() is not scene:
        kept = _KEPT = _Kept(ref(scene), _FactsBySheet(), None, None, None, {})
    return kept


def _sheet_facts(scene: Scene) -> _FactsBySheet:
    """The :class:`_SheetFacts` of ``scene``'s sheets by key, kept for the scene."""
    return _kept(scene).facts


def _characters_and_contacts(scene: Scene) -> tuple[list[Combatant], dict[str, tuple[str, ...]]]:
    """The scene's fighting characters, in scene order (:func:`_fighting_characters`), and whom
    each could rush (:func:`_contacts`), the latter kept while what it is found from stays the
    same: each fighting character's id and side, in order, and the range band of each pair of
    them on opposing sides. Positions change only when someone moves, and most characters have
    nobody to rush: reading every pair's distance was most of a test that finds nothing."""
    global _KEPT
    kept = _kept(scene)
    # one pass for both: the characters, and the key's ids and sides (attributes read in
    # Python, in a loop: attrgetter's C calls and a comprehension's frame cost more), flat
    # (a pair's tuple costs more than a second append)
    characters = []
    who = []
    for u in scene.combatants.values():
        if u.kind == "character" and u.status == ACTIVE:  # Combatant.fighting, inline
            characters.append(u)
            who.append(u.id)
            who.append(u.side)
    if kept.who == who:
        bands_of = kept.bands_of
        if bands_of is None or bands_of(scene.distances) == kept.bands:  # (the bands read in C)
            return characters, kept.contacts
    else:
        bands_of = _opposing_bands(characters)
    contacts = _contacts(scene, characters)
    bands = None if bands_of is None else bands_of(scene.distances)
    _KEPT = _Kept(kept.scene, kept.facts, who, bands_of, bands, contacts)
    return characters, contacts


def _opposing_bands(characters: list[Combatant]) -> Callable[[Mapping[str, int]], Any] | None:
    """What reads, in one C call, the range bands of every pair of ``characters`` on opposing
    sides from the distance table (``None``: no such pair; the keys are the ids' alone)."""
    keys = []
    for index, unit in enumerate(characters):
        keys_of, side = pair_keys(unit.id), unit.side
        keys += [keys_of[other.id] for other in characters[index + 1 :] if other.side != side]
    return itemgetter(*keys) if keys else None


def _rush_key(scene: Scene, unit: Combatant, enemy: Combatant) -> tuple[str, int, str, str]:
    """The key of ``unit``'s rush after ``enemy``: one a round."""
    return ("rush", scene.round, unit.id, enemy.id)


def _closes_at_once(ctx: Context, floor: int | None) -> bool:
    """Whether a window opening now (resolving down to ``floor``) would close at once with
    nothing resolved: the stack is empty and nobody can answer, so every side would pass."""
    return not ctx.interrupts.items and not floor and _nobody_responds(ctx)


def _nobody_responds(ctx: Context) -> bool:
    """Whether no side has anything to offer at a window opening on an empty stack: what
    :func:`_may_respond` says of every fighting character (nothing on the stack is committed
    or can be countered), asked of them all at once."""
    # Hot: every window opening (~450 a game), and most close here. One pass per test, the
    # cheapest first, instead of every test of one character after another: the spells by
    # their cheapest cost per pool, then the rushes of those free to rush, then the soul jade.
    scene: Scene = ctx.state
    facts_of = _sheet_facts(scene)
    characters, contacts = _characters_and_contacts(scene)
    for unit in characters:
        facts = facts_of[unit.sheet_key]
        if unit.order_mp >= facts.order or unit.distortion_mp >= facts.distortion:
            return False
    # the rush test of _may_respond, for those who have someone at contact distance
    combatants = scene.combatants
    if contacts:
        answered, round_ = ctx.interrupts.answered, scene.round
        for unit in characters:
            enemies = contacts.get(unit.id)
            if enemies is None or unit.prone or unit.engaged_by is not None:
                continue
            uid, rushing = unit.id, unit.rushing
            for eid in enemies:
                if (
                    (enemy := combatants.get(eid)) is not None
                    and enemy.status == ACTIVE  # Combatant.fighting, inline
                    and eid not in rushing
                    and ("rush", round_, uid, eid) not in answered  # _rush_key, inline
                ):
                    return False
    if scene.boss_fight:
        for unit in characters:
            if unit.ignited:
                converted = unit.converted
                for invested in facts_of[unit.sheet_key].sheet.invested:
                    if invested.name not in converted:
                        return False
    return True


def _fighting_characters(scene: Scene) -> list[Combatant]:
    """The characters still fighting, in scene order."""
    # (the hot paths find them inline: _characters_and_contacts, _may_trigger)
    out = []
    for u in scene.combatants.values():
        if u.kind == "character" and u.status == ACTIVE:
            out.append(u)
    return out


#: Timing points at which the other side announces what it does: a player may want to answer.
ANNOUNCEMENTS = frozenset({"standard action declared", "attack declared"})


def _quiet(scene: Scene, side: str, timing: Timing, point: TimingPoint, resolution: bool) -> str | None:
    """Why nothing at ``point`` calls for ``side``'s answer (``None``: it does), for players'
    stop settings (like digital card games' auto-pass): a point calls for an answer when the
    other side's item is on top of the stack, or (at the timing point itself, not at the
    resolution points inside its window) when one of ``side``'s units is the subject (the one
    attacked, damaged or crashed) or the other side announces an action or an attack. The
    responses stay legal everywhere; this only marks them, so a terminal asks at the points
    that matter unless told to stop at every one.
    """
    top = point.top
    if top is not None and top.controller != side:
        return None
    if resolution:
        return f"nothing of the other side's to answer as {timing.name} resolves"
    if timing.subject is not None and scene.unit(timing.subject).side == side:
        return None
    active = scene.unit(timing.active).side if timing.active else None
    if active is not None and active != side and timing.name in ANNOUNCEMENTS:
        return None
    return f"nothing to answer at {timing.name}"


def _trigger_offers(ctx: Context, unit: Combatant, timing: Timing) -> list[Response]:
    scene: Scene = ctx.state
    out: list[Response] = []
    if not timing.triggers:
        return out
    for trig in unit.sheet.triggers:
        if trig.mandatory:
            continue
        # 战时触发效果: "只要…触发条件发生" — every condition the event meets is offered
        if trig.on not in timing.triggers and not (trig.on == "ally_attacked" and "attacked" in timing.triggers):
            continue
        if trig.on in ("attacked", "damaged", "crashed") and timing.subject != unit.id:
            continue
        if trig.on == "ally_attacked":
            subject = scene.unit(timing.subject) if timing.subject else None
            if subject is None or subject.id == unit.id or subject.side != unit.side:
                continue
        if trig.on == "turn_start" and timing.active != unit.id:
            continue
        if _mana(unit, trig.pool) - _committed(ctx, unit, trig.pool) < trig.cost:
            continue
        fixed = (
            timing.source
            if trig.effect.target == "enemy"
            else (timing.subject if trig.effect.target == "ally" else None)
        )
        for target in _targets(scene, unit, trig.effect, fixed):
            out.append(
                make_response(
                    ctx,
                    unit,
                    trig.name,
                    trig.effect,
                    trig.pool,
                    trig.cost,
                    target,
                    key=("trigger", timing.serial, unit.id, trig.name),
                )
            )
    return out


def _instant_actions(
    ctx: Context, unit: Combatant, contacts: Sequence[str], facts_of: Mapping[str, _SheetFacts]
) -> list[tuple[Any, Callable[..., Response]]]:
    """The instant actions ``unit`` may take now — a rush (跟步), burning invested soul jade —
    each as its key and what makes its response, ``make(at=at)`` with ``at`` (where it is
    offered, see :func:`offers`) in its data: made only if read, it reads only what does not
    change (ids and names). ``contacts``: the ids of the fighting characters of the other side
    at contact distance of her, in scene order (:func:`_contacts`): the only ones she could
    rush. ``facts_of``: the scene's sheets' facts by key (:func:`_sheet_facts`), whose sheets
    are read rather than ``Combatant.sheet`` (a property: hot, every responder of every offer)."""
    scene: Scene = ctx.state
    out: list[tuple[Any, Callable[..., Response]]] = []
    if contacts and not unit.prone and unit.engaged_by is None:
        # hot (every responder at every timing point): her contacts, not the whole scene
        rushing, combatants = unit.rushing, scene.combatants
        for eid in contacts:
            if eid in rushing:
                continue
            enemy = combatants[eid]
            if facts_of[enemy.sheet_key].sheet.flies and not facts_of[unit.sheet_key].sheet.flies:
                continue  # 跟步: only if you can follow the way she moves
            rush = _rush_key(scene, unit, enemy)
            out.append((rush, partial(rush_response, ctx, unit, enemy, key=rush)))
    if scene.boss_fight and unit.ignited:
        for inv in facts_of[unit.sheet_key].sheet.invested:
            if inv.name in unit.converted:
                continue
            burn = ("convert", unit.id, inv.name)
            out.append((burn, partial(_burn_response, ctx, unit, inv.name, inv.jade, burn)))
    return out


def _burn_response(
    ctx: Context, unit: Combatant, name: str, jade: int, key: Any, *, at: Mapping[str, Any]
) -> Response:
    """The second stage of burning the invested ``name`` (燃玉) as a stack item."""
    uid = unit.id
    return Response(
        name=f"{unit.name}: burn {name} into {jade} burn points (燃玉, second stage)",
        controller=unit.side,
        resolve=_burning(ctx, uid, name, jade),
        key=key,
        data={"action": "burn_invested", "unit": uid, "invested": name, "jade": jade, **at},
    )



def _burning(ctx: Context, uid: str, name: str, jade: int) -> Callable[[], None]:
    """What the second stage of burning ``name`` does when it resolves (see :func:`.soul.convert`)."""
    return lambda: convert(ctx, ctx.state.unit(uid), name, jade)


def open_window(
    ctx: Context,
    name: str,
    *,
    active: str | None = None,
    trigger: str | tuple[str, ...] | None = None,
    subject: str | None = None,
    source: str | None = None,
    floor: int | None = None,
) -> Generator[Any, Any, list[Response]]:
    """Open the interrupt window of a timing point (a no-op outside phase 2); ``trigger``: the
    trigger condition(s) the timing point meets; ``floor``: also resolve items pushed before
    the window opened, down to that depth."""
    scene: Scene = ctx.state
    if scene.over or scene.phase != "turns":
        return []
    scene.trigger_serial += 1
    triggers = (trigger,) if isinstance(trigger, str) else tuple(trigger or ())
    answering = bool(triggers) and ctx.interrupts.enabled and _may_trigger(scene, triggers)
    if not answering and _closes_at_once(ctx, floor):
        return []  # most windows: before anything is built for them
    return (yield from _open_window(ctx, name, active, triggers, subject, source, floor, answering))


def _open_window(
    ctx: Context,
    name: str,
    active: str | None,
    triggers: tuple[str, ...],
    subject: str | None,
    source: str | None,
    floor: int | None,
    answering: bool,
) -> Generator[Any, Any, list[Response]]:
    """What :func:`open_window` does once it has found that its window does not close at once
    (its serial counted): ``answering``: some optional triggered effect answers ``triggers``."""
    scene: Scene = ctx.state
    timing = Timing(name, active, triggers, subject, source, scene.trigger_serial)
    first = scene.unit(active).side if active else "heroes"
    order = [first] + [s for s in ("heroes", "foes") if s != first]
    # The players see where they stand: whose turn, or who attacks whom.
    if source and subject:
        shown = f"{name} [{scene.unit(source).name} -> {scene.unit(subject).name}]"
    elif active:
        shown = f"{name} [{scene.unit(active).name}'s turn]"
    else:
        shown = name
    depth = len(ctx.interrupts.items)
    if answering:
        yield from _answer_triggers(ctx, timing, order, shown)
        if _closes_at_once(ctx, floor):
            return []
    resolved = yield from ctx.interrupts.window(
        shown,
        order,
        offers(ctx, timing, shown),
        rule=RULE_INTERRUPT,
        floor=depth if floor is None else floor,
        kind=kinds.RESPOND,
    )
    return resolved


def _may_trigger(scene: Scene, triggers: tuple[str, ...]) -> bool:
    """Whether a fighting character has an optional triggered effect (战时触发效果) answering one
    of ``triggers``: a cheap test, true whenever :func:`_answer_triggers` would offer one (it
    offers only those, and asks nothing when it has none)."""
    # Hot: every turn's turn responses meet "turn_start", and few sheets answer it.
    # The fighting characters (_fighting_characters, Combatant.fighting inline) tested in one
    # loop: no list of them, no generator.
    facts_of = _sheet_facts(scene)
    for u in scene.combatants.values():
        if u.kind == "character" and u.status == ACTIVE and not facts_of[u.sheet_key].answers.isdisjoint(triggers):
            return True
    return False


def open_windows(
    ctx: Context, names: Sequence[str], *, active: str, quiet: bool = False
) -> Generator[Any, Any, bool]:
    """Open the windows of timing points that follow one another with no rule between them
    (``before turn end``, then ``after turn end``), each as :func:`open_window` would, none
    meeting a trigger condition. ``quiet``: the caller knows that they close at once (the
    window just before closed at once, and nothing since changed what anyone may answer).

    Returns:
        Whether they closed at once (so a timing point after them, with no rule between, would
        close at once too).
    """
    scene: Scene = ctx.state
    for index, name in enumerate(names):
        if scene.over or scene.phase != "turns":
            continue  # (as open_window: a no-op)
        if quiet or _closes_at_once(ctx, None):
            # A window that closes at once changes nothing but the serial, so every window after
            # it would close at once too (hot: the test is asked once, not for each).
            scene.trigger_serial += len(names) - index
            return True
        scene.trigger_serial += 1
        yield from _open_window(ctx, name, active, (), None, None, None, False)  # (just tested: not again)
    return False


def _answer_triggers(ctx: Context, timing: Timing, order: list[str], shown: str) -> Generator[Any, Any, None]:
    """The triggered effects answering ``timing``'s conditions: each side picks which of its own
    answer (only what its mana pays for: "只要法术力支持"); they go on the stack together, each
    player ordering her own, so they resolve last in first out once everyone has passed."""
    scene: Scene = ctx.state
    chosen: list[Response] = []
    for side in order:
        mine = [
            r
            for unit in scene
            if unit.side == side and unit.fighting and unit.kind == "character"
            for r in _trigger_offers(ctx, unit, timing)
            if not ctx.interrupts.is_answered(r.key)
        ]
        if not mine:
            continue
        casters = sorted({(r.data["caster"], r.data["pool"]) for r in mine})
        # The options' values are plain indices into ``mine``: a response closes over the
        # live game, and a player must not reach it.
        picks = yield ChooseSubset(
            side=side,
            prompt=f"{shown}: answer which triggered effects (战时触发效果)?",
            options=tuple(Option(i, r.name, data=r.data) for i, r in enumerate(mine)),
            constraint=_payable(ctx, mine),
            rule=RULE_INTERRUPT,
            kind=kinds.TRIGGERS,
            context={
                "timing": timing.name,
                "triggers": timing.triggers,
                "active": timing.active,
                "subject": timing.subject,
                "source": timing.source,
                # what each caster's pool still pays for: the picks together may cost no more
                "mana": [
                    {"caster": c, "pool": p, "available": _mana(scene.unit(c), p) - _committed(ctx, scene.unit(c), p)}
                    for c, p in casters
                ],
            },
        )
        chosen.extend(mine[i] for i in picks)
    yield from ctx.interrupts.push_triggered(chosen, order, rule=RULE_INTERRUPT, kind=kinds.TRIGGER_ORDER)


def _payable(ctx: Context, offered: list[Response]) -> Callable[[tuple[Any, ...]], str | None]:
    """The constraint of a choice among ``offered`` triggered effects (by index): why the
    picks cannot all be paid for together, or ``None``."""
    return lambda picks: _unaffordable(ctx, tuple(offered[i] for i in picks))


def _unaffordable(ctx: Context, picks: tuple[Response, ...]) -> str | None:
    """Why ``picks`` cannot all be paid for together, or ``None``."""
    scene: Scene = ctx.state
    need: dict[tuple[str, str], int] = {}
    for r in picks:
        key = (r.data["caster"], r.data["pool"])
        need[key] = need.get(key, 0) + r.data["cost"]
    for (caster, pool), cost in need.items():
        unit = scene.unit(caster)
        have = _mana(unit, pool) - _committed(ctx, unit, pool)
        if cost > have:
            return f"{unit.name} has {have} {pool} MP for triggered effects costing {cost}"
    return None


def turn_responses(ctx: Context, unit: Combatant, *, quiet: bool = False) -> Generator[Any, Any, bool]:
    """Turn responses (轮响应): the acting unit's mandatory turn-start effects are pushed (its
    player orders simultaneous ones) and resolve, with a window at each resolution point.
    ``quiet``: the caller knows that nobody may answer (the window just before closed at once,
    and nothing since changed what anyone may answer).

    Returns:
        ``True`` only when its window is known to have closed at once (the quiet path, as
        :func:`open_windows` returns it); ``False`` otherwise, even if the window happened to
        close at once (the safe answer: the next window is then tested).
    """
    scene: Scene = ctx.state
    scene.trigger_serial += 1
    serial = scene.trigger_serial
    # (hot: every turn; the sheet's turn responses read from its kept facts, in a loop: the
    # sheet is a property, and a comprehension makes a function and its frame at every call)
    mandatory = []
    for t in _sheet_facts(scene)[unit.sheet_key].turn_responses:
        mandatory.append(
            make_response(
                ctx, unit, t.name, t.effect, t.pool, t.cost, unit, key=("turn response", serial, unit.id, t.name)
            )
        )
    floor = len(ctx.interrupts.items)
    if mandatory:
        yield from ctx.interrupts.push_triggered(
            mandatory, [unit.side], rule=RULE_TURN_RESPONSES, kind=kinds.TURN_RESPONSE_ORDER
        )
    elif quiet and not (ctx.interrupts.enabled and _may_trigger(scene, ("turn_start",))):
        # nothing pushed and no triggered effect to answer "turn_start": the window is one that
        # nobody may answer on an empty stack, and closes at once (open_window, without the test)
        return (yield from open_windows(ctx, ("turn responses",), active=unit.id, quiet=True))
    yield from open_window(ctx, "turn responses", active=unit.id, trigger="turn_start", floor=floor)
    return False
