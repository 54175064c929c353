"""What talks to a SameDeal server over the documented protocol: the Python SDK, bots and
their runner, the terminal player. Nothing here imports the server."""
