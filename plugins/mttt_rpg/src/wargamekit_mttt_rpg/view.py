"""What a side sees of a scene: everything (the combat scene hides nothing), as a cheap copy.

A bot reads a view at every decision it is asked, so :func:`scene_view` copies only what
changes in play and is mutable — each combatant, the range bands, the initiative track and the
scene's lists — field by field, instead of the default's pickle round trip of the whole scene.
Character sheets are not copied: a combatant names its sheet by key (``sheet_key``) in the
shared, read-only library.
"""

from __future__ import annotations

from wargamekit.sequencing import InitiativeTrack
from wargamekit.view import dict_copier, field_copier

from .state import Combatant, Scene

__all__ = ["scene_view"]


_combatants = dict_copier(Combatant)  # one call for the scene's combatants
_track = field_copier(InitiativeTrack)
_scene = field_copier(Scene, skip=("track",))


def scene_view(scene: Scene) -> Scene:
    """A copy of ``scene`` that shares nothing mutable with it (changing it changes nothing)."""
    view: Scene = _scene(scene)
    view.combatants = _combatants(scene.combatants)
    view.distances = dict(scene.distances)
    view.track = _track(scene.track)  # its values are copied by their converter (dict)
    return view
