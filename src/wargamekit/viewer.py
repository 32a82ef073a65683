"""A browser viewer for saves: one self-contained HTML file to step through a game.

:func:`write_viewer` replays a save answer by answer and writes one HTML page holding the
picture of the position after every answer (the ruleset's :meth:`~wargamekit.ruleset.Ruleset.render_svg`,
or its text :meth:`~wargamekit.ruleset.Ruleset.summary` where it draws nothing), the log, and a
little script to step forward and back (buttons, arrow keys) and jump to a turn. The page
needs no server and loads nothing from the network.

Whose view: the public view by default (only the events every side sees, and the picture as
drawn for an observer who is none of the sides), one side's view, or everything. Hidden
information is never written into the file unless that view is asked for.
"""

from __future__ import annotations

import difflib
import html
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import WargamekitError

if TYPE_CHECKING:
    from .events import Event
    from .game import Game
    from .saves import SaveFile

__all__ = ["ALL", "OBSERVER", "PUBLIC", "ViewerError", "write_viewer"]

#: ``side`` value for what every side sees (the default).
PUBLIC = "public"
#: ``side`` value for the all-seeing view (every side's secrets).
ALL = "all"
#: The side the public picture is drawn for: a name no ruleset gives a side, so a ruleset
#: hides from it whatever it hides from an opponent (face-down pieces, loadouts, concealment).
OBSERVER = "(public observer)"


class ViewerError(WargamekitError, ValueError):
    """The viewer was asked for a view the save's ruleset does not have."""


def write_viewer(save: SaveFile | str | Path | Game, side: str | None = None) -> str:
    """The HTML page of a save, as one self-contained string.

    Args:
        save: a :class:`~wargamekit.saves.SaveFile`, a save file's path, or a loaded game
            (it is replayed from its start; the game itself is not changed).
        side: whose view: ``None`` or ``"public"`` (what every side sees), a side's name, or
            ``"all"`` (everything, every side's secrets included).

    Returns:
        The page (UTF-8 text; write it to a ``.html`` file and open it in a browser).

    Raises:
        ViewerError: ``side`` is none of the above.
        SaveError: the save does not load (see :meth:`Game.load <wargamekit.game.Game.load>`).
    """
    from .game import Game

    game = save if isinstance(save, Game) else Game.load(save)
    view = PUBLIC if side is None else side
    sides = game.ruleset.sides
    if view not in (PUBLIC, ALL, *sides):
        raise ViewerError(f"view {view!r}: give a side ({', '.join(sides)}), {PUBLIC!r} or {ALL!r}")
    return _page(game, view)


def _visible(event: Event, view: str) -> bool:
    # The same reading as ``wargamekit replay --as``: public = events with no audience.
    if view == PUBLIC:
        return event.audience is None
    return view == ALL or event.visible_to(view)


def _picture(game: Game, view: str) -> tuple[str, str]:
    """``("svg", markup)`` or ``("text", summary)`` of the position as ``view`` sees it."""
    ruleset = game.ruleset
    seer = None if view == ALL else (OBSERVER if view == PUBLIC else view)
    svg = ruleset.render_svg(game.state, side=seer)
    if svg is not None:
        # inline in HTML an XML declaration is no declaration, only a stray comment
        return "svg", re.sub(r"^\s*<\?xml[^>]*\?>\s*", "", svg)
    text = ruleset.summary(ruleset.view(game.state, seer))
    return "text", text or "(this ruleset draws no picture and has no summary of the position)"


def _page(game: Game, view: str) -> str:
    stepper = game.replay([])
    events: list[dict[str, Any]] = []
    pictures: list[tuple[str, str]] = []
    index_of: dict[tuple[str, str], int] = {}
    steps: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = []
    seen = 0  # events of the full log already read
    turn = "before the first turn"

    def record(answered: str | None) -> None:
        nonlocal seen, turn
        start = len(events)
        for event in stepper.log[seen:]:
            if not _visible(event, view):
                continue
            if event.kind == "turn":
                turn = event.text
                turns.append({"label": event.text, "step": len(steps)})
            events.append({"text": event.text, "kind": event.kind})
        seen = len(stepper.log)
        picture = _picture(stepper, view)
        pic = index_of.setdefault(picture, len(pictures))
        if pic == len(pictures):
            pictures.append(picture)
        steps.append({"pic": pic, "from": start, "to": len(events), "turn": turn, "answered": answered})

    record(None)
    for choice in game.choices:
        asked = stepper.pending.side if stepper.pending is not None else None
        # Stepping through a recorded game is a replay: observers heard these events when the
        # game was played, and viewing a save must not tell them again.
        with stepper.silently():
            stepper.answer(choice)
        # which side answered is public unless the answer itself is hidden from this view
        record(asked)
    ruleset = game.ruleset
    whose = {
        PUBLIC: "the public view (what every side sees)",
        ALL: "everything — every side's secrets included",
    }.get(view, f"{view}'s view (what {view} sees)")
    result = _result(game)
    title = f"{ruleset.name} {ruleset.version} — scenario {game.scenario_name or 'from the save'}, seed {game.seed}"
    data = {
        "title": title,
        "whose": whose,
        "result": result,
        **_encode_pictures(pictures),
        "events": events,
        "steps": steps,
        "turns": turns,
    }
    # ``<`` escaped so no event text or picture can close the script element
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return _TEMPLATE.replace("%TITLE%", html.escape(title)).replace("%DATA%", payload)


# Between two tags: an SVG is cut into its tags (with any text they hold) so that consecutive
# pictures, which differ in a few counters, share the rest.
_TAG_BOUNDARY = re.compile(r"(?<=>)(?=\s*<)")


def _encode_pictures(pictures: list[tuple[str, str]]) -> dict[str, Any]:
    """The page's pictures, each SVG stored as a difference from the SVG before it.

    A whole SVG per step made a 10-turn tank duel 11 MB, though a step changes a counter or two.
    Every distinct tag is stored once (``parts``); an SVG picture is a list of operations on the
    picture named by its ``base`` (the previous SVG picture, -1 for none): an int appends that
    part, a pair ``[start, length]`` copies a run of the base picture's parts. Text pictures are
    kept whole. :func:`_decode_pictures` and the page's script read it back the same way.
    """
    parts: list[str] = []
    part_of: dict[str, int] = {}
    encoded: list[dict[str, Any]] = []
    base, base_ids = -1, list[int]()
    for kind, body in pictures:
        if kind != "svg":
            encoded.append({"kind": kind, "body": body})
            continue
        ids: list[int] = []
        for token in _TAG_BOUNDARY.split(body):
            part = part_of.get(token)
            if part is None:
                part = part_of[token] = len(parts)
                parts.append(token)
            ids.append(part)
        ops: list[int | list[int]] = []
        matcher = difflib.SequenceMatcher(None, base_ids, ids, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                ops.append([i1, i2 - i1])
            elif tag in ("replace", "insert"):
                ops.extend(ids[j1:j2])
        encoded.append({"kind": kind, "base": base, "ops": ops})
        base, base_ids = len(encoded) - 1, ids
    return {"parts": parts, "pictures": encoded}


def _decode_pictures(data: dict[str, Any]) -> list[tuple[str, str]]:
    """The pictures of a page's data as ``(kind, body)``: the inverse of :func:`_encode_pictures`
    (the page's script does the same in the browser)."""
    parts = data["parts"]
    tokens: list[list[int]] = []
    out: list[tuple[str, str]] = []
    for picture in data["pictures"]:
        if picture["kind"] != "svg":
            tokens.append([])
            out.append((picture["kind"], picture["body"]))
            continue
        base = tokens[picture["base"]] if picture["base"] >= 0 else []
        ids: list[int] = []
        for op in picture["ops"]:
            if isinstance(op, int):
                ids.append(op)
            else:
                ids.extend(base[op[0] : op[0] + op[1]])
        tokens.append(ids)
        out.append(("svg", "".join(parts[i] for i in ids)))
    return out


def _result(game: Game) -> str:
    outcome = game.outcome
    if outcome is None:
        return f"unfinished after {len(game.choices)} answers"
    winner = f"{outcome.winner} wins" if outcome.winner else "a draw"
    return f"{winner} — {outcome.reason}"


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>%TITLE%</title>
<style>
body { font-family: sans-serif; margin: 0; display: flex; flex-direction: column; height: 100vh; }
header { padding: 6px 12px; background: #233; color: #eee; }
header h1 { font-size: 16px; margin: 0 0 4px 0; }
#whose { font-weight: bold; color: #fd7; }
nav { padding: 6px 12px; background: #ddd; display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
#turn-shown { font-weight: bold; }
main { flex: 1; display: flex; min-height: 0; }
#picture { flex: 3; overflow: auto; padding: 8px; }
#picture svg { max-width: 100%; height: auto; }
#picture pre { font-size: 13px; }
#log { flex: 2; overflow: auto; margin: 0; padding: 8px 8px 8px 40px; border-left: 1px solid #aaa; font-size: 13px; }
#log li.future { display: none; }
#log li.roll { color: #666; }
#log li.current { background: #ffe38a; }
#log li.latest { outline: 2px solid #c80; }
</style>
</head>
<body>
<header><h1 id="title"></h1>Showing <span id="whose"></span> · <span id="result"></span></header>
<nav>
<button id="first" title="Home">&#124;◀ first</button>
<button id="prev" title="Left arrow">◀ back</button>
<button id="next" title="Right arrow">forward ▶</button>
<button id="last" title="End">last ▶&#124;</button>
<span id="step-shown"></span>
<span id="turn-shown"></span>
<label>jump to <select id="turn"></select></label>
<span id="answered"></span>
</nav>
<main><div id="picture"></div><ol id="log"></ol></main>
<script id="data" type="application/json">%DATA%</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
const log = document.getElementById("log");
const items = data.events.map((e, i) => {
  const li = document.createElement("li");
  li.textContent = e.text;
  li.className = e.kind;
  li.dataset.index = i;
  log.appendChild(li);
  return li;
});
document.getElementById("title").textContent = data.title;
document.getElementById("whose").textContent = data.whose;
document.getElementById("result").textContent = "result: " + data.result;
const select = document.getElementById("turn");
const none = document.createElement("option");
none.textContent = "(a turn)"; none.value = ""; select.appendChild(none);
data.turns.forEach(t => {
  const o = document.createElement("option");
  o.textContent = t.label; o.value = t.step; select.appendChild(o);
});
// SVG pictures are stored as differences (see _encode_pictures): rebuild an SVG picture's
// parts from its chain of bases, keeping each rebuilt list for the next.
const tokens = [];
function svgBody(k) {
  const chain = [];
  for (let j = k; j >= 0 && tokens[j] === undefined; j = data.pictures[j].base) chain.push(j);
  for (const j of chain.reverse()) {
    const p = data.pictures[j];
    const base = p.base >= 0 ? tokens[p.base] : [], ids = [];
    for (const op of p.ops) {
      if (typeof op === "number") ids.push(op);
      else for (let i = op[0]; i < op[0] + op[1]; i++) ids.push(base[i]);
    }
    tokens[j] = ids;
  }
  return tokens[k].map(i => data.parts[i]).join("");
}
let step = -1, shownPic = -1;
function show(n) {
  n = Math.max(0, Math.min(data.steps.length - 1, n));
  const s = data.steps[n];
  step = n;
  if (s.pic !== shownPic) {
    const p = data.pictures[s.pic], box = document.getElementById("picture");
    if (p.kind === "svg") { box.innerHTML = svgBody(s.pic); }
    else { box.textContent = ""; const pre = document.createElement("pre"); pre.textContent = p.body; box.appendChild(pre); }
    box.dataset.pic = s.pic;
    shownPic = s.pic;
  }
  items.forEach((li, i) => {
    li.classList.toggle("future", i >= s.to);
    li.classList.toggle("current", i >= s.from && i < s.to);
    li.classList.toggle("latest", i === s.to - 1);
  });
  if (s.to > 0) items[s.to - 1].scrollIntoView({block: "nearest"});
  document.getElementById("step-shown").textContent =
    n === 0 ? `start (step 0 of ${data.steps.length - 1})` : `step ${n} of ${data.steps.length - 1}`;
  document.getElementById("turn-shown").textContent = s.turn;
  document.getElementById("answered").textContent = s.answered ? `answered by ${s.answered}` : "";
  document.getElementById("prev").disabled = n === 0;
  document.getElementById("next").disabled = n === data.steps.length - 1;
}
document.getElementById("first").onclick = () => show(0);
document.getElementById("prev").onclick = () => show(step - 1);
document.getElementById("next").onclick = () => show(step + 1);
document.getElementById("last").onclick = () => show(data.steps.length - 1);
select.onchange = () => { if (select.value !== "") show(Number(select.value)); select.blur(); };
document.addEventListener("keydown", ev => {
  if (ev.target === select) return;
  const moves = {ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: data.steps.length - 1};
  if (ev.key in moves) { show(moves[ev.key]); ev.preventDefault(); }
});
show(0);
</script>
</body>
</html>
"""
