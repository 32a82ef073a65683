"""The bounded memo policy (``wargamekit.memo.remember``) and the memos that use it."""

from __future__ import annotations

import pytest

from wargamekit.geometry import hex as hex_module
from wargamekit.memo import remember


def test_a_memo_keeps_entries_up_to_its_limit_then_starts_again_with_the_new_one():
    memo: dict[str, int] = {}
    assert [remember(memo, key, n, 3) for n, key in enumerate("abc")] == [0, 1, 2]
    assert memo == {"a": 0, "b": 1, "c": 2}
    assert remember(memo, "d", 3, 3) == 3
    assert memo == {"d": 3}


def test_remembering_a_key_again_replaces_its_value_and_a_limit_of_one_keeps_the_last():
    memo = {"a": 1}
    remember(memo, "a", 2, 5)
    assert memo == {"a": 2}
    one: dict[str, int] = {}
    for n, key in enumerate("xyz"):
        remember(one, key, n, 1)
    assert one == {"z": 2}


def test_the_interned_hexes_stay_within_their_bound(monkeypatch: pytest.MonkeyPatch):
    """A site of the policy: hexes beyond the grid are interned, at most ``_INTERN_MAX``."""
    monkeypatch.setattr(hex_module, "_INTERNED", {})
    monkeypatch.setattr(hex_module, "_INTERN_MAX", 4)
    far = [hex_module._hex(1000 + i, 0) for i in range(6)]
    assert len(hex_module._INTERNED) == 2  # 4 kept, then emptied: the fifth and sixth
    assert hex_module._hex(1005, 0) is far[5] and hex_module._hex(1000, 0) == far[0]
