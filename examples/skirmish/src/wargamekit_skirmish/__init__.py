"""wargamekit ruleset plugin."""
