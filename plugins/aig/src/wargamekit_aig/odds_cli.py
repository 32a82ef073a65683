"""``wargamekit odds aig``: exact odds of a volley (§9), a shock (provisional §10), a momentum or
seize attempt (§5.3, §5.4) and a morale / rout check."""

from __future__ import annotations

import click

from wargamekit.geometry import Arc
from wargamekit_aig import odds_calc
from wargamekit_aig.melee import Shock
from wargamekit_aig.missile import Shot
from wargamekit_aig.scenario import UNIT_TYPES, Tables


@click.command(name="aig")
@click.option("--what", type=click.Choice(["missile", "shock", "momentum", "seize", "check"]), default="missile",
              show_default=True)
@click.option("--number", default=4, show_default=True, help="missile: the table's hit number (D3).")
@click.option("--arc", type=click.Choice(["front", "flank", "rear"]), default="front", show_default=True)
@click.option("--attacker", type=click.Choice(UNIT_TYPES), default="HI", show_default=True)
@click.option("--defender", type=click.Choice(UNIT_TYPES), default="MI", show_default=True)
@click.option("--initiative", default=4, show_default=True, help="momentum / seize: the leader's initiative.")
@click.option("--cohesion", default=5, show_default=True, help="check: the unit's cohesion.")
def odds_command(what: str, number: int, arc: str, attacker: str, defender: str, initiative: int,
                 cohesion: int) -> None:
    """Exact odds of an AIG roll."""
    if what == "missile":
        shot = Shot(base=number, arc=Arc[arc.upper()])
        p = odds_calc.missile_odds(shot)[True]
        click.echo(f"volley needing {shot.number} or less on a d10 (0-9): hit {p} ({float(p):.1%})")
    elif what == "shock":
        shock = Shock(attacker, defender, tuple(sorted(Tables().shock_value.items())), Arc[arc.upper()])
        click.echo(f"{attacker} attacks {defender} ({arc}): column {shock.column:+d}")
        for (a, d), p in odds_calc.shock_odds(shock).items():
            click.echo(f"attacker {a} defender {d}: {p} ({float(p):.1%})")
    elif what == "momentum":
        for result, p in odds_calc.momentum_odds(initiative).items():
            click.echo(f"{result}: {p} ({float(p):.1%})")
    elif what == "seize":
        p = odds_calc.seize_odds(initiative)
        click.echo(f"seize with initiative {initiative}: {p} ({float(p):.1%})")
    else:
        p = odds_calc.check_odds(cohesion)
        click.echo(f"check against cohesion {cohesion}: passes {p} ({float(p):.1%})")
