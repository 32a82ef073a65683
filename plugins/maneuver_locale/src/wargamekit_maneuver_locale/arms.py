"""Piece types (arms) as data: the source's three, and those add-ons publish.

The source distinguishes its three arms — infantry (歩兵), cavalry (騎兵), artillery (砲兵) —
only by what the rules let each do; an :class:`ArmType` holds those differences as data, and
the rules read them (``piece.arm.gun``, ``piece.arm.pursues``), never the arm's name. An
add-on adds an arm through
:func:`~wargamekit_maneuver_locale.hookspecs.maneuver_locale_arms`; a scenario names it by
its key in ``pieces[].arm``, and a game with the add-on plays it by its data.

>>> Arm.CAVALRY.pursues, Arm.ARTILLERY.leads, Arm.INFANTRY.letter
(True, False, 'I')
>>> list(arm_types())
['infantry', 'cavalry', 'artillery']
"""

from __future__ import annotations

from typing import Any

from attrs import field, frozen

from wargamekit.errors import WargamekitError

__all__ = ["Arm", "ArmError", "ArmType", "BUILTIN_ARMS", "arm_types"]


class ArmError(WargamekitError, ValueError):
    """An add-on's arm is malformed or clashes with another arm's key."""


def _one_letter(_inst: object, _attr: object, value: str) -> None:
    if not isinstance(value, str) or len(value) != 1:
        raise ArmError(f"an arm's letter is one character, not {value!r}")


@frozen(repr=False, cache_hash=True)  # hashed with every piece option made (changes._subset_option)
class ArmType:
    """One piece type (arm), as data.

    The fields are the rules' distinctions between the source's arms, with the source's rule
    for each; an add-on's arm picks its own.

    Attributes:
        key: the arm's key in scenarios (``pieces[].arm``), events and the odds command.
        name: what a player reads, with the source's term where there is one.
        letter: one letter for compact labels (``I3``: infantry, 3 steps).
        short: a short label for the map (``Inf``).
        leads: may be a leading piece in an assault (Assaults: 歩兵と騎兵が選択可能 — infantry
            and cavalry may, artillery may not).
        gun: fires like artillery (Artillery Bombardment; Assaults — 防御砲撃), may not move
            in the turn it fired, and is removed when its locale retreats (Retreats: 砲兵は除去).
        pursues: may pursue after a won assault, and its presence in the defending locale
            stops the enemy's pursuit (Assaults — 騎兵の追撃: cavalry).
        enters_approach: may move onto an approach right after entering a locale (移動 —
            cavalry).
        reserve_retreat_free: retreats from the reserve without the step loss (Retreats:
            reserveの騎兵以外のpieceは…1ステップロス — cavalry retreats free).
        assault_bonus: added to its side's assault result when the side's leading pieces are
            of this arm (once: two leading pieces are of one arm), subtracted when it defends
            (Assaults — 判定). None of the source's arms has one (0).
    """

    key: str
    name: str
    letter: str = field(validator=_one_letter)
    short: str = ""
    leads: bool = True
    gun: bool = False
    pursues: bool = False
    enters_approach: bool = False
    reserve_retreat_free: bool = False
    assault_bonus: int = 0

    @property
    def value(self) -> str:
        """The key (the name the source's arms had as an enumeration)."""
        return self.key

    def __repr__(self) -> str:
        builtin = _BUILTIN_NAMES.get(self.key)
        if builtin is not None and BUILTIN_ARMS[self.key] == self:
            return f"Arm.{builtin}"
        return f"ArmType({self.key!r})"


class Arm:
    """The source's three arms (infantry 歩兵, cavalry 騎兵, artillery 砲兵), by name."""

    INFANTRY = ArmType("infantry", "infantry (歩兵)", "I", "Inf")
    CAVALRY = ArmType(
        "cavalry", "cavalry (騎兵)", "C", "Cav", pursues=True, enters_approach=True, reserve_retreat_free=True
    )
    ARTILLERY = ArmType("artillery", "artillery (砲兵)", "A", "Art", leads=False, gun=True)


#: The source's arms, by key.
BUILTIN_ARMS: dict[str, ArmType] = {a.key: a for a in (Arm.INFANTRY, Arm.CAVALRY, Arm.ARTILLERY)}
_BUILTIN_NAMES = {"infantry": "INFANTRY", "cavalry": "CAVALRY", "artillery": "ARTILLERY"}


def arm_types(hooks: Any = None) -> dict[str, ArmType]:
    """Every arm in play, by key: the source's three, then the add-ons' (through
    :func:`~wargamekit_maneuver_locale.hookspecs.maneuver_locale_arms`; ``hooks`` is
    ``ctx.hooks``/``view.hooks``, ``None`` without plugins).

    Raises:
        ArmError: an add-on's arm is not an :class:`ArmType` or reuses a key.
    """
    arms = dict(BUILTIN_ARMS)
    if hooks is None:
        return arms
    for added in hooks.maneuver_locale_arms():
        for arm in added or ():
            if not isinstance(arm, ArmType):
                raise ArmError(f"maneuver_locale_arms returned {arm!r}, not an ArmType")
            if arm.key in arms:
                raise ArmError(f"arm {arm.key!r} is defined twice: arm keys must be unique")
            arms[arm.key] = arm
    return arms
