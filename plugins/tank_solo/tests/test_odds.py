"""Odds a player can ask: the Python function and the ``wargamekit odds tank_solo`` command."""

from __future__ import annotations

from fractions import Fraction

import pytest
from click.testing import CliRunner

from wargamekit_tank_solo import TankSolo, hit_and_kill


def test_hit_and_kill_by_fire_nation_and_special():
    """Exact odds follow the fire form, the nation and the special round."""
    plain = hit_and_kill("aimed", 7, "italy", attack=6, armour=13)
    assert plain.hit == Fraction(21, 36) and plain.kill == Fraction(21, 36) ** 2
    german = hit_and_kill("aimed", 7, "germany", attack=6, armour=13)
    assert german.hit == Fraction(26, 36)
    fin = hit_and_kill("aimed", 7, "italy", attack=6, armour=13, special="fin")
    assert fin.hit == 1  # one die counts as 6: 6 + d6 >= 7 always
    hesh = hit_and_kill("aimed", 7, "italy", attack=6, armour=13, special="hesh")
    assert hesh.kill == plain.hit / 3 and hesh.immobilise == plain.hit / 3


def test_bad_odds_questions_are_refused():
    """Unknown nation or special round, or a range below 1, are refused."""
    with pytest.raises(ValueError, match="nation"):
        hit_and_kill("aimed", 3, "narnia", attack=1, armour=1)
    with pytest.raises(ValueError, match="special"):
        hit_and_kill("aimed", 3, "uk", attack=1, armour=1, special="apds")
    with pytest.raises(ValueError, match="range"):
        hit_and_kill("aimed", 0, "uk", attack=1, armour=1)


def test_odds_command():
    """``wargamekit odds tank_solo --fire aimed --range 5 --nation germany --attack 8 --armour 9 --special fin``."""
    command = TankSolo().odds_command()
    result = CliRunner().invoke(command, ["--fire", "aimed", "--range", "5", "--nation", "germany",
                                          "--attack", "8", "--armour", "9", "--special", "fin"])
    assert result.exit_code == 0, result.output
    assert "hit" in result.output and "100.00%" in result.output and "(1)" in result.output
