"""A heuristic bot: it sees only its own side's view and weighs options with simple rules.

* Action menu: assaults it wins against the defender's best response first; maneuver attacks
  that cannot be blocked (from an approach, or against a locale with an empty reserve);
  otherwise moves towards the nearest enemy-held or uncontrolled objective; moving onto an
  approach facing the enemy (to attack unblockably next); then ending the turn.
* Groups move whole; leading pieces are the strongest legal set; it always blocks with its
  whole reserve, always fires, always pursues, and spreads its own losses from the strongest
  piece while taking the enemy's steps from the weakest (to remove pieces).

Hidden enemy pieces are assumed to be 2-step infantry.

It reads only the structure of a decision — its kind (:mod:`.kinds`), its context, the options'
data and the decision's own legality check — with its side's view of the state and the pure
assault preview; never a prompt, a label or a rule citation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from wargamekit import ChooseSubset, Decision, IllegalChoiceError, PlayerView, SeededBot
from wargamekit.decisions import Answer, Data
from wargamekit.geometry.locale import ApproachWidth

from . import kinds
from .assault import HIDDEN_GUESS, assault_preview, participants
from .movement import AssaultAction, EndTurn, GroupMove, RoadMenu, group_pieces
from .resolution import Combatant, leading_limit, legal_leading_sets
from .state import RESERVE, GameState, Piece
from .turn import Action

__all__ = ["HeuristicBot"]

_GUESS = HIDDEN_GUESS


def _known(p: Piece) -> Combatant:
    if p.arm is None or p.steps is None:
        return Combatant(p.id, _GUESS.arm, _GUESS.steps)
    return Combatant(p.id, p.arm, p.steps)


class HeuristicBot(SeededBot):
    """Plays one side from its view; ``seed`` breaks ties reproducibly."""

    #: It only reads its view (checked by ``check_ruleset``): it is handed the shared view,
    #: which copies only the opponent's face-down pieces (``view.shared_redact``).
    reads_view_only = True

    # -- dispatch ---------------------------------------------------------------------------
    #: The plugin hooks of the game (``view.hooks``): the assault preview counts the add-ons.
    _hooks: Any = None

    def choose(self, decision: Decision, view: PlayerView) -> Answer:
        self._hooks = getattr(view, "hooks", None)
        side = decision.side
        kind = decision.kind
        data: list[Data] = [o.data for o in getattr(decision, "options", ())]
        # answered without the state (view.state is a copy made on first read: not made here)
        if kind == kinds.BOMBARD:
            return True
        subset = isinstance(decision, ChooseSubset)
        if subset and kind == kinds.COMPULSORY_JOIN:
            return []  # moving on: the reserve stays, ready to block
        if subset and kind == kinds.CAVALRY:
            return []  # stay in the reserve, ready to block
        if not subset and kind in (kinds.BLOCK, kinds.DEFENSIVE_FIRE):
            return max(i for i, d in enumerate(data) if "respond" in d)  # respond: block / fire
        if kind == kinds.STEP_LOSS and decision.context.get("cause") == "defensive_fire":
            # the bot has always taken defensive fire's steps from the last leading piece
            # offered (kept so that its measured results stay comparable)
            return len(data) - 1
        if kind == kinds.ACTION and len(data) == 1:
            return 0  # only the end of the turn (always offered): what _action answers, with no view
        if subset:
            assert isinstance(decision, ChooseSubset)
            return self._subset(decision, view, side, data)
        state: GameState = view.state
        if kind == kinds.ACTION:
            return self._action(state, side, [_action_of(d) for d in data])
        if kind == kinds.COMPULSORY:
            return self._compulsory(state, side, data)
        if kind in (kinds.ROAD_PIECE, kinds.ROAD_MOVE):
            return self._road(state, side, kind, data)
        if kind == kinds.RETREAT:
            return self._retreat(state, side, [d["locale"] for d in data])
        if kind == kinds.STEP_LOSS:
            return self._victim(state, side, [d["piece"] for d in data])
        if data:
            return 0  # the first option: the approach for cavalry, an approach to bombard
        return decision.random_answer(self.rng)

    # -- the action menu --------------------------------------------------------------------
    def _distance_to_goal(self, state: GameState, side: str, locale: str) -> int:
        enemy = state.enemy(side)
        goals = [k for k in state.board.objectives if state.control.get(k) != side]
        goals += [k for k in state.board.locale_ids() if state.holder(k) == enemy]
        if not goals:
            return 0
        return min(state.board.distances[locale][g] for g in goals)

    def _reserve_weight(self, state: GameState, locale: str) -> int:
        return sum(_known(p).steps for p in state.at(locale, ""))

    def _score(self, state: GameState, side: str, action: Action) -> float:
        enemy = state.enemy(side)
        objective = state.board.objectives
        if isinstance(action, EndTurn):
            return 0.0
        if isinstance(action, AssaultAction):
            best = self._assault_worst_case(state, side, action)
            return 60.0 if best else -5.0
        if isinstance(action, RoadMenu):
            return 6.0
        assert isinstance(action, GroupMove)
        mine = group_pieces(state, action, side)
        strength = sum(_known(p).steps for p in mine)
        value = objective.get(action.target, 0)
        if action.kind == "maneuver":
            defenders = [p for p in state.at(action.target) if p.side == enemy]
            reserve = [p for p in defenders if p.in_reserve]
            if action.sources != (RESERVE,) or not reserve:
                # unblockable: from the approach alone (the group pick leaves the reserve out)
                return 50.0 + 5 * value
            # may be blocked: then we stand on the approach, which is useful too
            return 8.0 + value if strength > sum(_known(p).steps for p in defenders) else 2.0
        if action.kind == "approach":
            return 12.0 + value
        if action.kind == "back":
            return 1.0
        # move to an adjacent locale: towards the goals, never leave an objective empty
        here = self._distance_to_goal(state, side, action.locale)
        there = self._distance_to_goal(state, side, action.target)
        leaving_objective = action.locale in objective and len(state.at(action.locale)) <= len(mine)
        score = 10.0 * (here - there) + 4 * value
        if leaving_objective:
            score -= 15
        return score

    def _assault_worst_case(self, state: GameState, side: str, action: AssaultAction) -> bool:
        """Whether the assault wins under every defender response (hidden pieces guessed)."""
        width = state.board.width(action.target, action.locale)
        mine = [_known(p) for p in participants(state, side, action.locale, action.target)]
        lead = self._best_leading(mine, leading_limit(width), attacker=True)
        if not lead:
            return False
        lines = assault_preview(state, action.locale, action.target, [c.id for c in lead], hidden_as=_GUESS,
                                hooks=self._hooks)
        return all(line.retreat for line in lines)

    @staticmethod
    def _best_leading(pieces: list[Combatant], limit: int, *, attacker: bool) -> list[Combatant]:
        width = ApproachWidth.NARROW if limit == 1 else ApproachWidth.WIDE
        sets: list[tuple[Combatant, ...]] = legal_leading_sets(pieces, width, attacker=attacker)
        if not sets:
            return []

        def weight(chosen: tuple[Combatant, ...]) -> tuple[int, int]:
            return sum(c.steps for c in chosen), -len(chosen)

        best = max(sets, key=weight)
        return list(best)

    def _action(self, state: GameState, side: str, actions: list[Action]) -> int:
        scores = [self._score(state, side, a) for a in actions]
        best = max(scores)
        if best <= 0:
            return next(i for i, a in enumerate(actions) if isinstance(a, EndTurn))
        ties = [i for i, s in enumerate(scores) if s == best]
        return int(ties[int(self.rng.integers(0, len(ties)))])

    def _compulsory(self, state: GameState, side: str, data: Sequence[Mapping[str, Any]]) -> int:
        for i, d in enumerate(data):
            if d["move_on"] and self._distance_to_goal(state, side, d["target"]) <= self._distance_to_goal(
                state, side, d["locale"]
            ):
                return i
        return next(i for i, d in enumerate(data) if not d["move_on"])

    def _road(self, state: GameState, side: str, kind: str, data: Sequence[Mapping[str, Any]]) -> int:
        if kind == kinds.ROAD_MOVE:
            here = self._distance_to_goal(state, side, data[0]["path"][0])
            scored = [
                (here - self._distance_to_goal(state, side, d["to"]) - 0.5 * d["cost"], -i)
                for i, d in enumerate(data)
            ]
            return -max(scored)[1]
        # which piece: the one furthest from the goals
        return max(range(len(data)), key=lambda i: self._distance_to_goal(state, side, data[i]["locale"]))

    def _retreat(self, state: GameState, side: str, values: list[str]) -> int:
        enemy = state.enemy(side)

        def safety(loc: str) -> tuple[int, int]:
            near = sum(1 for n in state.board.neighbours(loc) if state.holder(n) == enemy)
            return (-near, int(state.holder(loc) == side))

        return max(range(len(values)), key=lambda i: safety(values[i]))

    def _victim(self, state: GameState, side: str, values: list[str]) -> int:
        pieces = [state.pieces[v] for v in values]
        if all(p.side == side for p in pieces):
            # our own losses: spread them from the strongest piece
            return max(range(len(pieces)), key=lambda i: _known(pieces[i]).steps)
        return min(range(len(pieces)), key=lambda i: _known(pieces[i]).steps)

    # -- subsets ----------------------------------------------------------------------------
    def _subset(self, decision: ChooseSubset, view: PlayerView, side: str, data: list[Data]) -> Answer:
        kind = decision.kind
        values = [d["piece"] for d in data]  # every subset chooses pieces
        if kind == kinds.GROUP:
            # a maneuver attack from the reserve and an approach: the approach's pieces alone
            # cannot be blocked, so leave the reserve out when the enemy has a reserve to block
            ahead = [i for i, d in enumerate(data) if d["approach"] != RESERVE]
            if ahead and len(ahead) < len(data):
                target = data[ahead[0]]["approach"]
                if any(q.side != side and q.in_reserve for q in view.state.at(target)):
                    return ahead[: decision.upper]
        if kind not in (kinds.LEADING, kinds.DECLARE, kinds.PURSUIT) and decision.upper >= len(values):
            # as many as allowed, strongest first (below) is every piece: the order needs no view
            return self._all_or_random(decision, list(range(len(values))))
        state: GameState = view.state
        pieces = [state.pieces[v] for v in values if v in state.pieces]
        if kind == kinds.LEADING:
            limit = decision.upper
            order = sorted(range(len(pieces)), key=lambda i: -_known(pieces[i]).steps)
            for n in range(limit, 0, -1):
                best = None
                for combo in combinations(order, n):
                    picked = sorted(combo)
                    if _legal(decision, picked):
                        total = sum(_known(pieces[i]).steps for i in picked)
                        if best is None or total > best[0]:
                            best = (total, picked)
                if best:
                    return best[1]
            return []
        if kind in (kinds.DECLARE, kinds.PURSUIT):
            want = [i for i, p in enumerate(pieces) if p.arm is not None and (p.arm.pursues or p.arm.gun)]
            picked = want[: decision.upper]
            return picked if _legal(decision, picked) else []
        # groups, blocks and defensive guns: as many as allowed, strongest first
        order = sorted(range(len(values)), key=lambda i: -_known(pieces[i]).steps if i < len(pieces) else 0)
        return self._all_or_random(decision, sorted(order[: max(decision.min_count, decision.upper)]))

    def _all_or_random(self, decision: ChooseSubset, picked: list[int]) -> Answer:
        """``picked`` if the rules accept it, else a random legal subset."""
        return picked if _legal(decision, picked) else decision.random_answer(self.rng)


def _legal(decision: ChooseSubset, picked: list[int]) -> bool:
    """Whether the rules accept ``picked`` (the decision's own check: counts and constraint)."""
    try:
        decision.check(picked)
    except IllegalChoiceError:
        return False
    return True


def _action_of(data: Mapping[str, Any]) -> Action:
    """The action an option of the command menu stands for, rebuilt from its data."""
    action = data["action"]
    if action == "group":
        return GroupMove(data["move"], data["locale"], tuple(data["sources"]), data["target"])
    if action == "road":
        return RoadMenu()
    if action == "assault":
        return AssaultAction(data["locale"], data["target"])
    return EndTurn()
