"""Bundled skirmish scenarios (TOML), read with importlib.resources."""
