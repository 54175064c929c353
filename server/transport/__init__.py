"""How players and bots reach the server: the WebSocket (protocol v1 and v2, acks,
outboxes, the events each socket is sent), REST, the two encodings, the one
message schema, the OpenAPI and AsyncAPI documents, the web client's files."""
