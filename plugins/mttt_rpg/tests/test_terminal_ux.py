"""What the terminal shows a person (issue 13): response windows marked when nothing calls for
an answer, and a draw that says why."""

from __future__ import annotations

from functools import cache

from wargamekit import Game, find_ruleset
from wargamekit.players import auto_pass, is_pass, why_not


@cache  # both tests read the same game
def bot_game(seed: int) -> tuple[Game, list]:
    """A bot game of the default scene; the heroes' response windows, as asked."""
    ruleset = find_ruleset("mttt_rpg")
    game = Game.new(ruleset, "default", seed=seed)
    bots = {side: ruleset.bots()["bot"](i) for i, side in enumerate(ruleset.sides)}
    windows = []
    while game.pending is not None:
        decision = game.pending
        if decision.side == "heroes" and decision.kind == "mttt_rpg.respond":
            windows.append(decision)
        game.answer(bots[decision.side].choose(decision, game.view(decision.side)))
    return game, windows


def test_quiet_windows_are_marked_and_the_others_are_not():
    """插入阶段: a window where nothing of the foes calls for an answer marks every response
    not worth a stop (with the reason); a window answering the foes' item on the stack or an
    attack on a hero is a stop. Most windows of a game are quiet."""
    game, windows = bot_game(1)
    quiet = [d for d in windows if auto_pass(d) is not None]
    stops = [d for d in windows if auto_pass(d) is None]
    assert len(quiet) > 2 * len(stops) > 0
    for d in quiet:
        assert all(why_not(o).startswith(("nothing", "nothing of the other side's")) or "unhurt" in why_not(o)
                   for o in d.options if not is_pass(o))
    for d in stops:
        top = d.context.get("top")
        foes_item = top is not None and top.get("caster") not in ("akari", "sayo", "mio")
        hero_attacked = any(f"-> {name}]" in d.prompt for name in ("Akari", "Sayo", "Mio", "Bystander"))
        foe_announces = any(f"declared [{name}" in d.prompt for name in ("Witch of Thorns", "Thorn familiars"))
        assert foes_item or hero_attacked or foe_announces, d.prompt


def test_a_draw_at_the_round_limit_says_why():
    """The scene's end: at the round limit with both sides fighting, the outcome says the fight
    is undecided and that the scores are only a report."""
    game, _ = bot_game(1)
    assert game.outcome.winner is None
    assert "both sides still have someone fighting" in game.outcome.reason
    assert "the scores are the HP left, a report only" in game.outcome.reason
