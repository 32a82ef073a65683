"""The committed pictures in docs/images are what examples/render_gallery.py draws today."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_committed_images_are_up_to_date():
    """Re-drawing the gallery gives byte-identical SVG files (run the script after a renderer change)."""
    spec = importlib.util.spec_from_file_location("render_gallery", ROOT / "examples" / "render_gallery.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, svg in module.gallery().items():
        assert (ROOT / "docs" / "images" / name).read_text(encoding="utf-8") == svg, name
