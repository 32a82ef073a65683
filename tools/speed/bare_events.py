"""What a rule's event costs beyond building it (session 35): two seeded random-bot games,
with ``RulesContext.event`` as it is or, with ``BARE=1``, replaced by a bare build that neither
checks nor copies nor reorders its data (not a correct logger: a bound on what the checks cost).

    RS=mttt_rpg python tools/speed/cgloop.py -n 2 --setup "exec(open('tools/speed/bare_events.py').read())" "run()"
    RS=mttt_rpg BARE=1 python tools/speed/cgloop.py -n 2 --setup "exec(open('tools/speed/bare_events.py').read())" "run()"
"""

import gc
import os

from wargamekit import context, events
from wargamekit.events import Event, _EventBuilder, _new
from wargamekit.plugins import installed_rulesets
from wargamekit.testing import play_random_game

RULESET = installed_rulesets()[os.environ["RS"]]

if os.environ.get("BARE"):

    def bare(self, kind, text, /, *, audience=None, **data):
        event = _new(_EventBuilder)
        event.kind, event.text, event.data, event.audience = kind, text, data, audience
        event.__class__ = Event
        self._events.append(event)
        if self._sink is not None:
            self._sink(event)
        return event

    context.RulesContext.event = bare
    events._Recorder.event = bare


def run() -> None:
    play_random_game(RULESET, seed=1000, check_invariants=False)
    play_random_game(RULESET, seed=1001, check_invariants=False)


run()
gc.collect()
gc.disable()
