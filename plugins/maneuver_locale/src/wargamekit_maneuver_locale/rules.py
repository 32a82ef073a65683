"""Rule citations, by the source rulebook's own headings.

The source (Japanese notes on the Bonaparte at Marengo family) has five headings: 移動
(movement, with command / reserve / approach / road / cavalry sub-items), Maneuver Attacks,
Assaults (with 防御砲撃, 判定, 損害適用, 騎兵の追撃, 後処理), Retreats and Artillery
Bombardment. Every decision and error of the ruleset cites one of these strings. Rules the
source leaves open are cited as ``provisional: …`` and are scenario data or documented choices.
"""

from __future__ import annotations

COMMAND = "移動 — command (one command per group)"
FROM_RESERVE = "移動 — reserveの場合 (moves from the reserve)"
FROM_APPROACH = "移動 — approachの場合 (moves from an approach)"
COMPULSORY = "移動 — 先のlocaleに敵が存在しない場合 (compulsory: no enemy ahead)"
ROAD = "移動 — road移動 (road movement)"
CAVALRY = "移動 — cavalry (騎兵): onto an approach after entering"
MANEUVER = "Maneuver Attacks — blocking"
ASSAULT = "Assaults"
LEADING = "Assaults — leading pieces"
DEFENSIVE_FIRE = "Assaults — 防御砲撃 (defensive artillery fire)"
DEFENDER_LEADING = "Assaults — defender's leading pieces"
RESULT = "Assaults — 判定 (result)"
LOSSES = "Assaults — 損害適用 (losses)"
PURSUIT = "Assaults — 騎兵の追撃 (cavalry pursuit)"
AFTERMATH = "Assaults — 後処理 (aftermath)"
RETREATS = "Retreats"
BOMBARDMENT = "Artillery Bombardment"
TURN = "provisional: turn sequence (scenario data, not from the source)"
VICTORY = "provisional: victory conditions (scenario data, not from the source)"
