"""``wargamekit odds maneuver_locale``: the assault preview at the command line.

Pieces are written as arm letter and steps (``I3`` infantry 3, ``C2`` cavalry 2, ``A1``
artillery 1), comma-separated.
"""

from __future__ import annotations

import click

from wargamekit.geometry.locale import ApproachWidth

from .resolution import Combatant, preview_assault
from .scenario import MIN_TERRAIN, Arm

__all__ = ["odds", "parse_pieces"]

_ARMS = {"I": Arm.INFANTRY, "C": Arm.CAVALRY, "A": Arm.ARTILLERY}


def parse_pieces(text: str, prefix: str) -> list[Combatant]:
    """``"I3,C2"`` -> combatants named ``<prefix>1``, ``<prefix>2`` …

    >>> parse_pieces("I3,C2", "a")
    [Combatant(id='a1', arm=Arm.INFANTRY, steps=3), Combatant(id='a2', arm=Arm.CAVALRY, steps=2)]
    """
    out = []
    for i, item in enumerate(t for t in text.replace(" ", "").split(",") if t):
        arm = _ARMS.get(item[:1].upper())
        if arm is None or not item[1:].isdigit() or int(item[1:]) < 1:
            raise click.BadParameter(f"{item!r}: write a piece as I3, C2 or A1 (arm letter and steps)")
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
def odds(
    leading: str, defenders: str, guns: str, others: str, defender_others: str, width: str, terrain: int
) -> None:
    """Preview an assault (Assaults): the outcome under every legal defender response."""
    try:
        lines = preview_assault(
            parse_pieces(leading, "a"),
            parse_pieces(defenders, "d"),
            width=ApproachWidth(width),
            terrain=terrain,
            attacker_others=parse_pieces(others, "o"),
            defender_guns=parse_pieces(guns, "g"),
            defender_others=parse_pieces(defender_others, "r"),
        )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    wins = sum(1 for line in lines if line.retreat)
    click.echo(f"{len(lines)} defender responses; the attacker wins under {wins} of them")
    for line in lines:
        click.echo("  " + line.describe())
