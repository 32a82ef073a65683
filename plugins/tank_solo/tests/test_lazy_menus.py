"""The lazy menus (issue 9, the core's ``Choose.of(..., lazy=True)``): force selection, deployment,
loading special rounds, fire selection, the next mover, each movement step and the fire menu
make an option only when it is read. A random bot makes the
chosen option of each (when the game logs it); the games are the same, byte for byte, as with
menus built whole."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from wargamekit import Choose, Game, LazyOptions, RandomBot, StaleOptionError
from wargamekit.players import bot_seed
from wargamekit_tank_solo import TankSolo, combat, kinds, opening
from wargamekit_tank_solo.combat import FireAt

RULESET = TankSolo()
LAZY_KINDS = {kinds.PICK_TANK, kinds.DEPLOY_HEX, kinds.LOAD_SPECIAL, kinds.FIRE_SELECTION, kinds.NEXT_MOVER,
              kinds.MOVE_STEP, kinds.FIRE_TARGET}


class _Recording(RandomBot):
    """A random bot that keeps every decision it answered, with its answer."""

    def __init__(self, seed: int, answered: list[tuple[Any, Any]]) -> None:
        super().__init__(seed)
        self.answered = answered

    def choose(self, decision, view):
        answer = super().choose(decision, view)
        self.answered.append((decision, answer))
        return answer


def _random_game(seed: int, answered: list[tuple[Any, Any]], scenario: str = "default") -> Game:
    game = Game.new(RULESET, scenario, seed=seed)
    game.play({side: _Recording(bot_seed(seed, i), answered) for i, side in enumerate(RULESET.sides)})
    return game


def _eager(monkeypatch: pytest.MonkeyPatch) -> None:
    """Build every menu whole (``lazy`` and ``lazy_labels`` off), as before the lazy menus."""
    of = Choose.of.__func__  # type: ignore[attr-defined]

    def eager_of(cls, *args: Any, **kwargs: Any) -> Choose:
        kwargs.update(lazy=False, lazy_labels=False)
        return of(cls, *args, **kwargs)

    monkeypatch.setattr(Choose, "of", classmethod(eager_of))


def test_a_random_game_makes_only_the_chosen_labels_of_the_lazy_menus(monkeypatch):
    """Of every force-selection, deployment and fire menu a random bot answers, exactly the
    chosen option's label is made (once, for the log): one fire label (its exact odds) per
    shot chosen, one deployment label per tank deployed, one pick label per tank picked."""
    made: dict[str, int] = {"fire": 0, "deploy": 0, "pick": 0}

    def counting(name: str, module: Any, attr: str) -> None:
        original = getattr(module, attr)

        def counted(*args: Any, **kwargs: Any) -> str:
            made[name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, attr, counted)

    counting("fire", combat, "_shot_label")
    counting("deploy", opening, "_deploy_label")
    counting("pick", opening, "_pick_label")
    for seed in range(4):
        answered: list[tuple[Any, Any]] = []
        before = dict(made)
        game = _random_game(seed, answered)
        chosen = {"fire": 0, "deploy": 0, "pick": 0}
        offered = 0
        for decision, answer in answered:
            assert (type(getattr(decision, "options", None)) is LazyOptions) == (decision.kind in LAZY_KINDS)
            value = decision.value_of(answer)
            chosen["fire"] += decision.kind == kinds.FIRE_TARGET and isinstance(value, FireAt)
            chosen["deploy"] += decision.kind == kinds.DEPLOY_HEX
            chosen["pick"] += decision.kind == kinds.PICK_TANK and value is not None
            offered += len(decision.options) if decision.kind in (kinds.DEPLOY_HEX, kinds.PICK_TANK) else 0
        assert {k: made[k] - before[k] for k in made} == chosen, seed
        assert chosen["deploy"] == sum(t.side in ("A", "B") for t in game.state.tanks) > 0
        assert offered > 4 * (chosen["deploy"] + chosen["pick"])  # what the eager menus made


@pytest.mark.parametrize("scenario", ["default", "duel", "kuromorimine", "saunders"])
def test_lazy_and_eager_menus_play_byte_identical_games(monkeypatch, scenario):
    """Random bots (10 seeds) and both heavy bots (2 seeds each): the same answers and log bytes
    whether the menus are lazy or built whole."""
    def games() -> list[str]:
        logs = []
        for seed in range(10):
            game = _random_game(seed, [], scenario)
            logs.append(game.log_text() + repr(game.choices))
        for bot in ("bot", "cautious"):
            factory = RULESET.bots()[bot]
            for seed in range(2):
                game = Game.new(RULESET, scenario, seed=seed)
                game.play({side: factory(bot_seed(seed, i)) for i, side in enumerate(RULESET.sides)})
                logs.append(game.log_text() + repr(game.choices))
        return logs

    lazy = games()
    _eager(monkeypatch)
    assert games() == lazy


@pytest.mark.parametrize("scenario", ["default", "saunders"])
def test_an_old_decisions_labels_are_those_offered_or_refused_after_the_game_moved_on(monkeypatch, scenario):
    """The lazy-label contract (``Option``, ``LazyOptions``): a label read after the game moved
    on is the label the option had when offered, or, if it was not made before the decision was
    answered, ``StaleOptionError`` — never a label made from the later state. Each lazy menu of
    random-bot and heuristic-bot games is kept, with the options an eager menu built from the
    same arguments made at offer time; after the game (tanks moved, fired, destroyed since)
    every option's label of every kept menu is read. The refused ones must include options of
    tanks that moved on afterwards (作战阶段 1 fire selection, 2-1 the next mover) and shots at
    tanks destroyed afterwards (the fire menu's target); the chosen options' labels (made for
    the log) read as offered."""
    of = Choose.of.__func__  # type: ignore[attr-defined]
    kept: list[tuple[Choose, list[Any], dict[int, Any]]] = []
    state_of: list[Any] = []

    def keeping_of(cls, *args: Any, **kwargs: Any) -> Choose:
        decision = of(cls, *args, **kwargs)
        if kwargs.get("lazy_labels"):
            eager = of(cls, *args, **{**kwargs, "lazy": False, "lazy_labels": False})
            where = {t.id: (t.hex, t.hull, t.turret, t.alive) for t in state_of[-1].tanks} if state_of else {}
            kept.append((decision, list(eager.options), where))
        return decision

    monkeypatch.setattr(Choose, "of", classmethod(keeping_of))
    moved_on = destroyed = read = 0
    seen: set[str] = set()
    wrong: list[tuple[str, str]] = []
    bots = [(RandomBot, seed) for seed in range(6)] + [(RULESET.bots()["bot"], seed) for seed in range(2)]
    for factory, seed in bots:
        kept.clear()
        game = Game.new(RULESET, scenario, seed=seed)
        state_of[:] = [game.state]
        game.play({side: factory(bot_seed(seed, i)) for i, side in enumerate(RULESET.sides)})
        assert game.outcome is not None
        assert game.state is state_of[0]  # the positions kept at offer time are the game's
        seen |= {d.kind for d, _, _ in kept}
        final = {t.id: (t.hex, t.hull, t.turret, t.alive) for t in game.state.tanks}
        for decision, offered, where in kept:
            for index, option in enumerate(offered):
                try:
                    label = decision.describe(index)  # (a lazy menu's chosen label, said for the log)
                except StaleOptionError:
                    if decision.kind in (kinds.FIRE_SELECTION, kinds.NEXT_MOVER) and option.data.get("tank"):
                        moved_on += where[option.data["tank"]] != final[option.data["tank"]]
                    if decision.kind == kinds.FIRE_TARGET and isinstance(option.value, FireAt):
                        destroyed += not final[option.value.target][3]
                    continue
                except Exception as exc:  # what it raised, for the failure's message
                    wrong.append((decision.kind, f"raises {type(exc).__name__}"))
                    continue
                read += 1
                if label != option.public_label:
                    wrong.append((decision.kind, "another label"))
    assert not wrong, sorted(Counter(wrong).items())
    assert seen == LAZY_KINDS
    assert moved_on > 0 and destroyed > 0 and read > 0
