"""mjfast as a JSON service for bots: JSON lines on stdin/stdout, or HTTP (`mjfast serve`).

ops.py turns each public call into an operation; server.py reads requests, runs them and
writes the responses on either transport, and serves the page for players (mjfast.web's
files) under /app/; page_server.py is `mjfast web`, the HTTP service with the page.
docs/protocol.md documents the protocol.
"""
