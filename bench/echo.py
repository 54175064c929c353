"""The baseline server: a bare starlette WebSocket echo on the same uvicorn and WebSocket
implementation as SameDeal, doing nothing but sending each message back."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect


async def echo(ws: WebSocket) -> None:
    await ws.accept(subprotocol=(ws.scope.get("subprotocols") or [None])[0])
    try:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                return
            if msg.get("text") is not None:
                await ws.send_text(msg["text"])
            else:
                await ws.send_bytes(msg.get("bytes") or b"")
    except WebSocketDisconnect:
        return


app = Starlette(routes=[WebSocketRoute("/api/v1/ws", echo)])
