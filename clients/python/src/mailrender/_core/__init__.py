"""The sans-I/O core shared by the sync and async clients (openai-python's shape), one module per topic.

Everything that decides lives here and does no I/O; the shells (``_client.py``, ``_async_client.py``)
only move bytes, read the clock, sleep and wait, so both behave the same by construction.

- ``settings``: the constructor's options, checked.
- ``render_request``: a render call's arguments, checked.
- ``entry``: a cached template (``CacheEntry``), its key scope and its ``template_ref``.
- ``freshness``: cache times, key-scope verdicts, and what a finished fetch means (stale-on-error).
- ``entry_file``: the disk cache's file names and entry format (shared with the JS and PHP clients).
- ``fetch``: the template fetch's request and how to read its answer.
- ``retry``: when to retry a fetch, and how long to wait.
- ``protocol``: the engine protocol's request lines, envelopes and version handshake.
- ``layouts``: joining an engine's layout answers with their parts.
"""
