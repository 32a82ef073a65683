"""mttt_rpg's observation encoder for :mod:`wargamekit.rl` (registered in ``plugin.py``).

The combat scene hides nothing from either side; the encoder still reads only the side's view.

View block (all in ``[0, 1]``): one row of 14 per combatant of the scene, in the view's
order: 0 present, 1 own, 2–7 status one-hot (active, helpless, withdrawn, routed, gone,
absent), 8 HP / max HP, 9 order MP / order cap, 10 a character (not a battle group or
noncombatant), 11 battle group size left / size, 12 prone, 13 acting now; then 3 numbers:
round / round limit, the phase is the combat rounds' (not preparation), 1.

Option row (width 3): as :class:`~wargamekit.rl.GenericOptionRows` (a real option, a pass, a
"none"/"hold" option).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wargamekit import PlayerView, Ruleset, hookimpl
from wargamekit.rl import GenericOptionRows, ObservationEncoder, clip01, kinds_of, unit_bounds

ROW = 14
STATUSES = ("active", "helpless", "withdrawn", "routed", "gone", "absent")


class MtttRpgEncoder(GenericOptionRows):
    """See the module's docstring for the layout."""

    max_actions = 64

    def __init__(self) -> None:
        from wargamekit_mttt_rpg import kinds

        self.kinds = kinds_of(kinds, "mttt_rpg.")
        self.ids: tuple[str, ...] = ()

    def view_bounds(self, view: PlayerView) -> Any:
        self.ids = tuple(view.state.combatants)  # the scene's combatants, fixed by the scenario
        return unit_bounds(len(self.ids) * ROW + 3)

    def encode(self, view: PlayerView) -> np.ndarray:
        scene = view.state
        rows = np.zeros((len(self.ids), ROW), np.float32)
        for i, key in enumerate(self.ids):
            c = scene.combatants.get(key)
            if c is None:
                continue
            row = rows[i]
            row[0], row[1] = 1.0, float(c.side == view.side)
            if c.status in STATUSES:
                row[2 + STATUSES.index(c.status)] = 1.0
            row[8] = clip01(c.hp / c.hp_max) if c.hp_max else 0.0
            row[9] = clip01(c.order_mp / c.order_cap) if c.order_cap else 0.0
            row[10] = float(c.kind == "character")
            row[11] = clip01((c.size - c.size_lost) / c.size) if c.size else 0.0
            row[12], row[13] = float(c.prone), float(scene.acting == c.id)
        tail = [clip01(scene.round / max(scene.round_limit, 1)), float(scene.phase != "preparation"), 1.0]
        return np.concatenate([rows.reshape(-1), np.asarray(tail, np.float32)])



@hookimpl
def wargamekit_observation_encoder(ruleset: Ruleset) -> ObservationEncoder | None:
    """mttt_rpg's encoder (``None`` for other rulesets)."""
    return MtttRpgEncoder() if ruleset.name == "mttt_rpg" else None
