"""``wargamekit odds lnl``: exact odds of a fire attack, a melee, a rally and a sniper shot."""

from __future__ import annotations

import click

from wargamekit import odds
from wargamekit_lnl import fire, melee, sniper
from wargamekit_lnl.rules import rally_roll


@click.group(name="lnl")
def odds_command() -> None:
    """Exact odds for Lock 'n Load tactical (FPR, MEL, RAL, SMC 2)."""


@odds_command.command(name="fire")
@click.option("--fp", default=2, show_default=True, help="Total firepower (FPR 2).")
@click.option("--drm", default=0, show_default=True, help="Attacker DRM: leadership − hindrance (+1 vs a mover).")
@click.option("--terrain", default=0, show_default=True, help="Defender terrain DRM (≤ 4, FPR 3).")
@click.option("--leadership", default=0, show_default=True, help="The target hex's leadership (FPR 4).")
@click.option("--kind", default="squad", show_default=True,
              type=click.Choice(["squad", "half", "team", "leader", "hero", "medic", "scout"]))
@click.option("--morale", default=5, show_default=True)
@click.option("--shaken", is_flag=True, help="The target is already shaken.")
def fire_odds(fp: int, drm: int, terrain: int, leadership: int, kind: str, morale: int, shaken: bool) -> None:
    """The whole outcome of a fire attack on one unit: damage-check result and hero creation."""
    attack = fire.Attack(fp, drm, min(terrain, 4), leadership)
    target = fire.Target(kind, morale, shaken, False, kind in ("squad", "half"))
    for (result, hero), p in odds.distribution(fire.one_target, attack, target).items():
        click.echo(f"{result + (' + hero' if hero else ''):20} {str(p):>9}  {float(p):6.1%}")


@odds_command.command(name="melee")
@click.option("--attack", default=4, show_default=True, help="Attacker melee FP (MEL 5).")
@click.option("--defence", default=2, show_default=True, help="Defender melee FP (MEL 6).")
@click.option("--drm", default=0, show_default=True, help="Leadership − 0-FP counters (MEL 7.1, 8.1).")
@click.option("--shift", default=0, show_default=True, help="Hero column shift (MEL 7.2).")
def melee_odds(attack: int, defence: int, drm: int, shift: int) -> None:
    """The chance that a melee attack eliminates the defenders."""
    r = melee.MeleeRound(attack, defence, drm, shift)
    p = odds.probability(melee.resolve_round, r)
    click.echo(f"column {r.column}, kill number {r.kill}: defenders eliminated {p} ({float(p):.1%})")


@odds_command.command(name="rally")
@click.option("--morale", default=5, show_default=True)
@click.option("--leadership", default=0, show_default=True)
@click.option("--favourable", is_flag=True, help="Favourable terrain (−2, RAL 2.1b).")
def rally_odds(morale: int, leadership: int, favourable: bool) -> None:
    """The chance of a rally roll (RAL 2.1)."""
    p = odds.probability(rally_roll, morale, leadership + (2 if favourable else 0))
    click.echo(f"rallies {p} ({float(p):.1%})")


@odds_command.command(name="sniper")
@click.option("--drm", default=0, show_default=True, help="Target terrain DRM + 1 per hindering hex (D8).")
@click.option("--kind", default="squad", show_default=True,
              type=click.Choice(["squad", "half", "team", "leader", "hero", "medic", "scout", "sniper"]))
@click.option("--morale", default=5, show_default=True)
@click.option("--shaken", is_flag=True, help="The target is already shaken.")
@click.option("--casualty", default=4, show_default=True, help="The table's casualty number (D8).")
@click.option("--shaken-at", "shaken_at", default=6, show_default=True, help="The table's shaken number (D8).")
def sniper_odds(drm: int, kind: str, morale: int, shaken: bool, casualty: int, shaken_at: int) -> None:
    """The outcome of a sniper shot at one unit (SMC 2.3, provisional table D8)."""
    shot = sniper.SniperShot(drm, casualty, shaken_at, fire.Target(kind, morale, shaken))
    for result, p in sniper.snipe_odds(shot).items():
        click.echo(f"{result:20} {str(p):>9}  {float(p):6.1%}")
