"""mjfast as a JSON service for bots: JSON lines on stdin/stdout, or HTTP (`mjfast serve`).

ops.py turns each public call into an operation; server.py reads requests, runs them and
writes the responses on either transport. docs/protocol.md documents the protocol.
"""
