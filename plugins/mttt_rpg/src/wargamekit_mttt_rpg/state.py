"""The state of a combat scene: combatants, range bands, the round and the initiative track."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, TypeAlias

from attrs import define, field

from wargamekit import RulesContext
from wargamekit.sequencing import InitiativeTrack

from .ranges import pair, pair_keys
from .resources import attribute_modifier, wound_penalty
from .sheets import Armour, CharacterSheet, GroupSheet, Weapon, library

if TYPE_CHECKING:
    from .scenario import MtttScenario

__all__ = ["Combatant", "Context", "Scene"]

ACTIVE = "active"
HELPLESS = "helpless"  # 无助: HP 0
WITHDRAWN = "withdrawn"  # escaped by withdraw (逃脱)
ROUTED = "routed"  # a disbanded battle group, fleeing (slaughter may follow)
GONE = "gone"  # a battle group reduced to size 0
ABSENT = "absent"  # not yet joined (中途加入)
#: The statuses of a combatant on the field (:attr:`Combatant.present`).
PRESENT = (ACTIVE, HELPLESS, ROUTED)


@define
class Combatant:
    """One participant: a character, a battle group (战团) or a non-combatant."""

    id: str
    name: str
    side: str
    kind: str  # "character" | "group" | "noncombatant"
    sheet_key: str
    group_key: str = ""
    status: str = ACTIVE
    hp: int = 0
    hp_max: int = 0
    initiative: int = 0
    weapon: str = ""
    # mana (法术力): the unfolded cap (MPM) and the per-round MP of each pool
    order_cap: int = 0
    order_mp: int = 0
    distortion_cap: int = 0
    distortion_mp: int = 0
    distortion_points: int = 0  # temporary distortion from lethal HP loss
    chaos_phase: int = 0  # chaos phases left (歪曲阶段)
    # initiative bookkeeping (先导崩溃/突破/逆转)
    crashed_rounds: int = 0
    crashed_by: str | None = None
    crash_self: bool = False
    recovered_round: int | None = None
    reversal_target: str | None = None
    consecutive_waits: int = 0
    waited_this_round: bool = False
    aim_bonus: int = 0
    aiming: bool = False
    # defense modifiers that last "until the next turn"
    onslaught: int = 0
    clash_penalty: int = 0
    full_defense: bool = False
    guarding: bool = False
    defense_bonus: int = 0
    protection_bonus: int = 0
    cover: str = "none"
    cover_available: str = "none"
    cover_difficulty: int = 12
    prone: bool = False
    # movement
    rushing: list[str] = field(factory=list)
    disengaged_from: list[str] = field(factory=list)
    withdrawing: bool = False
    withdraw_successes: int = 0
    engaged_by: str | None = None
    passed_through_round: int = 0
    # joining
    joins_round: int = 1
    prepared: bool = True
    # soul disability and burning soul jade
    disability_used: bool = False
    disability_negated: int = 0
    attribute_penalties: dict[str, int] = field(factory=dict)
    soul_jade: int = 0
    burn_points: int = 0
    ignited: bool = False
    converted: list[str] = field(factory=list)
    # battle groups
    size: int = 0
    size_lost: int = 0
    magnitude: int = 0
    magnitude_max: int = 0
    rallied_for_numbers: bool = False
    rout_failed: int | None = None
    dispersed: bool = False
    order_bonus: int = 0
    pending_order: int = 0
    readied_this_turn: bool = False
    leader_of: list[str] = field(factory=list)
    trivial: bool = False

    # -- data -------------------------------------------------------------------------------
    @property
    def sheet(self) -> CharacterSheet:
        """The character sheet (for a group: its average member)."""
        return library().characters[self.sheet_key]

    @property
    def group_sheet(self) -> GroupSheet | None:
        """The battle group's traits (``None`` for a single combatant)."""
        return library().groups[self.group_key] if self.group_key else None

    @property
    def ready_weapon(self) -> Weapon | None:
        """The weapon in hand (拔出/预备武器), if any."""
        return library().weapons[self.weapon] if self.weapon else None

    @property
    def armour(self) -> Armour:
        """The armour worn (防具)."""
        return library().armour[self.sheet.armour]

    def attribute(self, name: str) -> int:
        """An attribute score after soul-disability penalties."""
        return self.sheet.attributes[name] - self.attribute_penalties.get(name, 0)

    def mod(self, name: str) -> int:
        """An attribute modifier (provisional d20 convention)."""
        return attribute_modifier(self.attribute(name))

    # -- status -----------------------------------------------------------------------------
    @property
    def is_group(self) -> bool:
        """Whether this is a battle group (战团)."""
        return self.kind == "group"

    @property
    def inert(self) -> bool:
        """Withering attacks on it damage health/magnitude, not initiative (groups,
        non-combatants and trivial opponents)."""
        return self.kind in ("group", "noncombatant") or self.trivial

    @property
    def fighting(self) -> bool:
        """Still on the field and able to act."""
        return self.status == ACTIVE

    @property
    def present(self) -> bool:
        """On the field (routed groups stay to be slaughtered)."""
        return self.status in PRESENT

    @property
    def crashed(self) -> bool:
        """In initiative crash (先导崩溃): initiative 0 or lower (never for inert units)."""
        return self.kind == "character" and not self.trivial and self.initiative <= 0

    @property
    def wound(self) -> int:
        """The wound penalty (provisional table), doubled after a 9+ HP soul disability."""
        if self.kind != "character":
            return 0
        return wound_penalty(self.hp, self.hp_max, doubled=self.disability_negated >= 9)

    @property
    def effective_size(self) -> int:
        """Size bonus to attacks and damage: lost when dispersed too widely (散开)."""
        return 0 if self.dispersed else self.size


@define
class Scene:
    """The whole state of a combat scene."""

    combatants: dict[str, Combatant]
    distances: dict[str, int]
    round_limit: int
    boss_fight: bool = False
    crash_strips_gear: bool = False
    withdraw_difficulty: int = 1
    round: int = 0
    phase: str = "preparation"
    track: InitiativeTrack = field(factory=lambda: InitiativeTrack({}))
    tactic: str | None = None
    tactic_winner: str | None = None
    groups_disbanded: list[str] = field(factory=list)
    countered: list[int] = field(factory=list)
    next_item: int = 0
    trigger_serial: int = 0
    over: str | None = None
    acting: str | None = None
    #: Who at the current tick of the initiative track has yet to act, in the order they act
    #: (simultaneous actors as :func:`~.combat_round.action_round` settled them; a clash takes
    #: its target out). Kept here, not in the tick loop, so that play restarts at any turn.
    waiting: tuple[str, ...] = ()
    attacker: str | None = None
    defender: str | None = None
    attack_target: str | None = None
    casualties: dict[str, int] = field(factory=dict)

    def __iter__(self) -> Iterator[Combatant]:
        return iter(self.combatants.values())

    def unit(self, uid: str) -> Combatant:
        """The combatant with id ``uid``."""
        return self.combatants[uid]

    def distance(self, a: str, b: str) -> int:
        """The range band between ``a`` and ``b`` (0 for oneself)."""
        return 0 if a == b else self.distances[pair_keys(a)[b]]

    def set_distance(self, a: str, b: str, band: int) -> None:
        """Set the range band between ``a`` and ``b`` (never below 0)."""
        self.distances[pair(a, b)] = max(0, band)

    def enemies(self, unit: Combatant, *, include_inert: bool = True) -> list[Combatant]:
        """Opponents still fighting."""
        # hot (every menu): ``fighting`` read inline, in a loop (a comprehension makes a function
        # and its frame at every call)
        side = unit.side
        out = []
        for u in self.combatants.values():
            if u.side != side and u.status == ACTIVE and (include_inert or not u.inert):
                out.append(u)
        return out

    def allies(self, unit: Combatant) -> list[Combatant]:
        """Friends still fighting (``unit`` included)."""
        side = unit.side  # hot (every menu): ``fighting`` read inline, in a loop (as enemies)
        out = []
        for u in self.combatants.values():
            if u.side == side and u.status == ACTIVE:
                out.append(u)
        return out

    def long_river_count(self) -> int:
        """Long-river units (长河单位) on the field."""
        # (each round's mana release: ``present`` read as the status slot, in a loop, not a
        # generator; the sheet, a property, read only for a character on the field)
        count = 0
        for u in self.combatants.values():
            if u.kind == "character" and u.status in PRESENT and u.sheet.long_river:
                count += 1
        return count

    def defense_penalty_pincer(self, unit: Combatant) -> int:
        """Pincer attack (夹击): −1 onslaught all battle long for the losing side."""
        if self.tactic == "pincer" and self.tactic_winner is not None and unit.side != self.tactic_winner:
            return 1
        return 0


#: What the ruleset's rule procedures receive: the core's rules context over a :class:`Scene`
#: and the :class:`~wargamekit_mttt_rpg.scenario.MtttScenario` it was built from.
Context: TypeAlias = "RulesContext[Scene, MtttScenario]"
