"""SameDeal's async service: REST and WebSocket over the rules engine, state in Redis.

The app factory in ``server.app`` wires the parts; each module has one job. Imports point
one way: ``server -> engine``.
"""
