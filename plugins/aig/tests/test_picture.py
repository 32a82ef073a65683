"""The SVG picture: readable counter text, leader badges that never overlap, banners and tags."""

import itertools
import xml.etree.ElementTree as ET

import pytest

from wargamekit import Game
from wargamekit_aig import Aig
from wargamekit_aig.picture import summary, tags
from wargamekit_aig.scenario import parse_hex

SVG = "{http://www.w3.org/2000/svg}"


def _svg(state):
    return ET.fromstring(Aig().render_svg(state))


def _texts(group):
    return [(t.text, float(t.get("font-size"))) for t in group.iter(f"{SVG}text")]


@pytest.mark.parametrize("scenario", ["training", "battle"])
def test_counter_text_is_at_least_10_px_at_the_pictures_own_width(scenario):
    """Every counter's type, tag and cohesion/TQ are drawn at 10 px or more (the picture's width
    is its pixel width: its viewBox is as wide as its width attribute)."""
    game = Game.new(Aig(), scenario, seed=0)
    root = _svg(game.state)
    assert float(root.get("width")) == float(root.get("viewBox").split()[2])
    counters = [g for g in root.iter(f"{SVG}g") if g.get("class") == "counter"]
    assert len(counters) == len(game.state.live_units())
    sizes = [size for g in counters for _, size in _texts(g)]
    assert sizes and min(sizes) >= 10


def test_two_leaders_in_one_hex_get_badges_side_by_side(k):
    """Two leaders (and the banner) in one hex: their badges do not overlap; each shows its tag; a
    finished leader's badge is grey."""
    ls = [k.leader("Red OC", "red", "0504", "oc"), k.leader("Red captain", "red", "0504", "junior", group_orders=0, superior="Red OC"),
          k.leader("Blue OC", "blue", "1208", "oc")]
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("z", "blue", "1108")], ls))
    t.state.leaders["Red captain"].finished = True
    root = _svg(t.state)
    badges = [g for g in root.iter(f"{SVG}g") if g.get("class") == "marker" and g.get("data-hex") == "0504"]
    names = tags(t.state)
    assert [_texts(g)[0][0] for g in badges] == [names["Red OC"], names["Red captain"], "flag"]
    spans = sorted((float(r.get("x")), float(r.get("x")) + float(r.get("width")))
                   for g in badges for r in g.iter(f"{SVG}rect"))
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in itertools.pairwise(spans))
    fills = [next(g.iter(f"{SVG}rect")).get("fill") for g in badges]
    assert fills[1] == "#a0aec0" != fills[0]


def test_a_captured_banner_is_drawn_with_its_captor_and_tags_are_in_the_summary(k):
    """D12: a captured banner ("flag!") is drawn in the captor's hex; ``?`` prints each tag."""
    t = k.Table(k.scenario([k.unit("a", "red", "0504"), k.unit("Spanish horse 1", "blue", "1108")]))
    banner = t.state.banners["red"]
    banner.captured, banner.carrier = True, "Spanish horse 1"
    root = _svg(t.state)
    flags = [g.get("data-hex") for g in root.iter(f"{SVG}g") if g.get("class") == "marker"
             and _texts(g)[0][0] == "flag!"]
    assert flags == ["1108"] and t.state.banner_hex("red") == parse_hex("1108")
    assert "[SH1]" in summary(t.state)
