"""What a side sees of a scene: everything (the combat scene hides nothing), as a cheap copy.

A bot reads a view at every decision it is asked, so :func:`scene_view` copies only what
changes in play and is mutable — each combatant, the range bands, the initiative track and the
scene's lists — field by field, instead of the default's pickle round trip of the whole scene.
Character sheets are not copied: a combatant names its sheet by key (``sheet_key``) in the
shared, read-only library.
"""

from __future__ import annotations

import copy
import operator
from typing import Any

import attrs

from wargamekit.sequencing import InitiativeTrack

from .state import Combatant, Scene

__all__ = ["scene_view"]


def _copier(cls: type, *, skip: tuple[str, ...] = ()) -> Any:
    """A function that copies an instance of the attrs class ``cls`` field by field (every
    field read, so a field added later is copied too), with a fresh copy of each field whose
    default is a factory (its lists, sets and dicts) but those in ``skip`` (the caller copies
    them): a few microseconds, against tens for ``attrs.evolve`` or a pickle round trip.

    A plain slotted class (no converter, validator or ``__attrs_post_init__``: ``__init__``
    only assigns) is copied by a function written for it, one assignment per field — twice as
    fast as calling ``__init__`` with every field (a combatant has seventy); any other class
    through its ``__init__``.
    """
    fields = attrs.fields(cls)
    assert all(f.init and f.alias == f.name for f in fields), f"{cls.__name__}: fields must be __init__ arguments"
    containers = {
        # a plain list, dict or set is copied by its own type (cheaper than copy.copy)
        f.name: f.default.factory if f.default.factory in (list, dict, set) else copy.copy
        for f in fields
        if isinstance(f.default, attrs.Factory) and f.name not in skip  # type: ignore[arg-type]
    }
    plain = (
        "__slots__" in cls.__dict__
        and not hasattr(cls, "__attrs_post_init__")
        and all(f.converter is None and f.validator is None and f.on_setattr is None for f in fields)
    )
    if plain:
        lines = [f"    new.{f.name} = " + (f"copy_{f.name}(obj.{f.name})" if f.name in containers else f"obj.{f.name}")
                 for f in fields]
        source = "def copy_of(obj):\n    new = new_instance(cls)\n" + "\n".join(lines) + "\n    return new\n"
        scope = {"new_instance": object.__new__, "cls": cls, **{f"copy_{k}": v for k, v in containers.items()}}
        exec(compile(source, f"<copy of {cls.__qualname__}>", "exec"), scope)  # noqa: S102 - our own source
        return scope["copy_of"]
    values = operator.attrgetter(*(f.name for f in fields))

    def copy_of(obj: Any) -> Any:
        new = cls(*values(obj))
        for name, copy_value in containers.items():
            object.__setattr__(new, name, copy_value(getattr(obj, name)))
        return new

    return copy_of


_combatant = _copier(Combatant)
_track = _copier(InitiativeTrack)
_scene = _copier(Scene, skip=("track",))


def scene_view(scene: Scene) -> Scene:
    """A copy of ``scene`` that shares nothing mutable with it (changing it changes nothing)."""
    view: Scene = _scene(scene)
    view.combatants = {uid: _combatant(u) for uid, u in scene.combatants.items()}
    view.distances = dict(scene.distances)
    view.track = _track(scene.track)  # its values are copied by their converter (dict)
    return view
