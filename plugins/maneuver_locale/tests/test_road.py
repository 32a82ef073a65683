"""移動 — road移動 (road movement)."""

from __future__ import annotations

from wargamekit_maneuver_locale import rules

EDGES = [("a", "b"), ("b", "c"), ("c", "d"), ("d", "e"), ("b", "x")]
ROADS = [("primary", ["a", "b", "c", "d"]), ("secondary", ["d", "e"]), ("secondary", ["b", "x"])]


def game(kit, pieces, **kw):
    return kit.start(kit.build(["a", "b", "c", "d", "e", "x"], EDGES, pieces, roads=ROADS, **kw))


def road(kit, g, piece, dest_label):
    kit.act(g, "road move (one piece, up to 3 locales along a road)", piece, dest_label)
    if g.pending.rule == rules.CAVALRY:
        kit.act(g, [])  # entering next to the enemy: cavalry may move onto an approach; none do


def test_three_steps_on_a_primary_road_cost_no_command(kit):
    """road移動: up to 3 locales along the road; primary roads cost 0 commands."""
    g = game(kit, [("A1", "austria", "infantry", 3, "a"), ("F1", "france", "infantry", 2, "x")])
    kit.act(g, "road move (one piece, up to 3 locales along a road)", "A1")
    assert kit.labels(g) == [
        "A -> B (primary road, 0 commands)",
        "A -> B -> C (primary road, 0 commands)",
        "A -> B -> C -> D (primary road, 0 commands)",
    ]
    kit.act(g, "A -> B -> C -> D (primary road, 0 commands)")
    assert g.state.pieces["A1"].locale == "d" and g.state.commands == 3


def test_secondary_road_costs_one_command(kit):
    """road移動: a move using a non-primary road costs 1 command."""
    g = game(kit, [("A1", "austria", "infantry", 3, "c"), ("F1", "france", "infantry", 2, "x")])
    road(kit, g, "A1", "C -> D -> E (1 command)")
    assert g.state.pieces["A1"].locale == "e" and g.state.commands == 2


def test_never_into_an_enemy_locale(kit):
    """road移動: never into an enemy locale (no maneuver attack by road)."""
    g = game(kit, [("A1", "austria", "infantry", 3, "a"), ("F1", "france", "infantry", 2, "c")])
    kit.act(g, "road move (one piece, up to 3 locales along a road)", "A1")
    assert kit.labels(g) == ["A -> B (primary road, 0 commands)", "A -> B -> X (1 command)"]


def test_no_two_pieces_enter_the_same_locale_on_the_same_step(kit):
    """road移動: two pieces may not enter the same locale on the same step."""
    g = game(
        kit,
        [
            ("A1", "austria", "infantry", 3, "a"),
            ("A2", "austria", "infantry", 2, "a"),
            ("A3", "austria", "infantry", 2, "b"),
            ("F1", "france", "infantry", 2, "e"),
        ],
    )
    road(kit, g, "A1", "A -> B -> C (primary road, 0 commands)")
    # A2 could only enter b on step 1, which A1 did: it has no road move left
    kit.act(g, "road move (one piece, up to 3 locales along a road)")
    assert kit.labels(g) == ["A3"]
    kit.act(g, "A3")
    # A3 may enter c on step 1: A1 entered c on step 2, a different step
    assert "B -> C (primary road, 0 commands)" in kit.labels(g)


def test_at_most_three_pieces_a_turn(kit):
    """road移動: at most 3 pieces move by road in a turn."""
    g = game(
        kit,
        [
            ("A1", "austria", "infantry", 3, "a"),
            ("A2", "austria", "infantry", 2, "b"),
            ("A3", "austria", "infantry", 2, "c"),
            ("A4", "austria", "infantry", 2, "d"),
            ("F1", "france", "infantry", 2, "x"),
        ],
    )
    road(kit, g, "A1", "A -> B (primary road, 0 commands)")
    road(kit, g, "A2", "B -> C (primary road, 0 commands)")
    road(kit, g, "A3", "C -> D (primary road, 0 commands)")
    assert g.state.road_pieces == ["A1", "A2", "A3"]
    assert not any(lab.startswith("road move") for lab in kit.labels(g))


def test_road_moves_cost_commands_only_when_secondary(kit):
    """road移動: with no commands a piece may still move along primary roads only."""
    g = game(kit, [("A1", "austria", "infantry", 3, "c"), ("F1", "france", "infantry", 2, "x")], commands=(0, 0))
    kit.act(g, "road move (one piece, up to 3 locales along a road)", "A1")
    assert kit.labels(g) == [
        "C -> B (primary road, 0 commands)",
        "C -> D (primary road, 0 commands)",
        "C -> B -> A (primary road, 0 commands)",
    ]


def test_the_action_menu_offers_road_movement_exactly_when_a_road_move_exists(ruleset):
    """移動 — road移動: the action menu asks ``has_road_move`` (it stops at the first legal path)
    whether to offer road movement; in every action menu of seeded random games it must agree
    with ``road_moves``, which lists every move (pieces, 3 steps, primary roads free, no enemy
    locale, no two entries on a step, at most 3 pieces a turn)."""
    from wargamekit import Game, RandomBot
    from wargamekit_maneuver_locale import kinds
    from wargamekit_maneuver_locale.movement import has_road_move, road_moves
    from wargamekit_maneuver_locale.state import Occupancy

    seen = {True: 0, False: 0}
    free = {True: 0, False: 0}  # menus with no command left: only a primary-road path is free

    def check(game, decision):
        if decision.kind == kinds.ACTION:
            state, side = game.state, decision.side
            offered = has_road_move(state, side, Occupancy(state))
            assert offered == bool(road_moves(state, side)), (game.seed, len(game.choices))
            assert offered == any(option.data["action"] == "road" for option in decision.options)
            seen[offered] += 1
            if state.commands < 1:
                free[offered] += 1

    for seed in range(4):
        game = Game.new(ruleset, seed=seed)
        game.play({side: RandomBot(seed * 2 + i) for i, side in enumerate(ruleset.sides)}, before_ask=check)
    assert seen[True] > 20 and seen[False] > 20, seen
    assert free[True] > 0 and free[False] > 0, free


def test_a_locale_two_roads_reach_is_offered_once_by_its_cheapest_path(kit):
    """road移動: a primary road costs no command and a secondary one costs 1, so a locale that
    both reach is offered once, along the primary road even when that road is longer (the
    board's paths are walked cheapest first: the first legal path to a locale is its best)."""
    edges = [("a", "b"), ("b", "c"), ("a", "c"), ("c", "x")]
    roads = [("primary", ["a", "b", "c"]), ("secondary", ["a", "c"])]
    g = kit.start(kit.build(["a", "b", "c", "x"], edges,
                            [("A1", "austria", "infantry", 3, "a"), ("F1", "france", "infantry", 2, "x")],
                            roads=roads))
    kit.act(g, "road move (one piece, up to 3 locales along a road)", "A1")
    labels = kit.labels(g)
    assert "A -> B -> C (primary road, 0 commands)" in labels
    assert not any(label.endswith("-> C (1 command)") for label in labels), labels
