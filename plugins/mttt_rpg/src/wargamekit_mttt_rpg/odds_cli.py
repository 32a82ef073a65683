"""``wargamekit odds mttt_rpg``: exact odds of an attack before committing to it.

Example::

    wargamekit odds mttt_rpg --scene duel --attacker kyo --target akari --kind decisive --initiative 15

The attacker's and target's state is taken from the scene's start (initiative as given), so the
numbers are the same as :func:`wargamekit_mttt_rpg.preview_attack` on that position.
"""

from __future__ import annotations

import click

from wargamekit import Game
from wargamekit.plugins import plugin_manager

from .attack import DECISIVE, WITHERING
from .defense import DEFENSE_MODES
from .initiative import set_initiative
from .odds import preview_attack
from .ruleset import MtttRpg

__all__ = ["odds_command", "odds_text"]


def odds_text(
    *,
    scene: str = "default",
    attacker: str,
    target: str,
    kind: str = WITHERING,
    mode: str = "passive",
    initiative: int | None = None,
    target_initiative: int | None = None,
    charge: int = 0,
    defense_charge: int = 0,
    addons: tuple[str, ...] = (),
) -> str:
    """The text the command prints (a function, so it is testable without click).

    >>> print(odds_text(scene="duel", attacker="kyo", target="akari", kind="decisive", initiative=15))
    Kyo -> Akari (passive defense), decisive
    decisive attack: hit 60.0%, expected 4.80 HP damage
      damage distribution: 0: 40.0%, 8: 60.0%
    """
    ruleset = MtttRpg()
    if scene not in ruleset.scenario_names():
        raise click.BadParameter(f"no bundled scene {scene!r}; scenes are {', '.join(ruleset.scenario_names())}",
                                 param_hint="'--scene'")
    # The add-ons asked for (by entry-point name) change the odds as they change play.
    pm = plugin_manager(addons=list(addons)) if addons else None
    game = Game.new(ruleset, scene, seed=0, plugin_manager=pm)
    state = game.state
    for uid, value in ((attacker, initiative), (target, target_initiative)):
        if uid not in state.combatants:
            raise click.BadParameter(
                f"no combatant {uid!r} in scene {scene!r}; it has {sorted(state.combatants)}"
            )
        if value is not None:
            set_initiative(game.context, state.unit(uid), value, why="odds query")
    a, t = state.unit(attacker), state.unit(target)
    odds = preview_attack(
        state, attacker, target, kind, mode=mode, charge=charge, defense_charge=defense_charge, hooks=game.hooks
    )
    return f"{a.name} -> {t.name} ({mode} defense), {kind}\n{odds.describe()}"


def odds_command() -> click.Command:
    """The click command mounted as ``wargamekit odds mttt_rpg``."""

    @click.command("mttt_rpg")
    @click.option("--scene", default="default", show_default=True, help="bundled scene")
    @click.option("--attacker", required=True, help="attacker's unit id")
    @click.option("--target", required=True, help="target's unit id")
    @click.option("--kind", type=click.Choice([WITHERING, DECISIVE]), default=WITHERING, show_default=True)
    @click.option(
        "--mode",
        type=click.Choice(DEFENSE_MODES),
        default="passive",
        show_default=True,
        help="target's defense",
    )
    @click.option("--initiative", type=int, default=None, help="attacker's initiative (decisive damage)")
    @click.option("--target-initiative", type=int, default=None, help="target's initiative (0: crashed)")
    @click.option("--charge", type=int, default=0, help="order MP charged into the attack")
    @click.option("--defense-charge", type=int, default=0, help="order MP charged into the defense")
    @click.option("--addon", "addons", multiple=True, metavar="NAME",
                  help="count an installed add-on's attack and defense modifiers (repeatable)")
    def command(**kwargs: object) -> None:
        """Exact hit chance and damage distribution of one attack."""
        click.echo(odds_text(**kwargs))  # type: ignore[arg-type]

    return command
