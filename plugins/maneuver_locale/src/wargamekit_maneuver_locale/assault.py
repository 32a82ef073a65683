"""Assaults: from an approach against the enemy's blocking approach (1 command).

Steps, in the source's order: the attacker chooses and reveals its leading pieces; defensive
artillery fire (防御砲撃); the defender chooses and reveals its leading pieces (0 allowed);
the result (判定); losses (損害適用); cavalry pursuit (騎兵の追撃); aftermath (後処理).
The arithmetic is in :mod:`.resolution` (pure functions); this module applies it.

Who pursues and who loses (騎兵の追撃), from the source's wording by side: the attacker's cavalry
that did not lead may pursue when the defending side (防御側) has no cavalry, and the
non-pursuing side (非追撃側) loses the cavalry's steps. The defending side is every piece in
the defending locale — the blocking approach, the reserve and the other approaches — counted
after the losses; so cavalry in the defending reserve stops a pursuit, and an assault that
wipes out the blocking approach may still be followed by a pursuit of the locale's other
pieces.

The pieces taking part (攻撃に参加するapproachのpiece) are all the attacker's pieces on its
approach, whether or not they moved this turn (the source sets no such condition; guns that
fired this turn stay out, since they may not move), and the defender's pieces on the blocking
approach.

Provisional (not from the source): the leading-piece limit and pursuit limit use the width of
the assaulted (defender's) approach; defensive fire comes from the defender's guns on the
blocking approach, each taking its steps off the attacker's leading pieces (the defender
choosing among them) before the result; only an attacker that won pursues (the source's
condition names the defender's cavalry, so only the attacker can pursue; that it must have won
is read from the word 追撃, pursuit); the pursuit's losses fall on the defending locale's
pieces, their owner spreading them, with the assaulted approach's terrain effect; each pursuing
cavalry piece loses 1 step.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from wargamekit import Decision, IllegalChoiceError, Response

from . import kinds, rules
from .changes import lose_step, only_arm, piece_subset, place, reveal, take_losses
from .movement import cavalry_onto_approach
from .resolution import (
    ATTACKER,
    Combatant,
    PreviewLine,
    assault_modifier,
    leading_limit,
    leading_problem,
    preview_assault,
    pursuit_losses,
    resolve_assault,
)
from .retreats import retreat_locale
from .scenario import Arm
from .state import RESERVE, Context, GameState, Occupancy, Piece

__all__ = ["assault", "assault_preview", "can_assault", "combatant", "defensive_guns", "participants"]


#: What a preview assumes a face-down enemy piece to be.
HIDDEN_GUESS = Combatant("?", Arm.INFANTRY, 2)


def combatant(p: Piece) -> Combatant:
    """The combat view of a piece (full information: only for the game itself)."""
    assert p.arm is not None and p.steps is not None
    return Combatant(p.id, p.arm, p.steps)


def participants(state: GameState, side: str, locale: str, target: str, occ: Occupancy | None = None) -> list[Piece]:
    """The attacker's pieces that take part: ``side``'s pieces on the approach of ``locale``
    facing ``target`` (攻撃に参加するapproachのpiece), moved this turn or not — the source does
    not keep pieces that moved out of an assault — except guns that fired this turn, which may
    not move (Artillery Bombardment) and so cannot follow the assault's aftermath. ``occ``: the
    state's :class:`~.state.Occupancy`, if the caller has one."""
    return [
        p
        for p in (state if occ is None else occ).at(locale, target)
        if p.side == side and not (p.arm is not None and p.arm.gun and p.last_fired == state.player_turn)
    ]


def defensive_guns(state: GameState, locale: str, facing: str) -> list[Piece]:
    """Guns on the blocking approach that may fire (防御砲撃): they neither fired nor declared
    a bombardment in the previous turn (nor fired this turn), and are not declared now."""
    pt = state.player_turn
    return [
        p
        for p in state.at(locale, facing)
        if p.arm is not None and p.arm.gun and not p.declared and p.last_fired < pt - 1 and p.last_declared < pt - 1
    ]


def can_assault(state: GameState, side: str, locale: str, target: str, occ: Occupancy | None = None) -> bool:
    """Whether ``side`` may assault from ``locale``'s approach facing ``target`` now.
    ``occ``: the state's :class:`~.state.Occupancy`, if the caller has one (the action menu
    asks this of every approach ``side`` stands on)."""
    where: GameState | Occupancy = state if occ is None else occ
    if state.commands < 1 or not where.blocked(locale, target, side):
        return False
    # the strongest piece that may lead (the first of equals) leads alone if any can: some
    # leading piece needs 2+ steps (hot: asked of every blocked approach in every action menu,
    # so the other pieces are not made Combatants)
    leader = max((p for p in participants(state, side, locale, target, occ) if p.arm is not None and p.arm.leads),
                 key=lambda p: p.steps or 0, default=None)
    return (
        leader is not None
        and (leader.steps or 0) >= 2
        and leading_problem([combatant(leader)], state.board.width(target, locale), attacker=True) is None
    )


def assault(ctx: Context, side: str, locale: str, target: str) -> Generator[Decision, Any, str]:
    """Resolve an assault; returns the winner (``"attacker"`` or ``"defender"``)."""
    state = ctx.state
    names = state.board.names
    enemy = state.enemy(side)
    if not can_assault(state, side, locale, target):
        raise IllegalChoiceError(rules.ASSAULT, f"no assault is possible from {names[locale]} against {names[target]}")
    state.commands -= 1
    width = state.board.width(target, locale)
    terrain = state.board.terrain(target, locale)
    limit = leading_limit(width)
    attackers = participants(state, side, locale, target)
    defenders = [p for p in state.at(target, locale) if p.side == enemy]
    where = {"locale": locale, "target": target}
    ctx.event(
        "assault",
        f"{side} assaults from {names[locale]} against {names[target]} ({width.value} approach, terrain {terrain})",
        side=side,
        locale=locale,
        target=target,
        width=width.value,
        terrain=terrain,
    )

    def choose_leading(who: str, pieces: list[Piece], attacker: bool) -> Generator[Decision, Any, list[Piece]]:
        """Assaults — leading pieces: chosen, then revealed."""

        def problem(ids: tuple[str, ...]) -> str | None:
            return leading_problem([combatant(state.pieces[i]) for i in ids], width, attacker=attacker)

        span = f"up to {limit}" if attacker else f"0 to {limit}"
        ids = yield piece_subset(
            who,
            f"Assault on {names[target]}: choose your leading pieces ({span}, revealed)",
            pieces,
            rule=rules.LEADING if attacker else rules.DEFENDER_LEADING,
            kind=kinds.LEADING,
            context={
                **where,
                "role": "attacker" if attacker else "defender",
                "width": width.value,
                "terrain": terrain,
                "limit": limit,
            },
            min_count=1 if attacker else 0,
            max_count=limit,
            constraint=problem,
        )
        chosen = [state.pieces[i] for i in ids]
        reveal(ctx, chosen, f"Assaults: the {'attacker' if attacker else 'defender'}'s leading pieces")
        return chosen

    # 1. the attacker's leading pieces
    a_lead = yield from choose_leading(side, attackers, True)

    # 2. defensive artillery fire: a response window of the defender. It is offered at every
    # assault (the guns are chosen inside), so being asked reveals nothing about the defence.
    guns = defensive_guns(state, target, locale)

    def fire() -> Generator[Decision, Any, None]:
        chosen = yield piece_subset(
            enemy,
            "Defensive fire: which of your guns fire (none for none)?",
            guns,
            rule=rules.DEFENSIVE_FIRE,
            kind=kinds.DEFENSIVE_GUNS,
            context=where,
            secret=True,
        )
        for gun_id in chosen:
            gun = state.pieces[gun_id]
            reveal(ctx, [gun], "Assaults: defensive fire")
            gun.last_fired = state.player_turn
            yield from take_losses(
                ctx,
                [p for p in a_lead if p.id in state.pieces],
                gun.steps or 0,
                chooser=enemy,
                rule=rules.DEFENSIVE_FIRE,
                why=f"defensive fire of {gun.id}",
                cause="defensive_fire",
            )

    # one response per window: the player turn and the window's number in it
    state.windows += 1
    response = Response(
        "defensive artillery fire",
        enemy,
        resolve=fire,
        key=("fire", state.player_turn, state.windows),
        data={"response": "defensive_fire", **where},
    )
    yield from ctx.interrupts.window(
        f"assault on {names[target]}",
        [enemy],
        lambda s, point: [response] if s == enemy else [],
        rule=rules.DEFENSIVE_FIRE,
        kind=kinds.DEFENSIVE_FIRE,
    )

    # 3. the defender's leading pieces (0 allowed)
    fighters = [p for p in defenders if p.id in state.pieces and p.arm is not None and p.arm.leads]
    d_lead = yield from choose_leading(enemy, fighters, False)

    # 4. result
    a_alive = [p for p in a_lead if p.id in state.pieces]
    a_fighting, d_fighting = [combatant(p) for p in a_alive], [combatant(p) for p in d_lead]
    modifier = assault_modifier(ctx.hooks, a_fighting, d_fighting, terrain)
    r = resolve_assault(a_fighting, d_fighting, terrain=terrain, modifier=modifier)
    attacker_won = r.winner == ATTACKER
    added = (f" {r.arm_bonus:+d} (arms)" if r.arm_bonus else "") + (f" {r.modifier:+d} (add-ons)" if r.modifier else "")
    ctx.event(
        "assault-result",
        f"result {r.attack_steps} - terrain {r.terrain} - {r.defence_steps}{added} = {r.result:+d}: "
        f"{'the attacker' if attacker_won else 'the defender'} wins",
        result=r.result,
        winner=r.winner,
        attacker_losses=r.attacker_losses,
        defender_losses=r.defender_losses,
    )

    # 5. losses: leading pieces first (the enemy chooses among them), then the others (the owner)
    for owner, lead, group, n in (
        (side, a_alive, attackers, r.attacker_losses),
        (enemy, d_lead, defenders, r.defender_losses),
    ):
        foe = state.enemy(owner)
        lost = yield from take_losses(
            ctx,
            lead,
            n,
            chooser=foe,
            rule=rules.LOSSES,
            why=f"losses of {owner}'s leading pieces",
            cause="assault_leading",
        )
        rest = [p for p in group if p not in lead]
        yield from take_losses(
            ctx,
            rest,
            n - lost,
            chooser=owner,
            rule=rules.LOSSES,
            why=f"further losses of {owner}",
            cause="assault_others",
        )

    # 6. cavalry pursuit (騎兵の追撃), worded by side: the attacker's cavalry that did not lead may
    # pursue when the defending side (防御側: every piece in the defending locale, its reserve
    # and other approaches included) has no cavalry; the non-pursuing side (非追撃側) loses the
    # steps. Only the attacker can pursue (the condition names the defender's cavalry), and only
    # after it wins (a pursuit chases a beaten enemy — a reading of the word 追撃).
    d_side = [p for p in state.at(target) if p.side == enemy]
    spare = [p for p in attackers if p.id in state.pieces and p not in a_lead]
    if attacker_won and spare and d_side:
        chasers = yield piece_subset(
            side,
            f"Cavalry pursuit: which unused cavalry pursue (up to {limit}; none for none)?",
            spare,
            rule=rules.PURSUIT,
            kind=kinds.PURSUIT,
            context={**where, "limit": limit},
            max_count=limit,
            constraint=only_arm(state, "pursues", "only cavalry that did not lead may pursue"),
        )
        if chasers:
            riders = [state.pieces[i] for i in chasers]
            reveal(ctx, riders, "Assaults: pursuing cavalry")
            # Asked whatever the defence holds (its pieces may be face-down), so the question
            # tells the attacker nothing; the answer is checked here.
            if any(p.arm is not None and p.arm.pursues for p in d_side):
                ctx.event("pursuit", f"no pursuit: {enemy} has cavalry in {names[target]}", side=side)
            else:
                n = pursuit_losses(sum(p.steps or 0 for p in riders), terrain)
                ctx.event("pursuit", f"{side} pursues: {enemy} loses {n} step(s)", side=side, losses=n)
                yield from take_losses(
                    ctx, d_side, n, chooser=enemy, rule=rules.PURSUIT, why="cavalry pursuit", cause="pursuit"
                )
                for rider in riders:
                    lose_step(ctx, rider, "cavalry pursuit: the pursuer loses 1 step")

    # 7. aftermath
    survivors = [p for p in attackers if p.id in state.pieces]
    occ = Occupancy.of(state)  # the live index follows (it counts the unmoved pieces)
    for p in survivors:
        occ.mark_moved(p)
    if attacker_won:
        yield from retreat_locale(ctx, target, locale)
        state.won_by_assault[target] = [p.id for p in survivors]
        # 後処理: *all* the pieces that took part move into the reserve (攻撃に参加した全てのpiece),
        # even beyond the locale's (provisional) capacity, which only limits moves and retreats.
        if survivors:
            place(ctx, survivors, target, RESERVE, "the attackers enter (assault aftermath, 後処理)")
            yield from cavalry_onto_approach(ctx, side, survivors, target)
    elif survivors:
        place(ctx, survivors, locale, RESERVE, "the attackers fall back to the reserve (assault aftermath, 後処理)")
    return r.winner


def assault_preview(
    view: GameState,
    locale: str,
    target: str,
    leading: list[str],
    *,
    hidden_as: Combatant | None = None,
    hooks: Any = None,
) -> list[PreviewLine]:
    """Preview an assault in a position before committing to it (Assaults).

    Works on a side's view: the attacker's own pieces are known; the defender's face-down
    pieces are unknown and are counted as ``hidden_as`` (default :data:`HIDDEN_GUESS`, 2-step infantry), both as
    possible leading pieces and as possible guns' targets — hidden guns cannot be seen, so
    only face-up guns appear as defensive fire. The rest of the defending locale (its reserve
    and other approaches) counts for the pursuit: cavalry there stops it.

    Args:
        view: the state or a side's view of it.
        locale: the attacker's locale (its approach faces ``target``).
        target: the defending locale.
        leading: ids of the attacker's chosen leading pieces.
        hooks: the plugin hooks (``view.hooks``): add-ons' assault modifiers count.

    Returns:
        One :class:`~.resolution.PreviewLine` per defender response.
    """

    guess = hidden_as or HIDDEN_GUESS

    def known(p: Piece) -> Combatant:
        if p.arm is None or p.steps is None:
            return Combatant(p.id, guess.arm, guess.steps)
        return Combatant(p.id, p.arm, p.steps)

    mine = [p for p in view.at(locale, target) if p.side == view.active or p.id in leading]
    lead = [known(view.pieces[i]) for i in leading]
    others = [known(p) for p in mine if p.id not in leading]
    attacker = view.pieces[leading[0]].side if leading else view.active
    theirs = [known(p) for p in view.at(target, locale) if p.side != attacker]
    rest = [known(p) for p in view.at(target) if p.side != attacker and p.approach != locale]
    guns = [
        known(p)
        for p in view.at(target, locale)
        if p.side != attacker
        and p.arm is not None
        and p.arm.gun
        and p.id in {g.id for g in defensive_guns(view, target, locale)}
    ]
    return preview_assault(
        lead,
        theirs,
        width=view.board.width(target, locale),
        terrain=view.board.terrain(target, locale),
        attacker_others=others,
        defender_guns=guns,
        defender_others=rest,
        hooks=hooks,
    )
