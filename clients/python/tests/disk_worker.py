"""A second process for the shared disk-cache tests: renders with a disk cache, reports what it sent.

usage: disk_worker.py BASE_URL CACHE_DIR TTL TEMPLATE_ID [TEMPLATE_ID ...]   (API key in MAILRENDER_API_KEY)
Prints one JSON line: {"requests": <template fetches sent>, "outputs": {id: html}}.
"""

from __future__ import annotations

import json
import sys

import httpx
from mailrender import MailrenderClient


def main(argv: list[str]) -> None:
    base_url, cache_dir, ttl, ids = argv[0], argv[1], float(argv[2]), argv[3:]
    sent: list[str] = []

    def count(request: httpx.Request) -> None:
        sent.append(str(request.url))

    with httpx.Client(event_hooks={"request": [count]}) as http:
        with MailrenderClient(
            base_url=base_url, http_client=http, cache={"type": "disk", "path": cache_dir, "ttl": ttl}
        ) as client:
            outputs: dict[str, str] = {
                tid: client.render_html(tid, {"merge_tags": {"text": {"first_name": "Ada"}}}) for tid in ids
            }
    print(json.dumps({"requests": len(sent), "outputs": outputs}))


if __name__ == "__main__":
    main(sys.argv[1:])
