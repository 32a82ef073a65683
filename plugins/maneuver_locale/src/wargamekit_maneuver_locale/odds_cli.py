"""``wargamekit odds maneuver_locale``: the assault preview at the command line.

Pieces are written as arm letter and steps (``I3`` infantry 3, ``C2`` cavalry 2, ``A1``
artillery 1, or the letter of an add-on's arm with ``--addon``), comma-separated.
"""

from __future__ import annotations

from collections.abc import Mapping

import click

from wargamekit.geometry.locale import ApproachWidth
from wargamekit.plugins import plugin_manager

from .arms import ArmType, arm_types
from .resolution import Combatant, preview_assault
from .scenario import MIN_TERRAIN

__all__ = ["odds", "parse_pieces"]


def _letters(arms: Mapping[str, ArmType]) -> dict[str, ArmType]:
    letters: dict[str, ArmType] = {}
    for arm in arms.values():
        other = letters.setdefault(arm.letter.upper(), arm)
        if other is not arm:
            raise click.UsageError(f"arms {other.key!r} and {arm.key!r} share the letter {arm.letter!r}")
    return letters


def parse_pieces(text: str, prefix: str, arms: Mapping[str, ArmType] | None = None) -> list[Combatant]:
    """``"I3,C2"`` -> combatants named ``<prefix>1``, ``<prefix>2`` … (``arms``: the arms in
    play by key, :func:`.arms.arm_types`; default the source's three).

    >>> parse_pieces("I3,C2", "a")
    [Combatant(id='a1', arm=Arm.INFANTRY, steps=3), Combatant(id='a2', arm=Arm.CAVALRY, steps=2)]
    """
    letters = _letters(arm_types() if arms is None else arms)
    out = []
    for i, item in enumerate(t for t in text.replace(" ", "").split(",") if t):
        arm = letters.get(item[:1].upper())
        if arm is None or not item[1:].isdigit() or int(item[1:]) < 1:
            known = ", ".join(f"{a.letter} {a.key}" for a in letters.values())
            raise click.BadParameter(f"{item!r}: write a piece as I3, C2 or A1: arm letter and steps ({known})")
        out.append(Combatant(f"{prefix}{i + 1}", arm, int(item[1:])))
    return out


@click.command("maneuver_locale")
@click.option("--leading", required=True, help="the attacker's leading pieces, e.g. I3,I2")
@click.option("--defenders", default="", help="pieces on the blocking approach, e.g. I2,C2")
@click.option("--guns", default="", help="defending guns able to fire, e.g. A2")
@click.option("--others", default="", help="the attacker's other pieces on its approach (pursuit), e.g. C2")
@click.option(
    "--defender-others",
    default="",
    help="the defender's other pieces in its locale (reserve, other approaches): cavalry there stops a pursuit, e.g. C2",
)
@click.option("--width", type=click.Choice(["narrow", "wide"]), default="wide", show_default=True)
@click.option(
    "--terrain",
    type=click.IntRange(min=MIN_TERRAIN),
    default=0,
    show_default=True,
    help="the defender's terrain effect (0 or more, as scenario approaches have)",
)
@click.option("--addon", "addons", multiple=True, metavar="NAME",
              help="an installed add-on whose arms and assault modifiers count (repeatable)")
def odds(
    leading: str, defenders: str, guns: str, others: str, defender_others: str, width: str, terrain: int,
    addons: tuple[str, ...] = (),
) -> None:
    """Preview an assault (Assaults): the outcome under every legal defender response."""
    hooks = plugin_manager(addons=list(addons)).hook if addons else None
    arms = arm_types(hooks)
    try:
        lines = preview_assault(
            parse_pieces(leading, "a", arms),
            parse_pieces(defenders, "d", arms),
            width=ApproachWidth(width),
            terrain=terrain,
            attacker_others=parse_pieces(others, "o", arms),
            defender_guns=parse_pieces(guns, "g", arms),
            defender_others=parse_pieces(defender_others, "r", arms),
            hooks=hooks,
        )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    wins = sum(1 for line in lines if line.retreat)
    click.echo(f"{len(lines)} defender responses; the attacker wins under {wins} of them")
    for line in lines:
        click.echo("  " + line.describe())
