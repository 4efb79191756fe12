"""Every default and fixed number of the client, in one place (service spec, "Clients").

Nothing else in the package hard-codes a default. The HTTP ``timeout`` is in seconds (httpx's and the
maildeno SDK's convention); the cache ``ttl`` is in milliseconds, as in every client (spec/clients.md).
"""

from __future__ import annotations

import sys

from ._types import RenderTarget

VERSION = "2.0.4"
#: spec/clients.md: mailrender-<language>/<version> <runtime>/<runtime version>.
# sys.version starts with what platform.python_version() returns, without importing platform.
USER_AGENT = f"mailrender-python/{VERSION} python/{sys.version.split()[0]}"

DEFAULT_BASE_URL = "http://localhost:8787"
ENV_BASE_URL = "MAILRENDER_BASE_URL"
ENV_API_KEY = "MAILRENDER_API_KEY"
ENV_ENGINE_PATH = "MAILRENDER_ENGINE_PATH"
#: The engine process's memory ceiling in MiB (its ``--max-memory``; spec/README.md, "Memory"); unset: none.
ENV_ENGINE_MAX_MEMORY = "MAILRENDER_ENGINE_MAX_MEMORY"

#: Seconds per HTTP attempt (httpx applies it to connect, each read, write and pool wait).
DEFAULT_TIMEOUT = 30.0

DEFAULT_CACHE_TYPE = "memory"
#: Milliseconds an entry is fresh.
DEFAULT_CACHE_TTL_MS = 300_000
DEFAULT_CACHE_MAX_ENTRIES = 50
DEFAULT_DISK_CACHE_PATH = ".mailrender-cache"
CACHE_KEYS: tuple[str, ...] = ("type", "path", "ttl", "max_entries")

DEFAULT_TARGET: RenderTarget = "html"
RENDER_TARGETS: tuple[RenderTarget, ...] = ("html", "react-email", "mjml")

#: Template fetch retries (connection errors, 429, 5xx only): 2 retries after the first attempt.
MAX_RETRIES = 2
#: Backoff before retry n (0-based) is BASE * 2**n, scaled by a random factor in [0.5, 1) (jitter).
RETRY_BASE_DELAY = 0.25
#: A Retry-After longer than this is not waited for: the error is raised (or the stale copy used).
MAX_RETRY_AFTER = 30.0

TEMPLATE_PATH = "/v1/sdk/template/"

#: The engine protocol this client speaks, and the engine major it is written against.
PROTOCOL_VERSION = 1
ENGINE_MAJOR = 2
#: Longest wait for one engine answer; a hung engine is killed (and restarted on the next render).
ENGINE_RESPONSE_TIMEOUT = 60.0
#: Layouts (output_format "layout") kept per engine process; one is the static text of one rendered
#: variant of a template (60 KB for a newsletter), so this bounds the client's memory to a few MB.
LAYOUT_CACHE_MAX_ENTRIES = 64
#: The engine keeps templates under refs of at most this many characters (spec/README.md).
MAX_TEMPLATE_REF = 256
ENGINE_NAME = "mailrender-engine"
