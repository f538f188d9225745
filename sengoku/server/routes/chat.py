"""The chat routes: read a match's chat, write to it, and (players) mute the spectators.

Over the WebSocket a ``{"type": "chat", "text": ...}`` message writes too, and every
connection gets ``{"type": "chat", "message": ...}`` for each message its seat reads.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Header, Request
from pydantic import Field

from sengoku.server.chat import Chat
from sengoku.server.routes.common import ServiceRef, StrictBody, bearer, find


class ChatPost(StrictBody):
    # Checked (and cleaned) by the chat itself, which answers in its own words.
    text: str = Field(max_length=4000)
    #: A spectator's name (a player's is their seat's).
    name: str | None = Field(default=None, max_length=64)


class ChatMute(StrictBody):
    muted: bool = True


def client_of(request: Request) -> str:
    """The client's address as the per-client limits know it."""
    state = request.scope.get("state", {})
    known = state.get("client") if isinstance(state, dict) else None
    return str(known or request.app.state.limits.client_of(request.scope))


def router(svc: ServiceRef, chat: Chat) -> APIRouter:
    router = APIRouter()

    @router.get("/api/matches/{match_id}/chat")
    async def read_chat(
        match_id: str, authorization: str | None = Header(default=None)
    ) -> dict[str, Any]:
        """The messages the bearer's seat reads (without a token: a spectator's)."""
        live = await find(svc(), match_id)
        seat = svc().seat_of(live, bearer(authorization))
        return await chat.history(svc(), live, seat)

    @router.post("/api/matches/{match_id}/chat", status_code=201)
    async def write_chat(
        match_id: str,
        body: ChatPost,
        request: Request,
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """Write to the players' chat (with a seat's token) or the spectators' (without)."""
        live = await find(svc(), match_id)
        seat = svc().seat_of(live, bearer(authorization))
        return await chat.post(svc(), live, seat, body.text, body.name, client_of(request))

    @router.post("/api/matches/{match_id}/chat/mute")
    async def mute_chat(
        match_id: str,
        body: ChatMute | None = None,
        authorization: str | None = Header(default=None),
    ) -> dict[str, Any]:
        """A player mutes the spectators' chat (``muted``: false hears it again)."""
        live = await find(svc(), match_id)
        seat = svc().player_seat(live, bearer(authorization))
        return await chat.mute(svc(), live, seat, (body or ChatMute()).muted)

    return router
