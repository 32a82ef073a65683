"""The players' view of a scene (``MtttRpg.view``): everything, as a copy that shares nothing
mutable with the live scene (the scene hides nothing; the copy is cheap, see ``view.py``)."""

from __future__ import annotations

import attrs

from wargamekit import Game, RandomBot
from wargamekit.view import detached_copy
from wargamekit_mttt_rpg import MtttRpg


def _containers(obj):
    return {f.name: getattr(obj, f.name) for f in attrs.fields(type(obj)) if isinstance(getattr(obj, f.name), (list, dict, set))}


def test_view_shows_everything_and_shares_nothing_mutable():
    ruleset = MtttRpg()
    checked = 0

    def check(game):
        nonlocal checked
        scene = game.state
        for side in (*ruleset.sides, None):
            view = ruleset.view(scene, side)
            # the same content as the default's whole-state copy
            assert attrs.asdict(view) == attrs.asdict(detached_copy(scene))
            assert view.track is not scene.track
            pairs = [(scene, view), (scene.track, view.track)]
            pairs += [(scene.unit(uid), view.unit(uid)) for uid in scene.combatants]
            for live, seen in pairs:
                assert live is not seen
                for name, value in _containers(live).items():
                    assert getattr(seen, name) is not value, name
        checked += 1

    game = Game.new(ruleset, None, seed=4)
    game.play({side: RandomBot(i) for i, side in enumerate(ruleset.sides)}, after_answer=check)
    assert checked > 50


def test_changing_a_view_changes_nothing():
    ruleset = MtttRpg()
    game = Game.new(ruleset, None, seed=1)
    before = attrs.asdict(game.state)
    view = ruleset.view(game.state, "heroes")
    unit = next(iter(view))
    unit.hp, unit.rushing, view.distances[next(iter(view.distances))] = -5, ["x"], 99
    unit.attribute_penalties["strength"] = 3
    view.track.values[unit.id] = 77
    view.track.acted.add(unit.id)
    view.countered.append(1)
    assert attrs.asdict(game.state) == before
