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
from types import ModuleType
from typing import Any

import pluggy

from . import hookspecs
from .errors import UnknownRulesetError
from .ruleset import Ruleset

__all__ = [
    "ENTRY_POINT_GROUP",
    "hookimpl",
    "installed_rulesets",
    "find_ruleset",
    "plugin_manager",
    "rulesets_of",
]

ENTRY_POINT_GROUP = "wargamekit"

#: Marker for hook implementations in plugins.
hookimpl = pluggy.HookimplMarker("wargamekit")


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
    if load_entry_points:
        pm.load_setuptools_entrypoints(ENTRY_POINT_GROUP)
    for plugin in plugins:
        pm.register(plugin)
    pm.hook.wargamekit_add_hookspecs.call_historic(kwargs={"pluginmanager": pm})
    return pm


def rulesets_of(pm: pluggy.PluginManager) -> dict[str, Ruleset]:
    """Name → ruleset for every ruleset the manager's plugins provide, sorted by name."""
    found: dict[str, Ruleset] = {}
    for batch in pm.hook.wargamekit_rulesets():
        for ruleset in batch:
            if not isinstance(ruleset, Ruleset):
                raise TypeError(f"wargamekit_rulesets returned {ruleset!r}, not a Ruleset")
            if ruleset.name in found:
                raise ValueError(f"two plugins provide a ruleset named {ruleset.name!r}")
            found[ruleset.name] = ruleset
    return dict(sorted(found.items()))


_installed: dict[str, Ruleset] | None = None
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
        raise UnknownRulesetError(f"no ruleset named {name!r} is installed (installed: {names})") from None
