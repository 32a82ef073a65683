"""Decisions: what a rule procedure asks a player, with the legal answers.

A ruleset's procedures ``yield`` a :class:`Decision` whenever a player must choose and receive
the chosen *value* back. The game records the *answer* — a small JSON value (an index, a list of
indices, a number, a boolean) — so a save file is just those answers.

Four kinds cover the rulebooks:

* :class:`Choose` — records the option's index; the procedure receives the option's ``value``.
* :class:`ChooseSubset` — records a sorted list of indices; the procedure receives the tuple of
  the chosen options' values.
* :class:`ChooseNumber` — records and returns the number.
* :class:`YesNo` — records and returns ``True`` or ``False``.

A decision marked ``secret=True`` is logged only for the side that made it (a hidden special
round, a face-down deployment); its public consequences are the ruleset's events to log.

Decisions say what they are. The prompt and labels are presentation only; what a bot, the
conformance check or a test reads is the structure:

* :attr:`Decision.kind` — a stable, machine-readable name of *what* is decided, namespaced by
  the ruleset (``"tank_solo.fire_target"``);
* :attr:`Decision.context` — a small frozen JSON-able mapping (the acting unit's id, the phase,
  the numbers a bot needs);
* :attr:`Option.data` — each option's own frozen JSON-able mapping (ids, coordinates, action
  names).

(:attr:`Decision.form` names the decision *type*: ``"choose"``, ``"subset"``, ``"number"`` or
``"yesno"``.)

A label that is costly to write (exact odds) may be *lazy*: a zero-argument callable, made only
when the label is first read — a bot never reads it, and the log reads only the chosen option's
(see :class:`Option`; ``Choose.of(..., lazy_labels=True)``). A whole menu may be *lazy*: its
options are made one by one when read, so a bot that reads one option (or only their count) pays
for one (see :class:`LazyOptions`; ``Choose.of(..., lazy=True)``). A decision is *sealed* when
it is answered: what of it is lazy and was not made by then is never made (reading it raises
:class:`~wargamekit.errors.StaleOptionError`), since the state it would be made from has moved on.

>>> d = Choose.of("north", "Which unit activates?", ["Guard", "Line"], rule="3.1",
...               kind="demo.activate", context={"phase": "command"},
...               data=lambda name: {"unit": name.lower()})
>>> d.value_of(1)
'Line'
>>> d.kind, d.context["phase"], d.options[1].data["unit"]
('demo.activate', 'command', 'line')
>>> d.check(5)
Traceback (most recent call last):
...
wargamekit.errors.InvalidChoiceError: Which unit activates? [3.1]: 5 is not one of 0..1
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias, final, overload

import numpy as np
from attrs import field, frozen
from attrs import fields as attrs_fields

from ._fastbuild import builder
from ._fastbuild import set_class as _set_class
from .errors import IllegalChoiceError, InvalidChoiceError, OptionError, StaleOptionError

__all__ = [
    "Answer",
    "ask",
    "Choose",
    "ChooseNumber",
    "ChooseSubset",
    "Data",
    "Decision",
    "LabelSource",
    "LazyOptions",
    "Option",
    "YesNo",
    "freeze_data",
]

#: A recorded answer: JSON-serialisable.
Answer: TypeAlias = int | bool | list[int]


class Data(dict[str, Any]):
    """A frozen, hashable JSON object: what :attr:`Decision.context` and :attr:`Option.data` hold.

    It *is* a ``dict`` (so ``json.dumps`` takes it as it is) whose keys are strings and whose
    values are JSON scalars, tuples (JSON arrays) or nested :class:`Data`; it refuses every
    change. Build one with :func:`freeze_data`.
    """

    __slots__ = ()

    def _refuse(self, *_args: Any, **_kwargs: Any) -> Any:
        raise TypeError("decision data is frozen")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(sorted(self.items())))

    def __repr__(self) -> str:
        return f"Data({dict.__repr__(self)})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Data, (dict(self),))


_SCALARS = (str, int, float, bool, type(None))
#: The exact scalar types, for the fast paths below (a subclass, e.g. a ``StrEnum``, takes the
#: general path, which gives the same result).
_PLAIN_SCALARS = frozenset(_SCALARS)


class _NotPlain(Exception):
    """Raised by :func:`_freeze_plain` for anything but plain JSON types."""


def _freeze_plain(value: Any) -> Any:
    # Hot: every option's and decision's data is frozen (a bot game builds tens of thousands).
    # Exact types only and no error paths; anything else (a subclass, a bad value) raises
    # _NotPlain and takes :func:`_freeze`, which names where the bad value is.
    # Scalars are taken inline, with no call per item, and a list or tuple of scalars only
    # (lnl's decision contexts: a list of unit ids) is checked in one pass and copied at once.
    kind = type(value)
    plain = _PLAIN_SCALARS
    if kind in plain:
        return value
    if kind is dict or kind is Data:
        items = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlain
            items[key] = item if type(item) in plain else _freeze_plain(item)
        return Data(items)
    if kind is tuple or kind is list:
        for item in value:
            if type(item) not in plain:
                return tuple([item if type(item) in plain else _freeze_plain(item) for item in value])
        return value if kind is tuple else tuple(value)
    raise _NotPlain


def _freeze(value: Any, where: str) -> Any:
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Mapping):
        items = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"{where}: key {key!r} is not a string (decision data is JSON)")
            items[key] = _freeze(item, f"{where}.{key}")
        return Data(items)
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(item, f"{where}[{i}]") for i, item in enumerate(value))
    raise TypeError(
        f"{where}: {value!r} is not JSON data (use ids, numbers, strings, lists, mappings)"
    )


def freeze_data(value: Mapping[str, Any] | None, where: str = "data") -> Data:
    """Check and freeze a JSON-able mapping (``None`` → empty).

    >>> freeze_data({"unit": "A1", "to": [3, 4]})
    Data({'unit': 'A1', 'to': (3, 4)})
    >>> freeze_data({"unit": object()})
    Traceback (most recent call last):
    ...
    TypeError: data.unit: <object object at ...> is not JSON data (use ids, numbers, strings, lists, mappings)
    """
    # Hot: every option's data (several a decision). The usual case first: a flat dict of
    # string keys to scalars, frozen without recursion.
    if type(value) is dict:
        plain = _PLAIN_SCALARS
        for key, item in value.items():
            if type(key) is not str or type(item) not in plain:
                break
        else:
            return Data(value) if value else _EMPTY
        try:
            frozen_plain: Data = _freeze_plain(value)
            return frozen_plain
        except _NotPlain:
            pass
    elif value is None:
        return _EMPTY
    elif isinstance(value, Data):
        return value
    if not isinstance(value, Mapping):
        raise TypeError(f"{where}: expected a mapping of names to JSON values, got {value!r}")
    frozen: Data = _freeze(value, where)
    return frozen


_EMPTY = Data()


#: What may stand for a label: the text itself, or a zero-argument callable that makes it (a
#: lazy label, see :class:`Option`).
LabelSource: TypeAlias = str | Callable[[], str]


@frozen(init=False)
class Option:
    """One legal option of a :class:`Choose` or :class:`ChooseSubset`.

    Args:
        value: what the procedure receives when this option is chosen (any object).
        label: what the deciding player reads; also what
            :class:`~wargamekit.players.ScriptedPlayer` accepts instead of an index. Either the
            text, or a zero-argument callable that makes it: a *lazy label* (below).
        public: what the log shows everyone when this option is chosen, where the label holds
            facts only the chooser may know (a face-down piece's arm and strength). ``None``:
            the label is public.
        data: what the option *is*, for programs: a JSON-able mapping of ids, coordinates and
            action names (``{"action": "fire", "tank": 3, "target": 7}``). Bots read this, never
            the label.

    **Lazy labels.** A label that is costly to write (exact odds in an opportunity-fire offer)
    may be given as a zero-argument callable. It is called on the first read of
    :attr:`label` (and at most once; the text is kept and the callable dropped), so a bot that
    reads only :attr:`data` never pays for it, and only the chosen option's label is made,
    when the game logs the choice. To every reader the option is as if built with the text:
    ``option.label`` is a ``str``, and so are the log, labels matched by
    :class:`~wargamekit.players.ScriptedPlayer` and what a terminal prints.

    * The callable is called only while the decision is pending: it may read the values it
      closes over and the state as it is then, and must never roll dice or change anything. An
      edit of the state while the decision is pending (a test, a scenario script) is seen by a
      label made after it, as the procedure sees it.
    * The decision is *sealed* when it is answered (the game logs the chosen label, made then,
      before the procedure goes on): a label made by then is kept for ever; one not made by
      then raises :class:`~wargamekit.errors.StaleOptionError` (naming the decision and the
      option) when read, rather than being made from a state that has moved on — a reader
      could not tell such a label from a true one. Read it while the decision is pending, or
      give the text. An option goes to one decision: the first to be answered seals it.
    * Equality and hashing are those of the text: an option with a lazy label equals the same
      option built with the text it makes, so comparing or hashing options makes their labels.
    * A pickle or copy carries the text (it is made first): a copy never calls back into the
      game that built the option, and one taken after the answer of a label never made raises.

    >>> made = []
    >>> def odds_label():
    ...     made.append("odds")
    ...     return "fire at T-34 #2 (58%)"
    >>> option = Option(("fire", 2), odds_label, data={"target": 2})
    >>> made  # nothing made yet
    []
    >>> option.label, option.label, made
    ('fire at T-34 #2 (58%)', 'fire at T-34 #2 (58%)', ['odds'])
    >>> option == Option(("fire", 2), "fire at T-34 #2 (58%)", data={"target": 2})
    True
    """

    value: Any
    label: str
    public: str | None
    data: Data
    # A lazy label's callable until its first read (the label slot unset till then), else None.
    _make_label: Callable[[], str] | None = field(init=False, eq=False, repr=False)

    def __init__(
        self,
        value: Any,
        label: LabelSource,
        public: str | None = None,
        data: Mapping[str, Any] | None = None,
    ) -> None:
        # Hot: rule code builds every option of an eager menu here (four a decision in the
        # rule-free game). The label's two cases inline, and flat data frozen with no call.
        # An Option itself is written as an _OptionBuilder by plain writes and turned back
        # (see _fastbuild): two class assignments cost less than five calls of the slots'
        # setters. A subclass takes the setters.
        if type(self) is not Option:
            _init_subclass_option(self, value, label, public, data)
            return
        _set_class(self, _OptionBuilder)
        this: Any = self
        try:
            this.value = value
            if type(label) is str or not callable(label):
                this.label = label
                this._make_label = None
            else:  # a lazy label: the label slot stays unset until __getattr__ makes it
                this._make_label = label
                global _lazy_labels_built  # (inline, not a call: four options a decision)
                _lazy_labels_built = True
            this.public = public
            if type(data) is dict:
                # freeze_data's first case inline (a flat dict of string keys to exact
                # scalars, the usual option data)
                for key, item in data.items():
                    if type(key) is not str or type(item) not in _PLAIN_SCALARS:
                        this.data = freeze_data(data)
                        break
                else:
                    this.data = Data(data) if data else _EMPTY
            else:
                this.data = _EMPTY if data is None else freeze_data(data)
        finally:
            this.__class__ = Option

    if not TYPE_CHECKING:  # (hidden from type checkers, which would take any name as valid)

        def __getattr__(self, name: str) -> Any:
            # Called only when an attribute is missing: for ``label``, when its slot is unset,
            # i.e. a lazy label not made yet. So a plain option's label stays a plain slot
            # read, and a lazy option needs neither a subclass nor a class change.
            if name == "label":
                make = _get_make_label(self)
                if make is not None:
                    return _make_label_now(self, make)
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # By hand rather than by attrs (which compares classes exactly): a subclass's option equals
    # the Option with the same fields, as it always has.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Option):
            return NotImplemented
        return (self.value, self.label, self.public, self.data) == (other.value, other.label, other.public, other.data)

    def __hash__(self) -> int:
        return hash((self.value, self.label, self.public, self.data))

    def __repr__(self) -> str:
        # By hand rather than by attrs: a label sealed unmade (see _seal) is shown as such, not
        # raised (a repr that raises would hide the error being reported).
        make = _get_make_label(self) if type(self) is Option else None
        label = _UNMADE_TEXT if type(make) is _StaleLabel else repr(self.label)
        return f"{type(self).__name__}(value={self.value!r}, label={label}, public={self.public!r}, data={self.data!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickles and copies carry the label's text: a callable may not pickle, and a copy
        # must not call back into the game that built the option.
        try:
            label = self.label
        except StaleOptionError as exc:
            raise _copying(exc, "the option") from None
        return (Option, (self.value, label, self.public, self.data))

    @property
    def public_label(self) -> str:
        """The label as every side may read it."""
        return self.label if self.public is None else self.public


# The slots' own setters and getter: building an Option through them is cheaper than through
# object.__setattr__. Hot: a bot game builds tens of thousands of options in Choose.of.
_set_value = Option.__dict__["value"].__set__
_set_label = Option.__dict__["label"].__set__
_set_public = Option.__dict__["public"].__set__
_set_data = Option.__dict__["data"].__set__
_make_label_slot = Option.__dict__["_make_label"]
_get_make_label, _set_make_label = _make_label_slot.__get__, _make_label_slot.__set__
_new_object = object.__new__


def _make_label_now(option: Option, make: Callable[[], str]) -> str:
    """Make a lazy option's label with ``make`` (its callable) and keep it."""
    if type(make) is _StaleLabel:  # sealed unmade (see _seal)
        raise make.error_for(option)
    made = make()
    if type(made) is not str:
        raise OptionError(f"a lazy option label must make a str, {make!r} made {made!r}")
    _set_label(option, made)
    _set_make_label(option, None)  # the callable may hold the live game: let it go
    return made


def _label_of(option: Option) -> str:
    """``option.label``, a lazy one made without the miss that sends the read to
    ``Option.__getattr__`` (an AttributeError raised and caught). Hot: the game reads the
    chosen option's label for the log at every answer."""
    if type(option) is Option:  # (a subclass's attrs __init__ may leave _make_label unset)
        make = _get_make_label(option)
        if make is not None:
            return _make_label_now(option, make)
    return option.label


def _init_subclass_option(
    option: Option, value: Any, label: LabelSource, public: str | None, data: Mapping[str, Any] | None
) -> None:
    """``Option.__init__`` for a subclass (which takes no builder), through the slots' setters."""
    _set_value(option, value)
    if type(label) is str or not callable(label):
        _set_label(option, label)
        _set_make_label(option, None)
    else:
        raise TypeError(f"{type(option).__name__}: a lazy label is for an Option itself, not a subclass")
    _set_public(option, public)
    _set_data(option, freeze_data(data))


#: what Option.__init__, Choose.of and lazy menus build options as (see _fastbuild)
_OptionBuilder = builder(Option)


def _option_tuple(options: Iterable[Option]) -> Sequence[Option]:
    # A lazy menu stays lazy (also through attrs.evolve); anything else becomes a tuple.
    if type(options) is LazyOptions:
        return options
    return tuple(options)


def _option(value: Any, label: LabelSource, data: Mapping[str, Any] | None) -> Option:
    """``Option(value, label, data=data)``, built by plain writes (see _fastbuild)."""
    frozen = freeze_data(data)  # first (it can raise): no half-built builder is left behind
    option = _new_object(_OptionBuilder)
    if type(label) is str or not callable(label):
        option.label = label
        option._make_label = None
    else:  # lazy: the label slot stays unset (see Option.__getattr__)
        option._make_label = label
        global _lazy_labels_built  # (see _seal)
        _lazy_labels_built = True
    option.value = value
    option.public = None
    option.data = frozen
    option.__class__ = Option
    return option


def _to_options(
    values: Iterable[Any],
    label: Callable[[Any], str],
    data: Callable[[Any], Mapping[str, Any]] | None,
    lazy: bool = False,
) -> tuple[Option, ...]:
    if lazy:
        return tuple(
            v if isinstance(v, Option) else _option(v, partial(label, v), None if data is None else data(v))
            for v in values
        )
    return tuple(
        v if isinstance(v, Option) else _option(v, label(v), None if data is None else data(v))
        for v in values
    )


@final
class LazyOptions(Sequence[Option]):
    """A menu whose options are made one by one, when first read (a *lazy menu*).

    Why: a random bot reads one option of a menu, or only how many there are, yet an eager menu
    makes every :class:`Option` (its label, its frozen data) — aig made 34,000 options for 4,300
    decisions. A lazy menu keeps the values and makes option ``i`` on the first read of
    ``options[i]``: its label ``label(value)`` (lazy itself with ``lazy_labels=True``, see
    :class:`Option`) and its data ``data(value)``, frozen then; later reads return the same
    option. A value that is already an :class:`Option` is taken as it is.

    Build one with ``Choose.of(..., lazy=True)``, or pass one as the ``options`` of a
    :class:`Choose` or :class:`ChooseSubset`.

    To every reader it is the tuple of options an eager menu holds: its length is known up
    front (the values are kept as a tuple), indexing, slicing (a tuple), iteration, ``in`` and
    ``index`` work, it equals (and hashes as) that tuple, and its ``repr`` is the tuple's.
    Comparing, hashing, pickling or copying it makes every option (and label); a pickle or copy
    *is* that tuple, so it never calls back into the game that built the menu.

    **The contract of the callables** (as for lazy labels): an option is made only while the
    decision is pending, so ``label`` and ``data`` may read the values, what they close over and
    the state as it is then (an edit of the state while the decision is pending is seen by what
    is made after it, as the procedure sees it); they must never roll dice or change anything.
    The game logs the chosen option's label (making the label alone, and keeping it) before the
    procedure goes on, and then *seals* the decision: an option, label or value not made by
    then is never made — its read raises :class:`~wargamekit.errors.StaleOptionError`, naming
    the decision and the option — and what was made reads the same for ever. So are sealed the
    one-option decisions :func:`ask` answers itself. A copy or pickle of a sealed menu with an
    option never made raises the same error (``repr`` shows such options as not made).

    A menu held by two decisions is one menu: an option made for one is the other's too, its
    errors name the decision built last, and the first answer seals it (build one menu per
    decision).

    **Values made from keys** (``make``): where even the values cost (a menu of ~15 actions a
    random bot reads one of), ``values`` may be cheap keys and ``make(key)`` the value of each,
    made on the first read of that value — by the answer, the option or any reader — and kept,
    so a value is made once. The length is the keys'; to every reader the menu is the one
    built from the made values (options, labels, data, equality, hashing, pickling, ``index``,
    ``in`` and errors). ``make`` keeps the callables' contract: it is called only while the
    decision is pending (the answer makes the chosen value), and a value not made by the answer
    is sealed with the rest.

    It cannot be subclassed: a decision keeps a lazy menu by its exact type (anything else
    becomes a tuple, which makes every option), so a subclass would silently be made eager.

    Raises:
        OptionError: (when an option is made) ``label`` made no ``str``, or ``data`` made no
            JSON-able mapping; the option stays unmade, so every read raises again.
        StaleOptionError: (an :class:`OptionError`) an option, label or value first read after
            the decision holding the menu was answered.
        TypeError: (when a class is defined) a subclass of ``LazyOptions``.

    What ``make`` raises comes out unchanged from the read that made the value, and the value
    stays unmade: the next read calls ``make`` again.

    >>> made = []
    >>> def label(name):
    ...     made.append(name)
    ...     return f"activate {name}"
    >>> menu = LazyOptions(["Guard", "Line", "Rear"], label, data=lambda name: {"unit": name.lower()})
    >>> len(menu), made  # the length is known, nothing is made
    (3, [])
    >>> menu[1].data["unit"], made
    ('line', ['Line'])
    >>> menu[1] is menu[1], made  # made once
    (True, ['Line'])
    >>> menu == tuple(Option(n, f"activate {n}", data={"unit": n.lower()}) for n in ["Guard", "Line", "Rear"])
    True
    >>> units = LazyOptions([("guard", 2)], lambda unit: unit.upper(), make=lambda key: f"{key[0]}-{key[1]}")
    >>> units[0].value, units[0].label
    ('guard-2', 'GUARD-2')
    """

    __slots__ = (
        "_values", "_label", "_data", "_lazy_labels", "_made", "_said", "_prompt", "_rule", "_make_value",
        "_made_values", "_answered",
    )

    #: a value not made yet (see _value)
    _UNMADE: Any = object()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # typing.final tells a type checker; this tells everyone else (see the class docstring).
        raise TypeError(
            f"{cls.__name__}: LazyOptions cannot be subclassed (a decision keeps a lazy menu by its "
            "exact type; a subclass would be turned into a tuple, every option made)"
        )

    def __init__(
        self,
        values: Iterable[Any],
        label: Callable[[Any], str] = str,
        data: Callable[[Any], Mapping[str, Any]] | None = None,
        *,
        lazy_labels: bool = False,
        make: Callable[[Any], Any] | None = None,
    ) -> None:
        self._values = tuple(values)  # (with ``make``: the keys)
        self._label = label
        self._data = data
        self._lazy_labels = lazy_labels
        self._make_value = make
        # the values made from the keys so far (_UNMADE: not yet), made with the first value
        self._made_values: list[Any] | None = None
        # the options made so far (None: not made yet), made with the first option: a random
        # bot's menu never makes one (the list was ~1,400 instructions of every menu)
        self._made: list[Option | None] | None = None
        # index -> the label an answer (or a describe) made for an option it left unmade (what
        # the log wrote): the option, if made later while pending, carries that label, and
        # ``describe`` gives it after the answer
        self._said: dict[int, str] | None = None
        # What an error names (see _where); the decision holding the menu sets them to its
        # prompt and rule, kept apart: joined, they were a string every menu made for its errors.
        self._prompt = "lazy menu"
        self._rule = ""
        # set when the decision holding the menu is answered (see _seal): what is not made by
        # then is never made
        self._answered = False

    def _make(self, index: int) -> Option:
        """Make, keep and return option ``index``; an index out of range raises ``IndexError``
        here, before anything is made (``__getitem__`` relies on it). Hot: once per option read."""
        value = self._values[index] if self._make_value is None else self._value(index)
        if self._answered:
            raise _stale(self._prompt, self._rule, index % len(self._values), "", value)
        made = self._made
        if made is None:
            made = self._made = [None] * len(self._values)
        if isinstance(value, Option):
            made[index] = value
            return value
        option: Any  # an _OptionBuilder, turned into an Option once written (see _fastbuild)
        # What can raise (the label, the data) is made before the builder: none is left half
        # built for a traceback to hold.
        said = self._said
        label: Any = None if said is None else said.get(index)
        if label is None and not self._lazy_labels:
            label = self._label(value)
            if not isinstance(label, str):
                raise OptionError(f"{self._where_of(index)}: its label {self._label!r} made {label!r}, not a str")
        make_data = self._data
        if make_data is None:
            data = _EMPTY
        else:
            try:
                data = freeze_data(make_data(value), "data")
            except TypeError as exc:
                if isinstance(exc, OptionError):
                    raise
                raise OptionError(f"{self._where_of(index)}: {exc}") from exc
        option = _new_object(_OptionBuilder)
        if label is None:  # lazy labels, none said yet
            option._make_label = partial(self._label, value)  # label unset: Option.__getattr__
            global _lazy_labels_built  # (see _seal)
            _lazy_labels_built = True
        else:
            option.label = label
            option._make_label = None
        option.value = value
        option.public = None
        option.data = data
        option.__class__ = Option
        made[index] = option
        return option

    def _value(self, index: int) -> Any:
        """Option ``index``'s value: made from its key by ``make`` on the first read, then kept
        (an index out of range raises the tuple's ``IndexError`` first). The hot readers
        (``_make``, ``_value_and_label``, ``_value_of``) test ``_make_value`` themselves and read
        the tuple when there is no maker: a call less a read for every menu without one."""
        make, key = self._make_value, self._values[index]
        if make is None:
            return key
        made = self._made_values
        if made is None:
            made = self._made_values = [self._UNMADE] * len(self._values)
        value = made[index]
        if value is self._UNMADE:
            if self._answered:
                raise _stale(self._prompt, self._rule, index % len(self._values), "'s value", key, "key ")
            value = made[index] = make(key)
        return value

    def _where(self) -> str:
        """The menu as its errors name it: the prompt and rule of the decision built on it last
        (as ``Decision._where``), or "lazy menu"."""
        return _where_text(self._prompt, self._rule)

    def _where_of(self, index: int) -> str:
        """Option ``index`` as an error names it."""
        index %= len(self._values)
        return f"{self._where()}: option {index} ({self._value(index)!r})"

    def _value_and_label(self, index: int) -> tuple[Any, str]:
        """Option ``index``'s value and public label — what the game sends the procedure and
        logs when the option is chosen — without making the option if it is not made yet: its
        data, which the log does not read, is made by the first read of the option (hot: the
        game's every answer to a lazy menu; a random bot reads nothing else of the option).
        The label made here is kept, and is the option's if it is made later while the decision
        is pending; after the answer ``describe`` reads it (a label not kept raises then)."""
        made = self._made
        option = None if made is None else made[index]
        if option is None:
            value = self._values[index] if self._make_value is None else self._value(index)
            if not isinstance(value, Option):
                said = self._said
                if said is not None:
                    label = said.get(index)
                    if label is not None:
                        return value, label
                if self._answered:
                    raise _stale(self._prompt, self._rule, index % len(self._values), "'s label", value)
                label = self._label(value)
                if type(label) is str:
                    if said is None:
                        self._said = {index: label}
                    else:
                        said[index] = label
                    return value, label
                # not a str: making the option raises what it raises for that label (or keeps
                # a str subclass, as the option's label)
                option = self[index]
            else:
                option = value
        public = option.public
        return option.value, (_label_of(option) if public is None else public)

    def _value_of(self, index: int) -> Any:
        """Option ``index``'s value, without making the option (what the procedure receives;
        :func:`ask` reads it alone)."""
        value = self._values[index] if self._make_value is None else self._value(index)
        return value.value if isinstance(value, Option) else value

    def __len__(self) -> int:
        return len(self._values)

    @overload
    def __getitem__(self, index: int) -> Option: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Option, ...]: ...

    def __getitem__(self, index: int | slice) -> Option | tuple[Option, ...]:
        if type(index) is slice:
            return tuple(self[i] for i in range(*index.indices(len(self._values))))
        # (an index out of range: the IndexError a tuple raises, from the list or _make's read)
        made = self._made
        option = None if made is None else made[index]
        return option if option is not None else self._make(index)

    def __iter__(self) -> Iterator[Option]:
        for index in range(len(self._values)):
            made = self._made  # (made by the first option made)
            option = None if made is None else made[index]
            yield option if option is not None else self._make(index)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (LazyOptions, tuple)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        if not self._answered:
            return repr(tuple(self))
        # sealed (see _seal): the options made, and those that never will be, shown as such
        made = self._made or [None] * len(self._values)
        shown = [_UNMADE_TEXT if option is None else repr(option) for option in made]
        return f"({', '.join(shown)}{',' if len(shown) == 1 else ''})"

    def __reduce__(self) -> tuple[Any, ...]:
        # A pickle or copy is the tuple of made options: the callables may hold the live game.
        try:
            return (tuple, (_fully_made(self),))
        except StaleOptionError as exc:
            raise _copying(exc, "the menu") from None


_init_menu = LazyOptions.__init__


def _where_text(prompt: str, rule: str) -> str:
    """A decision as its errors name it: its prompt, and its rule in brackets if it has one."""
    return f"{prompt} [{rule}]" if rule else prompt


def _stale(prompt: str, rule: str, index: int, what: str, shown: Any, shown_as: str = "") -> StaleOptionError:
    """The error of a first read, after its decision was answered, of option ``index`` (or of
    its ``what``: "'s label", "'s value"), shown by its value or key ``shown`` (its repr cut
    short: a key may hold the whole state)."""
    return StaleOptionError(
        f"{_where_text(prompt, rule)}: option {index}{what} ({shown_as}{_short_repr(shown)}) is lazy and was not "
        "made before the decision was answered: read it while the decision is pending, or build the menu eagerly"
    )


def _short_repr(value: Any) -> str:
    """``repr(value)``, cut short where it is long (an error's)."""
    return _reprs.repr(value)


_reprs = reprlib.Repr()
_reprs.maxstring = _reprs.maxother = 80


def _copying(error: StaleOptionError, what: str) -> StaleOptionError:
    """``error``, raised by a copy or pickle of ``what``, saying so (a copy reads every part)."""
    return StaleOptionError(f"{error} (read to copy or pickle {what})")


#: how a repr shows a label or option left unmade by an answer (see _seal)
_UNMADE_TEXT = "<not made before the answer>"


class _StaleLabel(tuple):
    """What an answered decision's lazy labels not made yet are replaced by (see :func:`_seal`):
    one per decision, shared by those options (one object made per answer, not one per
    option: the seal is on every answer of a menu with lazy labels). Asked to make an option's
    label, it raises :class:`StaleOptionError` instead, naming the option's place in the menu.

    A tuple ``(prompt, rule, ids)``, ``ids`` being the ``id`` of each option of the menu in
    order: built by :func:`tuple.__new__` with no ``__init__`` to run, and holding no option
    (an option holding its menu would be a reference cycle, freed only by the collector).
    """

    __slots__ = ()

    def error_for(self, option: Option) -> StaleOptionError:
        """The error of a read of ``option``'s label."""
        prompt, rule, ids = self
        return _stale(prompt, rule, ids.index(id(option)), "'s label", option.value)

    def __call__(self) -> str:
        # (the core calls error_for, which can name the option; a direct call cannot)
        raise StaleOptionError(f"{_where_text(self[0], self[1])}: a lazy label was not made before the "
                               "decision was answered: read it while the decision is pending")


_new_tuple = tuple.__new__


#: Whether an option with a lazy label was ever built in this process (set by each way of
#: building one: ``Option(...)`` with a callable, ``_option`` for ``Choose.of(lazy_labels=True)``,
#: ``LazyOptions._make``): until one is, no eager menu can hold one, and sealing it looks at
#: nothing. Which decision a lazy option goes to is not known when it is built, so the seal
#: walks an eager menu's options, reading each one's ``_make_label`` slot (a plain slot read,
#: which ``__getattr__`` never sees); cheap an option, but every answer of an eager menu pays it. The
#: flag spares rulesets that build no lazy label that walk: maneuver_locale (~1,200 options
#: answered a game) plays 3.0 % fewer instructions with it, 49.26 against 50.75 M a game with
#: the flag forced on (the session-30 review's count).
_lazy_labels_built = False


def _seal(decision: Decision) -> None:
    """Seal ``decision``, which is being answered: from now on, a label, option or value of it
    that is lazy and was not made yet raises :class:`StaleOptionError` when read, rather
    than being made from a state that has moved on; what was read stays readable.

    The game calls it for every answer once the choice is logged, before the procedure goes on
    (so the chosen option's label, which the log reads, is made), and :func:`ask` for the
    one-option decisions it answers itself. Cheap: a lazy menu is one slot set (the game sets
    it inline for a menu nobody read); a lazy menu's options made while it was pending, and an
    eager menu's once this process has built a lazy label (``_lazy_labels_built``), are looked
    at for lazy labels not made yet, replaced by one :class:`_StaleLabel` for the decision.
    """
    kind = type(decision)  # (type before isinstance: every answer of an eager menu comes here)
    if kind is not Choose and kind is not ChooseSubset and not isinstance(decision, (Choose, ChooseSubset)):
        return
    options = decision.options  # type: ignore[attr-defined]  # (a Choose or ChooseSubset)
    made: Sequence[Option | None]
    if type(options) is LazyOptions:
        options._answered = True
        if options._made is None:  # (a random bot's menu: nothing made, nothing more to seal)
            return
        made = options._made
    elif not _lazy_labels_built:  # (no option of this process has a lazy label)
        return
    else:
        made = options
    stale = None
    for option in made:
        # (a slot read, not _get_make_label: a call per option is most of an eager menu's seal)
        if type(option) is Option and (make := option._make_label) is not None and type(make) is not _StaleLabel:
            if stale is None:
                stale = _new_tuple(_StaleLabel, (decision.prompt, decision.rule, tuple(map(id, made))))
            _set_make_label(option, stale)


def _answered_before(decision: Decision) -> bool:
    """Whether ``decision`` was answered (sealed) already: its lazy menu's flag, or an option
    of its eager menu whose lazy label the seal replaced. An eager menu whose every label was
    made (or that has none lazy) bears no mark: asked again, it reads and answers as before."""
    if not isinstance(decision, (Choose, ChooseSubset)):
        return False
    options = decision.options
    if type(options) is LazyOptions:
        return options._answered
    if not _lazy_labels_built:  # (no option of this process has a lazy label)
        return False
    return any(type(option) is Option and type(_get_make_label(option)) is _StaleLabel for option in options)


def _asked_again(decision: Decision) -> OptionError:
    """The error of a decision yielded again after its answer (see :func:`_answered_before`)."""
    return OptionError(
        f"{decision._where()}: this decision was answered already and is asked again: a decision is "
        "asked once (its answer seals what of it was not made), so build a fresh one, its menu too, "
        "to ask again"
    )


def _bind_where(decision: Choose | ChooseSubset) -> None:
    """Let a lazy menu's errors name the decision holding it (an eager menu pays one check)."""
    options = decision.options
    if type(options) is LazyOptions:
        options._prompt, options._rule = decision.prompt, decision.rule


def _fully_made(options: Sequence[Option]) -> tuple[Option, ...]:
    """``options`` as a tuple, every option and label made: what a pickle or copy holds, so it
    never calls back into the game, not even through a lazy label of an option that a shallow
    copy shares with the menu (and which the menu's answer would seal)."""
    made = tuple(options)
    for option in made:
        _label_of(option)
    return made


def _getstate_made(self: Decision) -> dict[str, Any]:
    """A menu decision's pickle and copy state (``__getstate__``): its options as a tuple, every
    option and label made (:func:`_fully_made`), so a copy never calls back into the game that
    built it; of an answered decision with a part left unmade, ``StaleOptionError``."""
    state = {name: getattr(self, name) for name in _field_names(type(self))}
    try:
        state["options"] = _fully_made(state["options"])
    except StaleOptionError as exc:
        raise _copying(exc, "the decision") from None
    return state


def _setstate(self: Decision, state: dict[str, Any]) -> None:
    for name, value in state.items():
        object.__setattr__(self, name, value)


def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(a.name for a in attrs_fields(cls))


@frozen(kw_only=True)
class Decision:
    """Base of all decisions.

    Attributes:
        side: the side that must answer.
        prompt: the question, as a human would read it (presentation only).
        rule: the rule that asks it, cited as the rulebook does.
        secret: log the choice only for ``side`` (hidden information).
        kind: what is being decided, stable and machine-readable, namespaced by the ruleset
            (``"tank_solo.fire_target"``). Rewording a prompt never changes it.
        context: the facts a program needs to answer (the acting unit's id, the phase, the
            numbers at stake), as a frozen JSON-able mapping.
    """

    #: the decision type: ``"choose"``, ``"subset"``, ``"number"`` or ``"yesno"``
    form: ClassVar[str] = "decision"
    side: str
    prompt: str
    rule: str = ""
    secret: bool = False
    kind: str = ""
    context: Data = field(default=None, converter=freeze_data)

    def _where(self) -> str:
        return _where_text(self.prompt, self.rule)

    def check(self, answer: Any) -> Answer:
        """Validate ``answer`` and return it in canonical recorded form.

        Raises:
            InvalidChoiceError: the answer cannot be read.
            IllegalChoiceError: the answer is readable but breaks a constraint of the rule.
        """
        raise NotImplementedError

    def value_of(self, answer: Answer) -> Any:
        """The value the procedure receives for a (checked) answer."""
        raise NotImplementedError

    def random_answer(self, rng: np.random.Generator) -> Answer:
        """A uniformly random legal answer (used by the random bot)."""
        raise NotImplementedError

    def describe(self, answer: Answer) -> str:
        """A short description of an answer for the log, readable by every side."""
        return str(self.value_of(answer))


@frozen(kw_only=True, init=False)
class Choose(Decision):
    """Choose exactly one of ``options``.

    ``options`` is a tuple of :class:`Option`, or a lazy menu (:class:`LazyOptions`, made by
    ``Choose.of(..., lazy=True)``) whose options are made when read; to every reader the two are
    alike (see :class:`LazyOptions`). Pickles and copies of a decision hold the tuple. It is
    typed ``Sequence[Option]``: code must not assume a tuple (``isinstance(d.options, tuple)``,
    ``d.options + (...)``); where it needs one, ``tuple(d.options)`` makes every option.

    A decision is asked once (as are its menu and options): its answer seals it (see
    :class:`LazyOptions`), so a rule that asks again builds a fresh one. The game refuses the
    decision just answered yielded again with :class:`~wargamekit.errors.OptionError` (where
    the seal left a mark: a lazy menu, or a lazy label not made).
    """

    form: ClassVar[str] = "choose"
    options: Sequence[Option] = field(converter=_option_tuple)

    def __init__(
        self,
        *,
        side: str,
        prompt: str,
        rule: str = "",
        secret: bool = False,
        kind: str = "",
        context: Mapping[str, Any] | None = None,
        options: Iterable[Option],
    ) -> None:
        # By hand: what attrs' __init__ does (the two converters, then __attrs_post_init__).
        # Hot: rule code builds a Choose for most decisions. A Choose itself is written as a
        # _ChooseBuilder by plain writes and turned back (see _fastbuild): two class
        # assignments cost less than seven calls of the slots' setters.
        if type(self) is not Choose:  # a subclass: through the setters
            _init_choose(self, side, prompt, rule, secret, kind, context, options)
            return
        _set_class(self, _ChooseBuilder)
        _fill_choose(self, side, prompt, rule, secret, kind, context, options)

    def __attrs_post_init__(self) -> None:
        # (What a subclass's attrs __init__ calls; Choose's own __init__ does the same inline.)
        if not self.options:
            raise ValueError(f"{self._where()}: a Choose needs at least one option")
        _bind_where(self)

    __getstate__ = _getstate_made
    __setstate__ = _setstate

    @classmethod
    def of(
        cls,
        side: str,
        prompt: str,
        values: Iterable[Any],
        *,
        rule: str = "",
        label: Callable[[Any], str] = str,
        secret: bool = False,
        kind: str = "",
        context: Mapping[str, Any] | None = None,
        data: Callable[[Any], Mapping[str, Any]] | None = None,
        lazy_labels: bool = False,
        lazy: bool = False,
    ) -> Choose:
        """Build from plain values or :class:`Option` objects: a plain value's label is
        ``label(value)`` and its data ``data(value)``.

        With ``lazy_labels=True`` each plain value's label is lazy (see :class:`Option`):
        ``label(value)`` is called only when that option's label is first read.

        With ``lazy=True`` the menu is lazy (a :class:`LazyOptions`): option ``i`` is made —
        ``label`` and ``data`` called for its value, the data frozen — only when ``options[i]``
        is first read, so a random bot, which reads only the count and the chosen option's label
        (when the game logs it), makes one label per decision and no option. To every reader the decision is as if
        built eagerly. ``label`` and ``data`` are then called only while the decision is pending
        (what is not made when it is answered is sealed: see :class:`LazyOptions`); they must
        never roll or change anything. ``lazy`` and ``lazy_labels`` combine: a made option's
        label is then made on its own first read.

        >>> calls = []
        >>> d = Choose.of("red", "Fire at?", ["T-34 #1", "T-34 #2", "KV-1"], lazy=True,
        ...               data=lambda t: calls.append(t) or {"target": t})
        >>> len(d.options), calls
        (3, [])
        >>> d.describe(2), calls  # (what the log reads: the label alone)
        ('KV-1', [])
        >>> d.options[2].data["target"], calls
        ('KV-1', ['KV-1'])
        """
        options: Sequence[Option]
        if lazy:  # (made, then initialised: cheaper than calling the class with a keyword)
            menu = _new_object(LazyOptions)
            _init_menu(menu, values, label, data, lazy_labels=lazy_labels)
            options = menu
        else:
            options = _to_options(values, label, data, lazy_labels)
        if cls is not Choose:
            return cls(side=side, prompt=prompt, rule=rule, secret=secret, kind=kind, context=context, options=options)
        # (hot: most decisions) _plain_choose's work, a call less
        return _fill_choose(_new_object(_ChooseBuilder), side, prompt, rule, secret, kind, context, options)

    @property
    def labels(self) -> list[str]:
        """The option labels, in order."""
        return [o.label for o in self.options]

    def check(self, answer: Any) -> Answer:
        if isinstance(answer, bool) or not isinstance(answer, (int, np.integer)):
            raise InvalidChoiceError(f"{self._where()}: expected an option index, got {answer!r}")
        if not 0 <= int(answer) < len(self.options):
            raise InvalidChoiceError(
                f"{self._where()}: {answer} is not one of 0..{len(self.options) - 1}"
            )
        return int(answer)

    def value_of(self, answer: Answer) -> Any:
        options = self.options
        if type(options) is LazyOptions:
            return options._value_of(int(answer))  # type: ignore[arg-type]
        return options[int(answer)].value  # type: ignore[arg-type]

    def random_answer(self, rng: np.random.Generator) -> Answer:
        # Hot: the random bot's every answer to a Choose. _random_int's draw, inline (a call
        # less): the bound, len - 1, is a plain int far below 2**32 - 1.
        draws = rng.bit_generator.ctypes
        return _bounded(draws.next_uint32, draws.state, len(self.options) - 1)

    def describe(self, answer: Answer) -> str:
        # (Option.public_label inline: every answer is described for the log.)
        options = self.options
        if type(options) is LazyOptions:  # the label alone: the option is made when read
            return options._value_and_label(int(answer))[1]  # type: ignore[arg-type]
        option = options[int(answer)]  # type: ignore[arg-type]
        public = option.public
        return _label_of(option) if public is None else public


def _plain_choose(
    side: str, prompt: str, rule: str, secret: bool, kind: str,
    context: Mapping[str, Any] | None, options: Iterable[Option],
) -> Choose:
    """A plain :class:`Choose` of these fields, as ``Choose(side=side, ...)`` makes it (the same
    checks and errors), without calling the class: for the core's hot decisions (the interrupt
    window's poll; ``Choose.of`` calls :func:`_fill_choose` itself, a call less), where a keyword call to a class costs ~3,300 instructions more
    than a call to a function (Python packs the keywords into a dict)."""
    return _fill_choose(_new_object(_ChooseBuilder), side, prompt, rule, secret, kind, context, options)


def _fill_choose(
    this: Any, side: str, prompt: str, rule: str, secret: bool, kind: str,
    context: Mapping[str, Any] | None, options: Iterable[Option],
) -> Choose:
    """Write a Choose's fields on ``this``, a _ChooseBuilder, by plain writes, and turn it
    into the Choose (see _fastbuild), which it returns: ``Choose.__init__``'s work, and
    ``Choose.of``'s without the call of the class (whose keyword arguments Python passes
    through a dict)."""
    try:
        this.side = side
        this.prompt = prompt
        this.rule = rule
        this.secret = secret
        this.kind = kind
        # (a context given frozen, as most rules give it, taken without freeze_data's call)
        this.context = context if type(context) is Data else _EMPTY if context is None else freeze_data(context)
        if type(options) is LazyOptions:
            this.options = options
            options._prompt, options._rule = prompt, rule  # as _bind_where
            empty = not options._values  # (not its len(): a Python call)
        else:
            this.options = options = tuple(options)
            empty = not options
    finally:
        this.__class__ = Choose
    if empty:
        raise ValueError(f"{this._where()}: a Choose needs at least one option")
    choose: Choose = this
    return choose


def _init_choose(
    self: Choose, side: str, prompt: str, rule: str, secret: bool, kind: str,
    context: Mapping[str, Any] | None, options: Iterable[Option],
) -> None:
    """Choose.__init__ for a subclass (which takes no builder), through the slots' setters."""
    _set_side(self, side)
    _set_prompt(self, prompt)
    _set_rule(self, rule)
    _set_secret(self, secret)
    _set_kind(self, kind)
    _set_context(self, _EMPTY if context is None else freeze_data(context))
    if type(options) is LazyOptions:
        _set_options(self, options)
        options._prompt, options._rule = prompt, rule  # as _bind_where
    else:
        options = tuple(options)
        _set_options(self, options)
    if not options:
        raise ValueError(f"{self._where()}: a Choose needs at least one option")


#: what Choose.__init__ writes a Choose as (see _fastbuild)
_ChooseBuilder = builder(Choose)
# The slots' own setters, for a subclass of Choose.
_set_side = Decision.__dict__["side"].__set__
_set_prompt = Decision.__dict__["prompt"].__set__
_set_rule = Decision.__dict__["rule"].__set__
_set_secret = Decision.__dict__["secret"].__set__
_set_kind = Decision.__dict__["kind"].__set__
_set_context = Decision.__dict__["context"].__set__
_set_options = Choose.__dict__["options"].__set__


@frozen(kw_only=True)
class ChooseSubset(Decision):
    """Choose between ``min_count`` and ``max_count`` of ``options`` (no repeats).

    ``options`` may be a lazy menu (:class:`LazyOptions`), as for :class:`Choose`, and is
    likewise typed ``Sequence[Option]``: code must not assume a tuple (``tuple(d.options)``
    makes one, making every option).

    ``constraint`` receives the tuple of chosen values and returns ``None`` when they are
    acceptable, or the reason they are not (reported as an :class:`IllegalChoiceError` citing
    ``rule``). The random bot samples subsets until one passes, so keep constraints cheap.
    """

    form: ClassVar[str] = "subset"
    options: Sequence[Option] = field(converter=_option_tuple)
    min_count: int = 0
    max_count: int | None = None
    constraint: Callable[[tuple[Any, ...]], str | None] | None = field(
        default=None, eq=False, repr=False
    )

    def __attrs_post_init__(self) -> None:
        if not 0 <= self.min_count <= self.upper:
            # No answer could be legal: a ruleset bug, caught where it is made.
            raise ValueError(
                f"{self._where()}: cannot choose at least {self.min_count} and at most "
                f"{self.upper} of {len(self.options)} options"
            )
        _bind_where(self)

    __getstate__ = _getstate_made
    __setstate__ = _setstate

    @property
    def upper(self) -> int:
        """The largest legal subset size."""
        return len(self.options) if self.max_count is None else min(self.max_count, len(self.options))

    @property
    def labels(self) -> list[str]:
        """The option labels, in order."""
        return [o.label for o in self.options]

    def check(self, answer: Any) -> Answer:
        if type(answer) is not list:  # (a list, the usual answer, needs neither test: the ABC's is slow)
            if isinstance(answer, np.ndarray) and answer.ndim == 1:
                answer = answer.tolist()  # a bot's ``rng.choice(...)``
            if isinstance(answer, (str, bytes)) or not isinstance(answer, Sequence):
                raise InvalidChoiceError(f"{self._where()}: expected a list of option indices, got {answer!r}")
        indices = []
        for item in answer:
            if isinstance(item, bool) or not isinstance(item, (int, np.integer)):
                raise InvalidChoiceError(f"{self._where()}: {item!r} is not an option index")
            if not 0 <= int(item) < len(self.options):
                raise InvalidChoiceError(
                    f"{self._where()}: {item} is not one of 0..{len(self.options) - 1}"
                )
            indices.append(int(item))
        if len(set(indices)) != len(indices):
            raise InvalidChoiceError(f"{self._where()}: an option is chosen twice in {answer!r}")
        indices.sort()
        if not self.min_count <= len(indices) <= self.upper:
            raise IllegalChoiceError(
                self.rule,
                f"{self.prompt}: choose between {self.min_count} and {self.upper}, not {len(indices)}",
            )
        if self.constraint is not None:
            # The values alone, as value_of reads them: checking a lazy menu's answer makes no option.
            reason = self.constraint(self.value_of(indices))
            if reason:
                raise IllegalChoiceError(self.rule, reason)
        return indices

    def value_of(self, answer: Answer) -> tuple[Any, ...]:
        options = self.options
        if type(options) is LazyOptions:
            # The picked values alone: a constraint tested on a random pick makes no option.
            return tuple(options._value_of(i) for i in answer)  # type: ignore[union-attr]
        return tuple(options[i].value for i in answer)  # type: ignore[union-attr]

    def random_answer(self, rng: np.random.Generator, attempts: int = 200) -> Answer:
        count, low, high = len(self.options), self.min_count, self.upper
        constraint = self.constraint
        for _ in range(attempts):
            picked = _random_subset(rng, count, low, high)
            if constraint is None or not constraint(self.value_of(picked)):
                return picked
        # Constraints can make random sampling hopeless; fall back to a systematic search.
        from itertools import combinations

        for size in range(self.min_count, self.upper + 1):
            for combo in combinations(range(len(self.options)), size):
                if self.constraint is None or not self.constraint(self.value_of(list(combo))):
                    return list(combo)
        raise IllegalChoiceError(self.rule, f"{self.prompt}: no legal subset exists")

    def describe(self, answer: Answer) -> str:
        options = self.options
        if type(options) is LazyOptions:  # the labels alone: the options are made when read
            return ", ".join([options._value_and_label(i)[1] for i in answer]) or "none"  # type: ignore[union-attr]
        return ", ".join(options[i].public_label for i in answer) or "none"  # type: ignore[union-attr]


# The random bot's answers, from the draws numpy's own calls make. Hot: a
# ``ChooseSubset.random_answer`` was ``rng.integers`` + ``rng.choice`` (~7 µs a try, most of it
# argument handling; 10% of a random maneuver_locale game), every other answer one
# ``rng.integers`` (~1.3 µs). Both draw bounded integers by Lemire's method on the bit
# generator's 32-bit draws, which its ctypes interface gives for ~0.3 µs.
# ``tests/test_core_fast_paths.py`` compares both, answers and generator state.


def _bounded(next_uint32: Callable[[Any], int], state: Any, bound: int) -> int:
    """A uniform integer in ``[0, bound]`` (``bound < 2**32 - 1``), drawn as numpy draws it:
    nothing for ``bound == 0``, else Lemire's multiply-and-reject on 32-bit draws."""
    if bound == 0:
        return 0
    span = bound + 1
    product = next_uint32(state) * span
    if product & 0xFFFFFFFF < span:  # maybe in the biased sliver: numpy's exact rejection
        threshold = (0xFFFFFFFF - bound) % span
        while product & 0xFFFFFFFF < threshold:
            product = next_uint32(state) * span
    return product >> 32


def _random_int(rng: np.random.Generator, low: int, high: int) -> int:
    """``int(rng.integers(low, high + 1))`` from the same draw (the random bot's every answer:
    the call costs ~1.3 µs, the draw ~0.5 µs)."""
    if type(low) is not int or type(high) is not int or not 0 <= high - low < 0xFFFFFFFF:
        # numpy integers (whose products overflow), a wide range or an error: numpy's own call
        return int(rng.integers(low, high + 1))
    draws = rng.bit_generator.ctypes
    return low + _bounded(draws.next_uint32, draws.state, high - low)


def _random_subset(rng: np.random.Generator, count: int, low: int, high: int) -> list[int]:
    """``sorted(rng.choice(count, size=rng.integers(low, high + 1), replace=False))``, from the
    same draws, leaving ``rng`` where those calls would.

    For ``count <= 10000`` numpy's ``choice`` draws Floyd's algorithm — for ``j`` in ``count -
    size .. count - 1`` a bounded integer in ``[0, j]``, taken unless already picked (then
    ``j`` is) — and then shuffles the sample (a bounded integer in ``[0, i]`` for ``i`` from
    ``size - 1`` down to 1), whose order the sort loses but whose draws count.
    """
    if count > 10000 or type(low) is not int or type(high) is not int:
        # numpy shuffles a whole range instead (or a count is a numpy integer): numpy's own calls
        size = int(rng.integers(low, high + 1))
        return sorted(int(i) for i in rng.choice(count, size=size, replace=False))
    draws = rng.bit_generator.ctypes
    next_uint32, state = draws.next_uint32, draws.state
    size = low + _bounded(next_uint32, state, high - low)
    picked: set[int] = set()
    for j in range(count - size, count):
        drawn = _bounded(next_uint32, state, j)
        picked.add(j if drawn in picked else drawn)
    for i in range(size - 1, 0, -1):
        _bounded(next_uint32, state, i)
    return sorted(picked)


@frozen(kw_only=True)
class ChooseNumber(Decision):
    """Choose an integer in ``[low, high]``."""

    form: ClassVar[str] = "number"
    low: int
    high: int

    def __attrs_post_init__(self) -> None:
        if self.high < self.low:
            raise ValueError(f"{self._where()}: no number between {self.low} and {self.high}")

    def check(self, answer: Any) -> Answer:
        if isinstance(answer, bool) or not isinstance(answer, (int, np.integer)):
            raise InvalidChoiceError(f"{self._where()}: expected a whole number, got {answer!r}")
        if not self.low <= int(answer) <= self.high:
            raise IllegalChoiceError(
                self.rule, f"{self.prompt}: {answer} is outside {self.low}..{self.high}"
            )
        return int(answer)

    def value_of(self, answer: Answer) -> int:
        return int(answer)  # type: ignore[arg-type]

    def random_answer(self, rng: np.random.Generator) -> Answer:
        return _random_int(rng, self.low, self.high)


@frozen(kw_only=True)
class YesNo(Decision):
    """Answer yes or no."""

    form: ClassVar[str] = "yesno"

    def check(self, answer: Any) -> Answer:
        if not isinstance(answer, (bool, np.bool_)):
            raise InvalidChoiceError(f"{self._where()}: expected yes or no, got {answer!r}")
        return bool(answer)

    def value_of(self, answer: Answer) -> bool:
        return bool(answer)

    def random_answer(self, rng: np.random.Generator) -> Answer:
        return bool(_random_int(rng, 0, 1))

    def describe(self, answer: Answer) -> str:
        return "yes" if answer else "no"


def ask(decision: Decision) -> Generator[Decision, Any, Any]:
    """Ask ``decision`` and return the chosen value, unless it is a :class:`Choose` with a
    single option: then that option's value is the answer.

    A player is not asked to confirm the only thing they can do, and nothing is recorded for it
    (a replay skips it the same way; the decision is sealed all the same). A decision is asked
    once: to ask again, build a fresh one (see :class:`Choose`). Use it with ``yield from`` (as
    :meth:`RulesContext.ask <wargamekit.context.RulesContext.ask>`, which is this function):

    >>> def procedure():
    ...     return (yield from ask(Choose.of("red", "Retreat where?", ["Marengo"])))
    >>> next(procedure())
    Traceback (most recent call last):
    ...
    StopIteration: Marengo
    """
    # Hot: most decisions of most rulesets are asked here. A lazy menu's length is read from
    # its values (its len() is a Python call).
    if isinstance(decision, Choose):
        options = decision.options
        if (len(options._values) if type(options) is LazyOptions else len(options)) == 1:
            value = decision.value_of(0)  # of a lazy menu, without making the option nobody reads
            _seal(decision)  # answered here: as the game seals the decisions it is asked
            return value
    return (yield decision)
