"""When a failed template fetch is tried again, and after how long (spec/clients.md, "Retries")."""

from __future__ import annotations

from typing import Callable, Optional

from .._constants import MAX_RETRIES, MAX_RETRY_AFTER, RETRY_BASE_DELAY
from .._errors import is_retryable
from .fetch import FetchFailure, FetchOutcome


def backoff_delay(retry_index: int, random: Callable[[], float]) -> float:
    """Jittered exponential backoff: BASE * 2**n scaled into [0.5, 1) so clients that failed together spread out."""
    return RETRY_BASE_DELAY * (2**retry_index) * (0.5 + random() / 2)


def retry_delay(outcome: FetchOutcome, retry_index: int, random: Callable[[], float]) -> Optional[float]:
    """Seconds to wait before retry ``retry_index`` (0-based), or None to stop and use ``outcome``."""
    if not isinstance(outcome, FetchFailure) or retry_index >= MAX_RETRIES or not is_retryable(outcome.error):
        return None
    if outcome.retry_after is not None:
        # The service's Retry-After wins over our schedule; one longer than we are willing to wait ends the tries.
        return None if outcome.retry_after > MAX_RETRY_AFTER else outcome.retry_after
    return backoff_delay(retry_index, random)
