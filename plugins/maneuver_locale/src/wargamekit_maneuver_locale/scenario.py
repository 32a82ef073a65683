"""Scenario data: the map, the pieces and the values the source leaves open.

The source rulebook gives the rules of play but no numbers for commands per turn, locale
capacities, the turn order, the turn limit, victory or the set-up. Those are scenario data here,
with provisional values in the bundled scenarios (listed as "not from the source" in the docs).

A scenario is TOML structured by cattrs into :class:`ManeuverScenario`; :func:`validate` adds the
cross-field checks (unknown locales, missing approaches, over-full locales), each raising
:class:`~wargamekit.errors.ScenarioError` with the path of the bad field.
"""

from __future__ import annotations

from collections.abc import Collection
from itertools import pairwise

from attrs import frozen

from wargamekit.errors import ScenarioError
from wargamekit.geometry.locale import ApproachWidth, RoadClass

from .arms import Arm

__all__ = [
    "Arm",
    "ApproachSpec",
    "LocaleSpec",
    "ManeuverScenario",
    "PieceSpec",
    "RoadSpec",
    "check_arms",
    "validate",
]


@frozen
class LocaleSpec:
    """A locale of the map.

    Attributes:
        id: short unique id used everywhere (``"marengo"``).
        name: readable name.
        x: horizontal position of the locale on the rendered map (map units).
        y: vertical position (map units, downwards).
        capacity: most pieces the locale may hold (0: the scenario's ``default_capacity``).
        objective: victory points for controlling it (0: not an objective).
        control: the side controlling it at the start ("" : whoever has pieces there).
    """

    id: str
    name: str
    x: float
    y: float
    capacity: int = 0
    objective: int = 0
    control: str = ""


@frozen
class ApproachSpec:
    """The approach of ``locale`` facing ``facing`` (attacks from ``facing`` cross it).

    Attributes:
        locale: the locale the approach belongs to (its defender).
        facing: the adjacent locale it faces (where attacks come from).
        width: ``"narrow"`` or ``"wide"``.
        terrain: the defender's terrain effect (地形効果), subtracted in assaults, pursuit and
            bombardment.
    """

    locale: str
    facing: str
    width: ApproachWidth = ApproachWidth.WIDE
    terrain: int = 0


#: The least terrain effect an approach has (地形効果 is subtracted from the attacker: no
#: terrain helps the attacker). Scenario files and the odds command are checked against it.
MIN_TERRAIN = 0


@frozen
class RoadSpec:
    """A road through consecutive adjacent locales."""

    road_class: RoadClass
    locales: list[str]


@frozen
class PieceSpec:
    """A piece at set-up.

    Attributes:
        id: its id in the order of battle (public data: in play the piece is called by a
            secret handle instead, :mod:`.handles`, unless the option ``scenario_ids`` is on).
        side: its side.
        arm: the key of its arm: ``infantry``, ``cavalry``, ``artillery`` or an arm an add-on
            publishes (:mod:`.arms`); checked when a game starts, against the game's add-ons.
        steps: its strength in steps.
        locale: where it starts.
        approach: the locale whose approach it starts on ("" : the reserve).
        setup_area: its set-up area ("": its own starting position). The pieces of one side
            that name the same area are dealt face-down, by a secret shuffle, to the area's
            starting positions (each position keeps the number of pieces the scenario puts
            there): the opponent knows the area's order of battle, not which piece stands
            where (:mod:`.handles`). A provisional set-up rule, not from the source.
    """

    id: str
    side: str
    arm: str
    steps: int
    locale: str
    approach: str = ""
    setup_area: str = ""


@frozen
class ManeuverScenario:
    """A whole scenario.

    Attributes:
        title: shown in the terminal and the docs.
        sides: the two sides; the first moves first each game turn.
        turns: the turn limit (game turns; each side has one player turn per game turn).
        commands: commands per player turn, by side.
        default_capacity: pieces a locale holds unless it says otherwise.
        locales, approaches, roads, pieces: the map and the set-up.
        description: a paragraph for the docs.
    """

    title: str
    sides: list[str]
    turns: int
    commands: dict[str, int]
    default_capacity: int
    locales: list[LocaleSpec]
    approaches: list[ApproachSpec]
    roads: list[RoadSpec]
    pieces: list[PieceSpec]
    description: str = ""


def _fail(message: str, path: str, source: str | None) -> ScenarioError:
    return ScenarioError(message, path=path, source=source)


def validate(s: ManeuverScenario, *, sides: tuple[str, ...], source: str | None = None) -> None:
    """Cross-field checks of a structured scenario.

    Raises:
        ScenarioError: naming the path of the first bad field.
    """
    if len(s.sides) != 2 or set(s.sides) != set(sides):
        raise _fail(f"sides must be {list(sides)} in some order", "$.sides", source)
    if s.turns < 1:
        raise _fail("the turn limit must be at least 1", "$.turns", source)
    for side in sides:
        if side not in s.commands:
            raise _fail(f"no commands given for {side!r}", "$.commands", source)
    for side, n in s.commands.items():
        if side not in sides:
            raise _fail(f"unknown side {side!r}", f"$.commands.{side}", source)
        if n < 0:
            raise _fail("commands cannot be negative", f"$.commands.{side}", source)
    if s.default_capacity < 1:
        raise _fail("capacity must be at least 1", "$.default_capacity", source)
    ids: dict[str, int] = {}
    for i, loc in enumerate(s.locales):
        if loc.id in ids:
            raise _fail(f"locale id {loc.id!r} is used twice", f"$.locales[{i}].id", source)
        ids[loc.id] = i
        if loc.capacity < 0:
            raise _fail("capacity cannot be negative", f"$.locales[{i}].capacity", source)
        if loc.control and loc.control not in sides:
            raise _fail(f"unknown side {loc.control!r}", f"$.locales[{i}].control", source)
    seen: set[tuple[str, str]] = set()
    for i, ap in enumerate(s.approaches):
        for key in ("locale", "facing"):
            if getattr(ap, key) not in ids:
                raise _fail(f"unknown locale {getattr(ap, key)!r}", f"$.approaches[{i}].{key}", source)
        if ap.locale == ap.facing:
            raise _fail("an approach cannot face its own locale", f"$.approaches[{i}].facing", source)
        if (ap.locale, ap.facing) in seen:
            raise _fail("this approach is given twice", f"$.approaches[{i}]", source)
        if ap.terrain < MIN_TERRAIN:
            raise _fail("terrain effect cannot be negative", f"$.approaches[{i}].terrain", source)
        seen.add((ap.locale, ap.facing))
    for i, ap in enumerate(s.approaches):
        # Every adjacency has an approach on both sides, so every attack crosses one.
        if (ap.facing, ap.locale) not in seen:
            raise _fail(
                f"locale {ap.facing!r} has no approach facing {ap.locale!r} (adjacent locales "
                "need an approach on both sides)",
                f"$.approaches[{i}]",
                source,
            )
    for i, road in enumerate(s.roads):
        if len(road.locales) < 2:
            raise _fail("a road needs at least two locales", f"$.roads[{i}].locales", source)
        for j, (a, b) in enumerate(pairwise(road.locales)):
            for k, loc_id in ((j, a), (j + 1, b)):
                if loc_id not in ids:
                    raise _fail(f"unknown locale {loc_id!r}", f"$.roads[{i}].locales[{k}]", source)
            if (a, b) not in seen:
                raise _fail(f"{a!r} and {b!r} are not adjacent", f"$.roads[{i}].locales[{j + 1}]", source)
    piece_ids: set[str] = set()
    counts: dict[str, int] = {}
    for i, p in enumerate(s.pieces):
        if p.id in piece_ids:
            raise _fail(f"piece id {p.id!r} is used twice", f"$.pieces[{i}].id", source)
        piece_ids.add(p.id)
        if p.side not in sides:
            raise _fail(f"unknown side {p.side!r}", f"$.pieces[{i}].side", source)
        if p.steps < 1:
            raise _fail("a piece has at least 1 step", f"$.pieces[{i}].steps", source)
        if p.locale not in ids:
            raise _fail(f"unknown locale {p.locale!r}", f"$.pieces[{i}].locale", source)
        if p.approach and (p.locale, p.approach) not in seen:
            raise _fail(f"locale {p.locale!r} has no approach facing {p.approach!r}", f"$.pieces[{i}].approach", source)
        counts[p.locale] = counts.get(p.locale, 0) + 1
    area_sides: dict[str, str] = {}
    for i, p in enumerate(s.pieces):
        if p.setup_area and area_sides.setdefault(p.setup_area, p.side) != p.side:
            raise _fail(f"set-up area {p.setup_area!r} holds pieces of both sides", f"$.pieces[{i}].setup_area", source)
    holders: dict[str, str] = {}
    for i, p in enumerate(s.pieces):
        other = holders.setdefault(p.locale, p.side)
        if other != p.side:
            raise _fail(f"both sides start in {p.locale!r}", f"$.pieces[{i}].locale", source)
    for i, loc in enumerate(s.locales):
        cap = loc.capacity or s.default_capacity
        if counts.get(loc.id, 0) > cap:
            raise _fail(f"{counts[loc.id]} pieces start in a locale holding {cap}", f"$.locales[{i}].capacity", source)


def check_arms(s: ManeuverScenario, arms: Collection[str], *, source: str | None = None) -> None:
    """Every piece's arm is one of ``arms`` (the keys of :func:`.arms.arm_types`: the source's
    three and the game's add-ons'). Run when a game starts, where its add-ons are known.

    Raises:
        ScenarioError: naming the first piece whose arm is unknown (``$.pieces[i].arm``).
    """
    for i, p in enumerate(s.pieces):
        if p.arm not in arms:
            raise _fail(
                f"unknown arm {p.arm!r}; the arms in this game are {sorted(arms)} (an add-on's arm "
                "needs the add-on in the game)",
                f"$.pieces[{i}].arm",
                source,
            )
