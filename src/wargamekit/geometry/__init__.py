"""Hex and locale geometry: coordinates, facing, maps, movement, line of sight, pixel layout.

The public names are re-exported here; the implementation lives in one module per job.
"""

from wargamekit.geometry import hexbatch
from wargamekit.geometry.facing import (
    Arc,
    Facing,
    HexsideFacing,
    VertexFacing,
    arc_of,
    fire_arc_wedges,
    in_fire_arc,
    wedges_of,
)
from wargamekit.geometry.hex import (
    DIRECTIONS,
    LINE_EPSILON,
    Hex,
    HexLabelError,
    HexLabels,
    OffsetLayout,
    hex_line,
    hex_line_pair,
)
from wargamekit.geometry.hexbatch import BatchElevationHook, line_of_sight_batch
from wargamekit.geometry.hexmap import (
    BLOCKING,
    CLEAR,
    HINDERING,
    HexMap,
    HexsideFeature,
    LineOfSight,
    OffMapError,
    Path,
    TerrainTable,
    TerrainType,
)
from wargamekit.geometry.layout import Orientation, PixelLayout
from wargamekit.geometry.locale import (
    Approach,
    ApproachWidth,
    Locale,
    LocaleMap,
    NoApproachError,
    NotAdjacentError,
    Road,
    RoadClass,
    RoadSteps,
    UnknownLocaleError,
)

__all__ = [
    "BatchElevationHook",
    "Approach",
    "ApproachWidth",
    "Arc",
    "BLOCKING",
    "CLEAR",
    "DIRECTIONS",
    "Facing",
    "HINDERING",
    "Hex",
    "HexLabelError",
    "HexLabels",
    "HexMap",
    "HexsideFacing",
    "HexsideFeature",
    "LINE_EPSILON",
    "LineOfSight",
    "Locale",
    "LocaleMap",
    "NoApproachError",
    "NotAdjacentError",
    "OffMapError",
    "OffsetLayout",
    "Orientation",
    "Path",
    "PixelLayout",
    "Road",
    "RoadClass",
    "RoadSteps",
    "TerrainTable",
    "TerrainType",
    "UnknownLocaleError",
    "VertexFacing",
    "arc_of",
    "fire_arc_wedges",
    "hex_line",
    "hex_line_pair",
    "hexbatch",
    "in_fire_arc",
    "line_of_sight_batch",
    "wedges_of",
]
