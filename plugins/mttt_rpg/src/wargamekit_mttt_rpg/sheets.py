"""Character sheets, weapons, armour, spells and battle groups as data (TOML in ``data/``).

The source leaves weapon and armour statistics, attribute and skill ratings, willpower and the
list of spells to the character sheet; the bundled data files hold provisional values (NOT from
the source) for the bundled scenes. Every class here is a frozen value structured by cattrs, so
a bad data or scenario file is refused with the path to the bad field.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

from attrs import field, frozen

from wargamekit.errors import ScenarioError
from wargamekit.scenario import read_toml_text, structure

__all__ = [
    "ATTRIBUTES",
    "Armour",
    "CharacterSheet",
    "Effect",
    "GroupSheet",
    "Investment",
    "Library",
    "Spell",
    "Trigger",
    "Weapon",
    "build_library",
    "library",
]

#: Physical attributes first (soul disability, 1–4 HP tier), then mental ones (5–8 HP tier).
PHYSICAL = ("strength", "agility", "constitution")
MENTAL = ("intelligence", "charisma", "appearance")
ATTRIBUTES = PHYSICAL + MENTAL

EFFECT_KINDS = ("gain_initiative", "heal", "defense", "protection", "withering_blast", "counter")
TRIGGERS = ("attacked", "ally_attacked", "damaged", "crashed", "turn_start")
DRILLS = ("poor", "average", "elite")


def _one_of(choices: tuple[str, ...]) -> Any:
    def check(_instance: Any, attribute: Any, value: str) -> None:
        if value not in choices:
            raise ValueError(f"{attribute.name} must be one of {list(choices)}, not {value!r}")

    return check


def _at_least(low: int) -> Any:
    def check(_instance: Any, attribute: Any, value: int) -> None:
        if value < low:
            raise ValueError(f"{attribute.name} must be at least {low}, not {value}")

    return check


@frozen
class Weapon:
    """A weapon (武器).

    Attributes:
        name: display name.
        accuracy: the weapon's hit bonus (武器的命中加值).
        dice, sides: ADB, the base damage "A d B" (A dice of B sides); A also feeds decisive
            damage, ``(A + Pr) / 2``.
        damage_bonus: the weapon's damage bonus (武器的伤害加值).
        penetration: withering damage never falls below this (穿透).
        parry: the weapon's parry bonus to active parry (武器格挡加值).
        skill: the skill used to attack (and to parry: 生理学识) — a key of the sheet's skills.
        attribute: the attribute behind the skill (技能对应的属性).
        max_range: the farthest range band it reaches (0 = contact only).
        ranged: a ranged attack (full cover blocks it; battle groups pick a main target).
        smashing: a smashing attack (强击): a successful decisive hit knocks the target prone
            (the source names it but gives no rule: provisional).
        lethal: for battle groups' HP damage to crashed targets (冲击或致命).
        damage_type: physical, colour, distortion or environment (伤害的类型; names only).
    """

    name: str
    accuracy: int = 0
    dice: int = field(default=1, validator=_at_least(1))
    sides: int = field(default=6, validator=_at_least(2))
    damage_bonus: int = 0
    penetration: int = field(default=0, validator=_at_least(0))
    parry: int = 0
    skill: str = "melee"
    attribute: str = field(default="strength", validator=_one_of(ATTRIBUTES))
    max_range: int = field(default=0, validator=_at_least(0))
    ranged: bool = False
    smashing: bool = False
    lethal: bool = False
    supernatural_area: bool = False
    damage_type: str = field(
        default="physical", validator=_one_of(("physical", "colour", "distortion", "environment"))
    )


@frozen
class Armour:
    """Armour (防具): parry and dodge bonuses to defense, protection against decisive damage
    (防护) and toughness against withering damage (韧性)."""

    name: str
    parry: int = 0
    dodge: int = 0
    protection: int = field(default=0, validator=_at_least(0))
    toughness: int = field(default=0, validator=_at_least(0))


@frozen
class Effect:
    """What a spell or triggered effect does.

    ``kind``: ``gain_initiative`` (+amount initiative), ``heal`` (+amount HP), ``defense``
    (+amount defense until the target's next turn), ``protection`` (+amount protection until
    the end of the round), ``withering_blast`` (amount withering damage, no roll), ``counter``
    (the top item of the interrupt stack fizzles). ``target``: ``self``, ``ally`` (self
    included), ``enemy`` or ``top`` (the stack's top item).
    """

    kind: str = field(validator=_one_of(EFFECT_KINDS))
    amount: int = 0
    target: str = field(default="self", validator=_one_of(("self", "ally", "enemy", "top")))
    range: int = field(default=6, validator=_at_least(0))


@frozen
class Spell:
    """A spell (法术). ``timing``: ``instant`` (瞬间: any timing point of phase 2, through the
    interrupt phase) or ``standard`` (costs the standard action, only in one's own turn)."""

    name: str
    effect: Effect
    timing: str = field(default="instant", validator=_one_of(("instant", "standard")))
    pool: str = field(default="order", validator=_one_of(("order", "distortion")))
    cost: int = field(default=1, validator=_at_least(1))


@frozen
class Trigger:
    """A triggered effect (战时触发效果): may respond once to each occurrence of ``on``.

    ``mandatory`` turn responses (轮响应) are pushed automatically at the owner's turn start and
    resolve even when the interrupt phase is disabled.
    """

    name: str
    on: str = field(validator=_one_of(TRIGGERS))
    effect: Effect
    pool: str = field(default="order", validator=_one_of(("order", "distortion")))
    cost: int = field(default=0, validator=_at_least(0))
    mandatory: bool = False


@frozen
class Investment:
    """Soul jade already invested in something (a spell, an attribute …), convertible to burn
    points in the second stage of burning soul jade (燃玉)."""

    name: str
    jade: int = field(validator=_at_least(1))


@frozen
class CharacterSheet:
    """A character (or the average member of a battle group).

    Ratings not given in the source are provisional data (see the docs page).
    """

    name: str
    attributes: dict[str, int]
    skills: dict[str, int] = field(factory=dict)
    weapons: list[str] = field(factory=list)
    armour: str = "none"
    willpower: int = 5
    order_pool: int = 0
    distortion_pool: int = 0
    long_river: bool = True
    chaos_phases: int = 0
    soul_jade: int = 0
    invested: list[Investment] = field(factory=list)
    spells: list[Spell] = field(factory=list)
    triggers: list[Trigger] = field(factory=list)
    health_levels: int = 7
    flies: bool = False
    initiative_bonus: int = 0

    def __attrs_post_init__(self) -> None:
        missing = [a for a in ATTRIBUTES if a not in self.attributes]
        if missing:
            raise ValueError(f"attributes lack {missing}")
        unknown = sorted(set(self.attributes) - set(ATTRIBUTES))
        if unknown:
            raise ValueError(f"unknown attributes {unknown}; known: {list(ATTRIBUTES)}")

    def skill(self, name: str) -> int:
        """A skill rating (0 when the sheet does not list it)."""
        return self.skills.get(name, 0)


@frozen
class GroupSheet:
    """A battle group (战团): its average member and its three traits."""

    name: str
    member: str
    size: int = field(validator=_at_least(0))
    drill: str = field(default="average", validator=_one_of(DRILLS))
    might: int = field(default=0, validator=_at_least(0))
    perfect_morale: bool = False

    def __attrs_post_init__(self) -> None:
        if self.size > 5:
            raise ValueError(f"size must be 0..5 (规模), not {self.size}")
        if self.might > 3:
            raise ValueError(f"might must be 0..3 (威能), not {self.might}")


@frozen
class Library:
    """All data files of the package, by key."""

    weapons: dict[str, Weapon]
    armour: dict[str, Armour]
    characters: dict[str, CharacterSheet]
    groups: dict[str, GroupSheet]

    def check(self, source: str) -> None:
        """Cross-reference checks (weapon, armour and member names exist)."""
        for key, sheet in self.characters.items():
            for i, weapon in enumerate(sheet.weapons):
                if weapon not in self.weapons:
                    raise ScenarioError(
                        f"unknown weapon {weapon!r}", path=f"$.characters[{key!r}].weapons[{i}]", source=source
                    )
            if sheet.armour not in self.armour:
                raise ScenarioError(
                    f"unknown armour {sheet.armour!r}", path=f"$.characters[{key!r}].armour", source=source
                )
        for key, group in self.groups.items():
            if group.member not in self.characters:
                raise ScenarioError(
                    f"unknown member sheet {group.member!r}", path=f"$.groups[{key!r}].member", source=source
                )


def _read(name: str) -> dict[str, Any]:
    text = (resources.files("wargamekit_mttt_rpg.data") / name).read_text(encoding="utf-8")
    return read_toml_text(text, source=f"mttt_rpg:data/{name}")


def build_library(data: dict[str, Any], source: str) -> Library:
    """Structure and cross-check data files (``weapons``, ``armour``, ``characters``,
    ``groups``); a bad value raises :class:`~wargamekit.errors.ScenarioError` naming its path."""
    lib = structure(data, Library, source=source)
    lib.check(source)
    return lib


@functools.cache
def library() -> Library:
    """The bundled data (``data/*.toml``), structured and cross-checked once."""
    data = {
        "weapons": _read("weapons.toml"),
        "armour": _read("armour.toml"),
        "characters": _read("characters.toml"),
        "groups": _read("battle_groups.toml"),
    }
    return build_library(data, "mttt_rpg:data")
