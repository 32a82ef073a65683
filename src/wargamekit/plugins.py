"""The plugin host: a pluggy manager that finds rulesets through entry points.

Plugins register under the entry-point group ``wargamekit``::

    [project.entry-points.wargamekit]
    my_ruleset = "my_package.plugin"

>>> pm = plugin_manager(load_entry_points=False)
>>> pm.project_name
'wargamekit'
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib import metadata
from types import ModuleType
from typing import Any

import pluggy
from attrs import frozen

from . import hookspecs
from .errors import UnknownRulesetError
from .ruleset import Ruleset

__all__ = [
    "ENTRY_POINT_GROUP",
    "hookimpl",
    "installed_rulesets",
    "find_ruleset",
    "PluginLoadError",
    "plugin_load_errors",
    "plugin_manager",
    "rulesets_of",
]

ENTRY_POINT_GROUP = "wargamekit"

#: Marker for hook implementations in plugins.
hookimpl = pluggy.HookimplMarker("wargamekit")


@frozen
class PluginLoadError:
    """An installed plugin that could not be loaded (it is left out; the others still load)."""

    name: str
    target: str
    error: str

    def __str__(self) -> str:
        return f"plugin {self.name!r} ({self.target}) failed to load: {self.error}"


def register_entry_points(pm: pluggy.PluginManager) -> list[PluginLoadError]:
    """Register every plugin of the ``wargamekit`` entry-point group, in name order.

    Unlike pluggy's ``load_setuptools_entrypoints``, one broken plugin does not stop the others:
    its import (or hook validation) error is returned instead, so a command can still list and
    run what works.
    """
    errors = []
    for entry in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        if pm.get_plugin(entry.name) is not None or pm.is_blocked(entry.name):
            continue
        try:
            plugin = entry.load()
            # register() validates the hook implementations: a plugin whose hook has the wrong
            # arguments is as broken as one that fails to import.
            pm.register(plugin, name=entry.name)
        except Exception as exc:  # any failure of third-party code
            errors.append(PluginLoadError(entry.name, entry.value, f"{type(exc).__name__}: {exc}"))
            continue
    return errors


def plugin_manager(
    *, load_entry_points: bool = True, plugins: Iterable[ModuleType | object] = ()
) -> pluggy.PluginManager:
    """A plugin manager with wargamekit's hookspecs.

    Args:
        load_entry_points: load every plugin registered in the ``wargamekit`` entry-point group.
        plugins: extra plugin objects to register (tests, add-ons not installed as packages).
    """
    pm = pluggy.PluginManager(ENTRY_POINT_GROUP)
    pm.add_hookspecs(hookspecs)
    global _load_errors
    if load_entry_points:
        _load_errors = register_entry_points(pm)
    for plugin in plugins:
        pm.register(plugin)
    pm.hook.wargamekit_add_hookspecs.call_historic(kwargs={"pluginmanager": pm})
    return pm


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
_installed_pm: pluggy.PluginManager | None = None


def installed_plugin_manager() -> pluggy.PluginManager:
    """The (cached) manager of every installed plugin."""
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
    """The plugins that failed to load the last time entry points were loaded."""
    return list(_load_errors)


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
