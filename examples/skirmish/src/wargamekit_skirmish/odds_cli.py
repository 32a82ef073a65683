"""``wargamekit odds skirmish``: the exact odds of one shot (5.2)."""

from __future__ import annotations

import click

from wargamekit import odds
from wargamekit.geometry import Arc
from wargamekit_skirmish.fire import BLOCKING_WOODS, Shot, resolve_fire
from wargamekit_skirmish.scenario import MAX_FIREPOWER, MAX_RANGE, MIN_FIREPOWER


@click.command(name="skirmish")
@click.option("--firepower", type=click.IntRange(MIN_FIREPOWER - 1, MAX_FIREPOWER), default=2, show_default=True,
              help="The firer's firepower (one less when damaged).")
@click.option("--range", "range_", type=click.IntRange(1, MAX_RANGE), default=2, show_default=True,
              help="Range in hexes.")
@click.option("--hindrance", type=click.IntRange(0, BLOCKING_WOODS - 1), default=0, show_default=True,
              help="Woods hexes between (two or more block the line of sight).")
@click.option("--cover", is_flag=True, help="The target is in woods.")
@click.option("--arc", type=click.Choice(["front", "flank", "rear"]), default="front", show_default=True)
@click.option("--snap", is_flag=True, help="Reaction (snap) fire.")
def odds_command(firepower: int, range_: int, hindrance: int, cover: bool, arc: str, snap: bool) -> None:
    """Exact odds of a skirmish shot."""
    shot = Shot(firepower, range_, hindrance, int(cover), Arc[arc.upper()], snap)
    click.echo(f"2d6 {shot.modifier:+d}: 12+ kills, 8+ hits (natural 2 misses, natural 12 kills)")
    for effect, p in odds.distribution(resolve_fire, shot).items():
        click.echo(f"{effect.name:5} {str(p):>6}  {float(p):6.1%}")

