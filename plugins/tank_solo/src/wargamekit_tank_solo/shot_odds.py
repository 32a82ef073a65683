"""Exact odds of a shot, for players: :func:`hit_and_kill` and the ``wargamekit odds tank_solo``
command.

>>> odds = hit_and_kill("aimed", 8, "germany", attack=8, armour=17, special="fin")
>>> odds.hit, odds.kill          # 6 + d6 + 1 >= 8; then 2d6 + 8 >= 17
(Fraction(1, 1), Fraction(5, 18))
>>> hit_and_kill("leap", 6, "usa", attack=6, armour=12).hit    # 2d6 - 2 >= 6
Fraction(5, 12)
"""

from __future__ import annotations

from typing import Any

from wargamekit.errors import InvalidChoiceError

from .fire import FIRE_TYPES, Shot, ShotOdds, fire_type_modifier, shot_odds, with_addons
from .optional_rules import other_hit_modifier_bounds
from .special_rounds import round_kinds
from .vehicles import CLASSES, NATIONS, table_bounds

__all__ = ["hit_and_kill", "odds_command"]


def hit_and_kill(
    fire: str,
    range: int,  # noqa: A002 - the rulebook's word
    nation: str,
    *,
    attack: int,
    armour: int,
    special: str | None = None,
    firer_class: str = "medium",
    modifier: int = 0,
    ammo_rule: bool = False,
    hooks: Any = None,
) -> ShotOdds:
    """Exact probabilities of one shot.

    Args:
        fire: ``"aimed"``, ``"leap"``, ``"defensive"`` or ``"advance"``.
        range: hexes to the target (its hex counted, the firer's not).
        nation: the firer's nation (Germany aimed +1, US leap -2, UK defensive -1, Soviet advance 0).
        attack: the gun's attack.
        armour: the target's armour.
        special: ``None``, ``"overloaded"``, ``"fin"``, ``"hesh"`` or an add-on's round.
        firer_class: the firer's class (matters for the overloaded charge).
        modifier: any other hit modifier (veteran gunner, the target's forced-spotting marker).
        ammo_rule: with the ammunition shortage rule on (its probability is reported).
        hooks: the plugin hooks (``pm.hook``, ``view.hooks``): the add-ons' rounds and modifier
            hooks count (the latter told ``state=None, firer=None, target=None``).

    Returns:
        :class:`~wargamekit_tank_solo.fire.ShotOdds` with exact fractions.
    """
    if nation not in NATIONS:
        raise ValueError(f"unknown nation {nation!r}; nations are {list(NATIONS)}")
    rounds = round_kinds(hooks)
    if special is not None and special not in rounds:
        raise ValueError(f"unknown special round {special!r}; kinds are {list(rounds)}")
    bounds = table_bounds(hooks)
    if not 1 <= range <= bounds.max_range:
        raise InvalidChoiceError(f"range {range}: a shot's range is 1 (the target's hex counts) to "
                                 f"{bounds.max_range} (the longest gun in the vehicle table)")
    for name, value, (low, high) in (("attack", attack, bounds.attack), ("armour", armour, bounds.armour)):
        if not low <= value <= high:
            raise InvalidChoiceError(f"{name} {value}: the vehicle table's {name} runs from {low} to {high}")
    low, high = _modifier_bounds()
    if not low <= modifier <= high:
        raise InvalidChoiceError(f"modifier {modifier}: other hit modifiers (veteran gunner, forced spotting) "
                                 f"run from {low} to {high} in the default scenario")
    shot = Shot(range=range, hit_modifier=fire_type_modifier(fire, nation) + modifier, attack=attack,
                armour=armour, firer_class=firer_class, special=special, ammo_rule=ammo_rule)
    return shot_odds(with_addons(shot, fire, hooks))


def _modifier_bounds() -> tuple[int, int]:
    """:func:`~wargamekit_tank_solo.optional_rules.other_hit_modifier_bounds` for the default
    scenario's force size and turn limit."""
    from .scenario import TankSoloScenario

    s = TankSoloScenario()
    return other_hit_modifier_bounds(s.max_tanks, s.turn_limit)


def odds_command() -> Any:
    """The click command mounted as ``wargamekit odds tank_solo``."""
    import click

    low, high = _modifier_bounds()

    @click.command("tank_solo")
    @click.option("--fire", type=click.Choice(FIRE_TYPES), default="aimed", show_default=True, help="form of fire")
    @click.option("--range", "range_", type=int, required=True,
                  help="hexes to the target (up to the longest gun range in the vehicle table)")
    @click.option("--nation", type=click.Choice(NATIONS), default="germany", show_default=True, help="firer's nation")
    @click.option("--attack", type=int, required=True, help="the gun's attack (as in the vehicle table)")
    @click.option("--armour", type=int, required=True, help="the target's armour (as in the vehicle table)")
    @click.option("--special", default=None, help="special round (overloaded, fin, hesh, or an add-on's)")
    @click.option("--firer-class", type=click.Choice(CLASSES), default="medium", show_default=True)
    @click.option("--modifier", type=click.IntRange(low, high), default=0, show_default=True,
                  help="other hit modifiers (veteran gunner, the target's forced-spotting marker)")
    @click.option("--addon", "addons", multiple=True, metavar="NAME",
                  help="count an installed add-on's rounds and modifiers (repeatable)")
    def command(fire: str, range_: int, nation: str, attack: int, armour: int, special: str | None,
                firer_class: str, modifier: int, addons: tuple[str, ...]) -> None:
        """Exact hit and kill probability of one tank_solo shot."""
        from wargamekit.plugins import plugin_manager

        hooks = plugin_manager(addons=list(addons)).hook if addons else None
        try:
            odds = hit_and_kill(fire, range_, nation, attack=attack, armour=armour, special=special,
                                firer_class=firer_class, modifier=modifier, ammo_rule=True, hooks=hooks)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None
        click.echo(f"{fire} fire, range {range_}, {nation}, attack {attack} vs armour {armour}"
                   + (f", {special}" if special else ""))
        rows = [("hit", odds.hit), ("kill", odds.kill)]
        if special == "hesh":
            rows += [("immobilise", odds.immobilise), ("weapon destroyed", odds.disarm)]
        rows.append(("ammo shortage (natural 12)", odds.ammo_shortage))
        for name, p in rows:
            click.echo(f"  {name:<27} {float(p):7.2%}  ({p})")

    return command
