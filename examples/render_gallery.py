"""Draw the pictures of docs/rendering.md and docs/tutorial.md into docs/images/.

    uv run python examples/render_gallery.py

Every picture is deterministic: running this again gives byte-identical files (a test checks
that the committed images are up to date).
"""

from __future__ import annotations

from pathlib import Path

from wargamekit import Game
from wargamekit.geometry import (
    Approach,
    ApproachWidth,
    Hex,
    HexMap,
    HexsideFacing,
    HexsideFeature,
    Locale,
    LocaleMap,
    RoadClass,
    TerrainTable,
    TerrainType,
    VertexFacing,
)
from wargamekit.render import Marker, PieceGlyph, UnitGlyph, render_hex_map, render_locale_map

IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"


def hex_map_example() -> str:
    """A 7 x 5 map with every kind of thing the hex renderer draws."""
    table = TerrainTable(
        [TerrainType(0, "clear"), TerrainType(1, "woods", 2, los=1), TerrainType(2, "hill", 2, los=2)],
        [HexsideFeature(1, "river", 3), HexsideFeature(2, "stream", 1), HexsideFeature(3, "wall", 1),
         HexsideFeature(4, "hedge", 1)],
    )
    m = HexMap(7, 5, table)

    def at(label: str) -> Hex:
        return Hex.from_label(label, base=1)

    for label in ("0202", "0302", "0303"):
        m.set_terrain(at(label), 1)
    for label in ("0604", "0605"):
        m.set_terrain(at(label), 2)
    for label, direction in (("0104", 1), ("0104", 0), ("0203", 0), ("0304", 1)):
        m.set_hexside(at(label), direction, 1)
    m.set_hexside(at("0501"), 5, 2)
    m.set_hexside(at("0502"), 5, 2)
    m.set_hexside(at("0404"), 0, 3)
    m.set_hexside(at("0405"), 1, 4)
    units = [
        UnitGlyph(at("0101"), "Tiger", "#4a5568", HexsideFacing(0), turret=HexsideFacing(1), sublabel="8-6"),
        UnitGlyph(at("0501"), "T-34", "#9b2c2c", HexsideFacing(3), turret=HexsideFacing(4)),
        UnitGlyph(at("0703"), "Cav", "#9b2c2c", VertexFacing(2), sublabel="TQ 6"),
        UnitGlyph(at("0403"), "Legion", "#2c5282", VertexFacing(0)),
        UnitGlyph(at("0403"), "Legion", "#2c5282", VertexFacing(0)),
    ]
    markers = [Marker(at("0305"), "wreck"), Marker(at("0605"), "smoke", color="#cbd5e0"), Marker(at("0605"), "OBJ")]
    return render_hex_map(m, terrain_colors={0: "#ece6c9", 1: "#7da65d", 2: "#c9a66b"}, units=units,
                          markers=markers, label_base=1, legend=True, title="render_hex_map")


def locale_map_example() -> str:
    """Four locales with approaches of both widths, both road classes and pieces of both kinds."""
    m = LocaleMap()
    m.add_locale(Locale("1", "Marengo", capacity=6, terrain=1))
    m.add_locale(Locale("2", "Castel Ceriolo", capacity=4))
    m.add_locale(Locale("3", "Spinetta", capacity=4, terrain=2))
    m.add_locale(Locale("4", "Bormida bridge", capacity=2))
    m.add_approach(Approach("2", "1", ApproachWidth.WIDE))
    m.add_approach(Approach("1", "2", ApproachWidth.NARROW, terrain_effect=2))
    m.add_approach(Approach("3", "1", ApproachWidth.NARROW, terrain_effect=1))
    m.add_approach(Approach("4", "3", ApproachWidth.WIDE))
    m.add_road(RoadClass.PRIMARY, ["4", "3", "1"])
    m.add_road(RoadClass.SECONDARY, ["1", "2"])
    positions = {"1": (300, 300), "2": (600, 300), "3": (300, 60), "4": (20, 60)}
    blue, red = "#2b6cb0", "#c53030"
    pieces = [
        PieceGlyph("1", "Inf", blue, 3), PieceGlyph("1", "Cav", blue, 2), PieceGlyph("1", "Art", blue, 1, face_up=False),
        PieceGlyph("1", "Gren", blue, 4, approach="2"), PieceGlyph("1", "Inf", blue, 2, approach="2"),
        PieceGlyph("2", "Inf", red, 3, face_up=False, approach="1"), PieceGlyph("2", "Cav", red, 2),
        PieceGlyph("3", "Inf", red, 3, approach="4"), PieceGlyph("3", "Inf", red, 2, face_up=False),
    ]
    return render_locale_map(m, positions, pieces=pieces,
                             terrain_colors={0: "#f5efd9", 1: "#e2d3b0", 2: "#cfe3c4"},
                             terrain_names={0: "open", 1: "village", 2: "woods"},
                             approach_effects={1: "bridge", 2: "slope"}, title="render_locale_map")


def skirmish_example() -> str:
    """The skirmish's default scenario after one turn of greedy bot against greedy bot."""
    from wargamekit_skirmish import Skirmish
    from wargamekit_skirmish.bots import GreedyBot

    ruleset = Skirmish()
    game = Game.new(ruleset, seed=5)
    players = {"blue": GreedyBot(1), "red": GreedyBot(2)}
    game.play(players, until=lambda g: g.state.turn >= 2)
    return ruleset.render_svg(game.state)


def gallery() -> dict[str, str]:
    """File name -> SVG text of every picture."""
    return {
        "render_hex_map.svg": hex_map_example(),
        "render_locale_map.svg": locale_map_example(),
        "skirmish_turn2.svg": skirmish_example(),
    }


def main() -> None:
    IMAGES.mkdir(parents=True, exist_ok=True)
    for name, svg in gallery().items():
        (IMAGES / name).write_text(svg, encoding="utf-8")
        print(IMAGES / name)


if __name__ == "__main__":
    main()
