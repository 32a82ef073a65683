"""Invariants the conformance check verifies after every decision."""

from __future__ import annotations

from .state import ACTIVE, HELPLESS, Scene

__all__ = ["check"]


def check(scene: Scene) -> None:
    """Raise AssertionError when the scene breaks a rule's invariant."""
    for u in scene:
        assert 0 <= u.hp <= u.hp_max, f"{u.id}: HP {u.hp} outside 0..{u.hp_max} (HP never negative)"
        if u.kind == "character":
            assert (u.hp == 0) == (u.status == HELPLESS) or u.status not in (ACTIVE, HELPLESS), (
                f"{u.id}: HP 0 iff helpless"
            )
            assert 0 <= u.order_mp <= u.order_cap <= u.sheet.order_pool, f"{u.id}: order MP beyond its pool"
            assert 0 <= u.distortion_mp <= u.distortion_cap <= u.sheet.distortion_pool, (
                f"{u.id}: distortion MP beyond its pool"
            )
            assert u.burn_points >= 0
        if u.is_group:
            assert 0 <= u.size <= 5, f"{u.id}: size {u.size}"
            assert 0 <= u.magnitude <= u.magnitude_max, f"{u.id}: magnitude {u.magnitude}/{u.magnitude_max}"
        if u.fighting and u.kind != "noncombatant" and scene.phase != "preparation":
            assert u.id in scene.track.values, f"{u.id}: fighting but not on the initiative track"
            assert scene.track.values[u.id] == u.initiative, f"{u.id}: track out of step"
        if not u.fighting:
            assert u.id not in scene.track.values or u.status == "absent", (
                f"{u.id}: off the field but on the track"
            )
    for key, band in scene.distances.items():
        assert band >= 0, f"{key}: negative band"
    assert scene.round <= scene.round_limit
