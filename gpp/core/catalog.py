"""The GPP/3 message catalog: one row per message type, and every rule of the protocol is in it.

In the manner of h11's `_state.py`, everything that decides whether a message may be sent or
received, and what it leads to, is data in `CATALOG`: who sends it, the phases it may arrive in
and the phase each leads to, its payload schema, and its part in a request. The table does not
know which role it plays: the host-side and the plugin-side connection read the same rows, so
both parties obey the same rules. Adding a message type is one event class and one row.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gpp.core.messages import (
    Bye,
    Discover,
    Event,
    Hello,
    Phase,
    PluginError,
    Ready,
    Result,
    Role,
    SessionError,
    Shutdown,
)
from gpp.core.schema import (
    DISCOVER_PAYLOAD,
    EMPTY_PAYLOAD,
    ERROR_PAYLOAD,
    HELLO_PAYLOAD,
    RESULT_PAYLOAD,
    Spec,
)


class RequestPart(enum.Enum):
    """A message's part in the lock-step request."""

    NONE = "none"
    OPENS = "opens"  # its requestId becomes the one outstanding request
    ANSWERS = "answers"  # must carry the outstanding requestId, and closes it


@dataclass(frozen=True)
class MessageRule:
    event: type[Event]
    sender: Role | None  # None: either party
    transitions: Mapping[Phase, Phase]  # phase it may arrive in -> phase it leads to
    payload: Spec
    request: RequestPart = RequestPart.NONE


_ANY_OPEN_PHASE: dict[Phase, Phase] = {
    phase: Phase.CLOSED for phase in Phase if phase is not Phase.CLOSED
}

P, H = Role.PLUGIN, Role.HOST
CATALOG: dict[str, MessageRule] = {
    #                      event        sender  arrives in -> leads to                      payload           request
    "hello":    MessageRule(Hello,       P, {Phase.AWAITING_HELLO: Phase.AWAITING_READY}, HELLO_PAYLOAD),
    "ready":    MessageRule(Ready,       H, {Phase.AWAITING_READY: Phase.IDLE},           EMPTY_PAYLOAD),
    "discover": MessageRule(Discover,    H, {Phase.IDLE: Phase.DISCOVERING},              DISCOVER_PAYLOAD, RequestPart.OPENS),
    "result":   MessageRule(Result,      P, {Phase.DISCOVERING: Phase.IDLE},              RESULT_PAYLOAD,   RequestPart.ANSWERS),
    "error":    MessageRule(PluginError, P, {Phase.DISCOVERING: Phase.IDLE},              ERROR_PAYLOAD,    RequestPart.ANSWERS),
    "shutdown": MessageRule(Shutdown,    H, {Phase.IDLE: Phase.SHUTTING_DOWN},            EMPTY_PAYLOAD),
    "bye":      MessageRule(Bye,         P, {Phase.SHUTTING_DOWN: Phase.CLOSED},          EMPTY_PAYLOAD),
}  # fmt: skip
SESSION_FATAL = MessageRule(SessionError, None, _ANY_OPEN_PHASE, ERROR_PAYLOAD)
"""The other reading of `error`: without requestId it is session-fatal, from either side, in
any open phase."""
del P, H


def rule_for(message_type: str, payload: Any) -> MessageRule:
    """The row a received or sent message obeys (`message_type` is in the catalog)."""
    if message_type == "error" and isinstance(payload, dict) and "requestId" not in payload:
        return SESSION_FATAL
    return CATALOG[message_type]


def sendable(sender: Role, phase: Phase) -> list[str]:
    """The message types `sender` may send in `phase` (session-fatal errors aside)."""
    return [
        name
        for name, rule in CATALOG.items()
        if rule.sender is sender and phase in rule.transitions
    ]
