"""wargamekit ruleset plugin: the locale/approach manoeuvre system (Bonaparte at Marengo family).

Modules follow the source rulebook's headings: :mod:`.movement` (移動: commands, reserve and
approach moves, road movement, cavalry), :mod:`.maneuver` (Maneuver Attacks),
:mod:`.assault` and :mod:`.resolution` (Assaults), :mod:`.retreats` (Retreats),
:mod:`.bombardment` (Artillery Bombardment); :mod:`.arms` holds the arms as data; :mod:`.turn` and :mod:`.victory` hold the
provisional turn sequence and victory conditions (scenario data, not from the source).
"""

from .arms import Arm, ArmType
from .resolution import AssaultResult, Combatant, PreviewLine, preview_assault, resolve_assault
from .ruleset import ManeuverLocale

__all__ = [
    "Arm",
    "ArmType",
    "AssaultResult",
    "Combatant",
    "ManeuverLocale",
    "PreviewLine",
    "preview_assault",
    "resolve_assault",
]
