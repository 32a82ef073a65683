"""The plugin host: a pluggy manager that finds rulesets and add-ons through entry points.

Plugins register under the entry-point group ``wargamekit``::

    [project.entry-points.wargamekit]
    my_ruleset = "my_package.plugin"

A plugin that implements :func:`~wargamekit.hookspecs.wargamekit_rulesets` provides rulesets;
any other plugin is an **add-on** (it implements hooks a ruleset publishes, or observes games).
Rulesets are always loaded; add-ons only when asked for by name (``plugin_manager(addons=...)``,
``wargamekit play --addon NAME``), so installing an add-on never silently changes every game.

The host is robust: a plugin that fails to import, or whose hooks do not match their hookspecs
(checked once every ruleset has published its own), is reported by name and left out while the
others still load; a hook implementation that matches no hookspec at all (a misspelt name) is
reported too (pluggy's ``check_pending``, one line per plugin and hook).

>>> pm = plugin_manager(load_entry_points=False)
>>> pm.project_name
'wargamekit'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from importlib import metadata
from types import ModuleType
from typing import Any, Literal

import pluggy
from attrs import frozen

from . import hookspecs
from .errors import UnknownAddonError, UnknownRulesetError
from .ruleset import Ruleset
from .saves import AddonRecord

__all__ = [
    "ENTRY_POINT_GROUP",
    "AddonRecord",
    "InstalledPlugin",
    "PluginLoadError",
    "PluginWarning",
    "WargamekitPluginManager",
    "addons_in_effect",
    "find_ruleset",
    "hookimpl",
    "installed_addons",
    "installed_plugins",
    "installed_rulesets",
    "plugin_load_errors",
    "plugin_manager",
    "plugin_warnings",
    "rulesets_of",
]

ENTRY_POINT_GROUP = "wargamekit"

#: Marker for hook implementations in plugins.
hookimpl = pluggy.HookimplMarker("wargamekit")

#: The core's own hooks (every other hook is published by a ruleset or an add-on).
CORE_HOOKS = frozenset(
    {"wargamekit_rulesets", "wargamekit_add_hookspecs", "wargamekit_event", "wargamekit_game_statistics",
     "wargamekit_observation_encoder"}
)


@frozen
class PluginLoadError:
    """An installed plugin that could not be used: it failed to import, or its hooks failed
    validation. It is left out; the others still load."""

    name: str
    target: str
    error: str

    def __str__(self) -> str:
        return f"plugin {self.name!r} ({self.target}) is left out: {self.error}"


@frozen
class PluginWarning:
    """A plugin loaded with a problem that does not stop it: a hook implementation that matches
    no hookspec (pluggy's ``check_pending``), so it will never be called."""

    name: str
    hook: str

    def __str__(self) -> str:
        return (
            f"plugin {self.name!r}: hook {self.hook!r} matches no hookspec of wargamekit or of an "
            "installed ruleset, so it is never called (misspelt?)"
        )


@frozen
class InstalledPlugin:
    """One entry point of the ``wargamekit`` group, imported.

    Attributes:
        name: the entry point's name (what ``--addon`` takes).
        target: the entry point's value (``"package.module"``).
        distribution: the installed distribution that declares it (``None`` if unknown).
        version: that distribution's version.
        plugin: the loaded object (usually a module).
        provides_rulesets: whether it implements ``wargamekit_rulesets`` (else it is an add-on).
    """

    name: str
    target: str
    distribution: str | None
    version: str | None
    plugin: Any = None
    provides_rulesets: bool = False


class WargamekitPluginManager(pluggy.PluginManager):
    """A pluggy manager that also knows what it loaded: the distributions of its entry-point
    plugins, the plugins it left out and the warnings it found."""

    def __init__(self) -> None:
        super().__init__(ENTRY_POINT_GROUP)
        self.distributions: dict[str, tuple[str | None, str | None]] = {}
        self.load_errors: list[PluginLoadError] = []
        self.warnings: list[PluginWarning] = []


# -- entry points ------------------------------------------------------------------------------

_import_errors: list[PluginLoadError] = []


def _provides_rulesets(plugin: Any) -> bool:
    # What pluggy's marker leaves on the function; checked before registering anything.
    function = getattr(plugin, "wargamekit_rulesets", None)
    return function is not None and hasattr(function, "wargamekit_impl")


def installed_plugins() -> list[InstalledPlugin]:
    """Every plugin of the ``wargamekit`` entry-point group that imports, in name order.
    Import failures are kept for :func:`plugin_load_errors` (Python caches the imports)."""
    global _import_errors
    found: list[InstalledPlugin] = []
    errors: list[PluginLoadError] = []
    for entry in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        if any(p.name == entry.name for p in found):
            continue  # the same name twice (two installs): the first wins, as pluggy's loader
        try:
            plugin = entry.load()
        except Exception as exc:  # any failure of third-party code
            errors.append(PluginLoadError(entry.name, entry.value, _one_line(f"{type(exc).__name__}: {exc}")))
            continue
        dist = getattr(entry, "dist", None)
        found.append(
            InstalledPlugin(
                name=entry.name,
                target=entry.value,
                distribution=None if dist is None else dist.name,
                version=None if dist is None else dist.version,
                plugin=plugin,
                provides_rulesets=_provides_rulesets(plugin),
            )
        )
    _import_errors = errors
    return found


def installed_addons() -> list[InstalledPlugin]:
    """The installed plugins that provide no ruleset: the add-ons ``--addon`` can name."""
    return [p for p in installed_plugins() if not p.provides_rulesets]


def _object_name(plugin: Any) -> str:
    # A stable name (pluggy would use id(plugin)): saves record add-ons by name.
    if isinstance(plugin, ModuleType):
        return plugin.__name__
    if isinstance(plugin, type):
        return f"{plugin.__module__}.{plugin.__qualname__}"
    return f"{type(plugin).__module__}.{type(plugin).__qualname__}"


class _Retry(Exception):
    def __init__(self, name: str, error: str) -> None:
        super().__init__(name, error)
        self.name = name
        self.error = error


def _one_line(text: str) -> str:
    # pluggy's messages span lines; a report is one line per plugin.
    return "; ".join(part.strip() for part in text.strip().splitlines() if part.strip())


def _validation_message(exc: pluggy.PluginValidationError) -> str:
    return _one_line(f"PluginValidationError: {exc}")


def _build(
    registrations: Sequence[tuple[str, Any, str | None, str | None, str]], left_out: set[str]
) -> WargamekitPluginManager:
    """One attempt: register every plugin not left out, then publish the rulesets' hookspecs.
    A validation failure names the plugin to leave out next time (raised as :class:`_Retry`)."""
    pm = WargamekitPluginManager()
    pm.add_hookspecs(hookspecs)
    for name, plugin, distribution, version, _target in registrations:
        if name in left_out:
            continue
        pm.distributions[name] = (distribution, version)
        try:
            pm.register(plugin, name=name)
        except pluggy.PluginValidationError as exc:
            raise _Retry(name, _validation_message(exc)) from None
    try:
        pm.hook.wargamekit_add_hookspecs.call_historic(kwargs={"pluginmanager": pm})
    except pluggy.PluginValidationError as exc:
        # A hook registered before its ruleset published the spec, checked only now.
        raise _Retry(pm.get_name(exc.plugin) or "?", _validation_message(exc)) from None
    except Exception as exc:
        raise _Retry(_blame_add_hookspecs(pm), _one_line(f"wargamekit_add_hookspecs failed: {type(exc).__name__}: {exc}")) from None
    return pm


def _blame_add_hookspecs(pm: pluggy.PluginManager) -> str:
    """The plugin whose ``wargamekit_add_hookspecs`` fails on its own (tried on a scratch
    manager), to name it and leave it out."""
    for impl in pm.hook.wargamekit_add_hookspecs.get_hookimpls():
        scratch = pluggy.PluginManager(ENTRY_POINT_GROUP)
        scratch.add_hookspecs(hookspecs)
        try:
            impl.function(pluginmanager=scratch)
        except Exception:
            return impl.plugin_name
    impls = pm.hook.wargamekit_add_hookspecs.get_hookimpls()
    return impls[-1].plugin_name if impls else "?"


def _pending(pm: pluggy.PluginManager) -> list[PluginWarning]:
    """pluggy's ``check_pending``, but reporting every plugin and hook instead of raising on
    the first."""
    warnings = []
    # list_name_plugin, not get_plugins: a plugin object need not be hashable.
    for name, plugin in pm.list_name_plugin():
        if plugin is None:
            continue  # blocked
        for caller in pm.get_hookcallers(plugin) or []:
            if caller.has_spec():
                continue
            for impl in caller.get_hookimpls():
                if impl.plugin is plugin and not impl.optionalhook:
                    warnings.append(PluginWarning(name, caller.name))
    return sorted(set(warnings), key=lambda w: (w.name, w.hook))


def plugin_manager(
    *,
    load_entry_points: bool = True,
    plugins: Iterable[ModuleType | object] = (),
    addons: Iterable[str] | Literal["all"] = (),
) -> WargamekitPluginManager:
    """A plugin manager with wargamekit's hookspecs, the rulesets' and the add-ons asked for.

    Args:
        load_entry_points: register every installed plugin that provides rulesets.
        plugins: plugin objects to register as well (add-ons not installed as packages, tests);
            each is named after its module (``module.Class`` for an object).
        addons: installed add-ons to register, by entry-point name, or ``"all"``. By default
            none: a game runs with the add-ons it asks for, never with whatever is installed.

    Every plugin is registered before the rulesets' hookspecs are published and checked
    against them after; one that fails is left out and reported in ``pm.load_errors``, and
    hooks that match no hookspec in ``pm.warnings``.

    Raises:
        UnknownAddonError: an add-on asked for by name is not installed, is a ruleset, or was
            left out (the message says why).
    """
    entries = installed_plugins() if load_entry_points or addons else []
    by_name = {p.name: p for p in entries}
    if addons == "all":
        wanted = [p.name for p in entries if not p.provides_rulesets]
    else:
        wanted = list(dict.fromkeys(addons))
        for name in wanted:
            if name not in by_name:
                broken = [e for e in _import_errors if e.name == name]
                if broken:
                    raise UnknownAddonError(str(broken[0]))
                known = ", ".join(p.name for p in entries if not p.provides_rulesets) or "none"
                raise UnknownAddonError(f"no add-on named {name!r} is installed (installed add-ons: {known})")
            if by_name[name].provides_rulesets:
                raise UnknownAddonError(f"{name!r} provides rulesets; it is not an add-on (rulesets are always loaded)")
    registrations: list[tuple[str, Any, str | None, str | None, str]] = []
    if load_entry_points:
        registrations += [
            (p.name, p.plugin, p.distribution, p.version, p.target) for p in entries if p.provides_rulesets
        ]
    registrations += [(n, by_name[n].plugin, by_name[n].distribution, by_name[n].version, by_name[n].target) for n in wanted]
    taken = {r[0] for r in registrations}
    for plugin in plugins:
        name = base = _object_name(plugin)
        counter = 1
        while name in taken:  # two objects of one class: still stable names
            counter += 1
            name = f"{base}#{counter}"
        taken.add(name)
        registrations.append((name, plugin, None, None, base))
    left_out: dict[str, str] = {}
    while True:
        try:
            pm = _build(registrations, set(left_out))
            break
        except _Retry as retry:
            if retry.name in left_out:  # cannot happen: a left-out plugin is not registered
                raise RuntimeError(f"plugin {retry.name!r}: {retry.error}") from None
            left_out[retry.name] = retry.error
    targets = {r[0]: r[4] for r in registrations}
    pm.load_errors = [
        *(e for e in _import_errors if load_entry_points or e.name in wanted),
        *(PluginLoadError(name, targets.get(name, "?"), error) for name, error in left_out.items()),
    ]
    pm.warnings = _pending(pm)
    global _load_errors
    _load_errors = list(pm.load_errors)
    asked = [name for name in wanted if name in left_out]
    if asked and addons != "all":
        raise UnknownAddonError(str(next(e for e in pm.load_errors if e.name == asked[0])))
    return pm


def addons_in_effect(pm: pluggy.PluginManager | None) -> tuple[AddonRecord, ...]:
    """The add-ons of ``pm`` that can change a game, sorted by name: plugins that provide no
    ruleset and implement a hook some ruleset (or add-on) published. Observers (only core
    hooks) are not among them: they cannot change a game."""
    if pm is None:
        return ()
    distributions: dict[str, tuple[str | None, str | None]] = getattr(pm, "distributions", {})
    pluggy_dists = {pm.get_name(plugin): dist for plugin, dist in pm.list_plugin_distinfo()}
    found = []
    for name, plugin in pm.list_name_plugin():
        if plugin is None:
            continue
        callers = pm.get_hookcallers(plugin) or []
        names = {caller.name for caller in callers}
        if "wargamekit_rulesets" in names:
            continue
        if not any(caller.has_spec() and caller.name not in CORE_HOOKS for caller in callers):
            continue
        distribution, version = distributions.get(name, (None, None))
        if distribution is None and name in pluggy_dists:
            dist = pluggy_dists[name]
            distribution, version = dist.project_name, dist.version
        found.append(AddonRecord(name, distribution, version))
    return tuple(sorted(found, key=lambda a: a.name))


def rulesets_of(pm: pluggy.PluginManager) -> dict[str, Ruleset]:
    """Name → ruleset for every ruleset the manager's plugins provide, sorted by name."""
    found: dict[str, Ruleset] = {}
    provider: dict[str, str] = {}
    # Called one plugin at a time, in registration order, so an error can name the plugin.
    for impl in pm.hook.wargamekit_rulesets.get_hookimpls():
        if impl.hookwrapper or getattr(impl, "wrapper", False):
            continue  # a wrapper provides no rulesets of its own
        plugin = impl.plugin_name
        provided: Any = impl.function()
        for ruleset in provided or []:
            if not isinstance(ruleset, Ruleset):
                raise TypeError(f"plugin {plugin!r}: wargamekit_rulesets returned {ruleset!r}, not a Ruleset")
            if ruleset.name in found:
                raise ValueError(
                    f"two plugins provide a ruleset named {ruleset.name!r}: "
                    f"{provider[ruleset.name]!r} and {plugin!r}"
                )
            found[ruleset.name] = ruleset
            provider[ruleset.name] = plugin
    return dict(sorted(found.items()))


_installed: dict[str, Ruleset] | None = None
_load_errors: list[PluginLoadError] = []
_installed_pm: WargamekitPluginManager | None = None


def installed_plugin_manager() -> WargamekitPluginManager:
    """The (cached) manager of every installed ruleset plugin, with no add-ons."""
    global _installed_pm
    if _installed_pm is None:
        _installed_pm = plugin_manager()
    return _installed_pm


def installed_rulesets() -> dict[str, Ruleset]:
    """Every installed ruleset, by name (cached after the first call)."""
    global _installed
    if _installed is None:
        _installed = rulesets_of(installed_plugin_manager())
    return _installed


def plugin_load_errors() -> list[PluginLoadError]:
    """The plugins left out the last time a manager loaded entry points."""
    return list(_load_errors)


def plugin_warnings(pm: pluggy.PluginManager | None = None) -> list[PluginWarning]:
    """The warnings of ``pm`` (default: the installed manager): hooks matching no hookspec."""
    manager = installed_plugin_manager() if pm is None else pm
    return list(getattr(manager, "warnings", []))


def find_ruleset(name: str, rulesets: dict[str, Any] | None = None) -> Ruleset:
    """The installed ruleset called ``name``.

    Raises:
        UnknownRulesetError: none is installed under that name (the message lists those that are).
    """
    available = installed_rulesets() if rulesets is None else rulesets
    try:
        return available[name]
    except KeyError:
        names = ", ".join(available) or "none"
        broken = [e for e in _load_errors if e.name == name]
        if broken:
            raise UnknownRulesetError(str(broken[0])) from None
        raise UnknownRulesetError(f"no ruleset named {name!r} is installed (installed: {names})") from None
