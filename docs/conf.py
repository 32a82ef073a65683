"""Sphinx configuration for the wargamekit documentation (MyST Markdown pages).

The packages are installed in the environment (``uv run`` syncs the workspace), so autodoc
imports them directly; nothing is added to ``sys.path``. No extension needs the network.
"""

from importlib.metadata import version as _version

project = "wargamekit"
author = "wargamekit developers"
copyright = "2026, wargamekit developers"
release = _version("wargamekit")
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# -- MyST ------------------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist", "fieldlist"]
# Headings up to ### get anchors, so pages can link to sections (`[x](quickstart.md#play)`).
myst_heading_anchors = 3

# -- autodoc ---------------------------------------------------------------------------------
autodoc_default_options = {
    "members": True,
    "show-inheritance": True,
    "member-order": "bysource",
}
# Signatures stay readable; the types are in the docstrings' Args sections and the hints below.
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented"
autodoc_preserve_defaults = True
# Names a reader cannot resolve (third-party types with intersphinx off) are not warnings.
nitpicky = False

napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_attr_annotations = True
# "Attributes:" sections become field lists, not attribute entries: attrs fields are also
# documented as members, and two entries for one name would be duplicate-object warnings.
napoleon_use_ivar = True
# The core documents a class's ClassVars under "Class attributes:" (e.g. Ruleset).
napoleon_custom_sections = [("Class attributes", "Attributes")]

# -- HTML ------------------------------------------------------------------------------------
html_theme = "alabaster"
html_title = f"wargamekit {release}"
html_theme_options = {
    "description": "Build tabletop wargames in Python",
    "fixed_sidebar": True,
}
