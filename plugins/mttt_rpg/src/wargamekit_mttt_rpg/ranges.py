"""Range bands (距离): the distance between each pair of combatants, 0–6 and beyond.

There is no map: every pair of combatants has a band. The source names contact (接触距离),
close (近距离), short (短距离), long (远距离), sight (视距距离), geographic (地理距离) and
astronomical (天文距离) distance and says ordinary movement works within 0–6; which number each
name sits at is PROVISIONAL (not from the source): 0 contact, 1 close, 2 short, 3 medium, 4 long,
5 far, 6 sight, 7 geographic, 8 astronomical.

>>> band_name(0), band_name(6), band_name(8)
('contact (接触)', 'sight (视距)', 'astronomical (天文)')
"""

from __future__ import annotations

from wargamekit.memo import remember

__all__ = [
    "ASTRONOMICAL",
    "BAND_NAMES",
    "CLOSE",
    "CONTACT",
    "GEOGRAPHIC",
    "LONG",
    "SIGHT",
    "band_name",
    "pair",
    "pair_keys",
]

CONTACT = 0
CLOSE = 1
LONG = 4
SIGHT = 6
GEOGRAPHIC = 7
ASTRONOMICAL = 8

BAND_NAMES = (
    "contact (接触)",
    "close (近)",
    "short (短)",
    "medium",
    "long (远)",
    "far",
    "sight (视距)",
    "geographic (地理)",
    "astronomical (天文)",
)


def band_name(band: int) -> str:
    """The name of a range band."""
    return BAND_NAMES[min(band, ASTRONOMICAL)]


def pair(a: str, b: str) -> str:
    """The key of the unordered pair ``a``–``b`` in the distance table.

    >>> pair("witch", "akari")
    'akari|witch'
    """
    return f"{a}|{b}" if a < b else f"{b}|{a}"


class _PairKeys(dict[str, str]):
    """:func:`pair` of one id with each other id, by the other, each made on its first read;
    at most :data:`_KEYS_PER_ID_KEPT` of them (a long-lived id read against ever new ids would
    otherwise gain a key for each): past them it starts again."""

    __slots__ = ("_of",)

    def __init__(self, of: str) -> None:
        super().__init__()
        self._of = of

    def __missing__(self, other: str) -> str:
        # (on a miss only: the reads that find a key pay nothing)
        return remember(self, other, pair(self._of, other), _KEYS_PER_ID_KEPT)


#: keys kept per id at most: far more than a scene's combatants (2 to 6 in the bundled ones)
_KEYS_PER_ID_KEPT = 256


#: :func:`pair_keys` made so far, by id (pure functions of the ids: kept whatever the game does)
_PAIR_KEYS: dict[str, _PairKeys] = {}
#: ids kept in :data:`_PAIR_KEYS` at most: past them (ids made up by the thousand, a generator
#: of scenes) it starts again. So the memo holds at most ``_IDS_KEPT * _KEYS_PER_ID_KEPT`` keys.
_IDS_KEPT = 4096


def pair_keys(a: str) -> dict[str, str]:
    """``pair(a, b)`` by ``b``: the keys of ``a``'s pairs in the distance table, kept once made.
    Why: reading a band is a table lookup by a key, and a key found here costs about a third of
    one built (hot: every target and range test of every menu and poll). ``a`` to itself is
    not a pair (its band is 0): do not look it up.

    >>> pair_keys("witch")["akari"]
    'akari|witch'
    """
    keys = _PAIR_KEYS.get(a)
    if keys is None:
        keys = remember(_PAIR_KEYS, a, _PairKeys(a), _IDS_KEPT)
    return keys
