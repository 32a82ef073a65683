"""How the core logs a rule's event, for the tests that compare it with the general path (not
shipped): ``events._Recorder.event`` is the fast path ``ctx.event`` takes."""

from __future__ import annotations

from wargamekit.events import Event, _Recorder


def rule_event(kind: str, text: str, data: dict, audience=None) -> Event:
    """The event ``ctx.event(kind, text, audience=audience, **data)`` logs (``events._record_event``,
    the core's fast path for a rule's event)."""
    return _Recorder([], None).event(kind, text, audience=audience, **data)
