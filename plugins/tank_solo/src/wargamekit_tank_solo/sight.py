"""Line of sight (标准规则修改部分 4. 射击与视线) and the scouting advantage (特殊规则 6).

Forest, mountain and wreck hexes between the firer and the target block sight (4 ii). Where the
line runs exactly along a hexside, it is blocked if either side is (provisional: the source does
not say). During leap fire a light tank sees medium and heavy tanks through forest and wrecks,
never light tanks and never through mountains (6. 侦察优势).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache

import numpy as np

from wargamekit.geometry import BLOCKING, CLEAR, Hex

from .maps import TERRAIN_LETTERS, load_map

__all__ = ["can_see"]


@cache
def _classes(map_key: str, scouting: bool) -> np.ndarray:
    m = load_map(map_key)
    out = np.zeros((m.width, m.height), dtype=np.int8)
    for r, line in enumerate(m.rows):
        for c, letter in enumerate(line):
            name = TERRAIN_LETTERS[letter][1]
            if name == "mountain" or (name == "forest" and not scouting):
                out[c, r] = BLOCKING
            else:
                out[c, r] = CLEAR
    out.setflags(write=False)
    return out


def can_see(map_key: str, wrecks: Iterable[Hex], a: Hex, b: Hex, *, scouting: bool = False) -> bool:
    """True if a tank in ``a`` sees ``b``.

    Args:
        map_key: the map.
        wrecks: wreck hexes (they block unless ``scouting``).
        a: the firer's hex.
        b: the target's hex.
        scouting: the light tank's scouting advantage applies (leap fire, light firer, medium
            or heavy target): forest and wrecks do not block, mountains still do.
    """
    return _sees(map_key, () if scouting else tuple(wrecks), a, b, scouting)


@lru_cache(maxsize=1 << 16)
def _sees(map_key: str, wrecks: tuple[Hex, ...], a: Hex, b: Hex, scouting: bool) -> bool:
    # cached: the bots ask the same lines again and again while weighing moves
    m = load_map(map_key)
    return m.hexmap.line_of_sight(
        a, b, los_class=_classes(map_key, scouting), blocking=list(wrecks) or None, edge="worse"
    ).clear
