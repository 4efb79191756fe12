<?php

declare(strict_types=1);

namespace Mailrender;

/**
 * Every default and fixed number of the client in one place (service spec, "Clients"; seed spec,
 * "Limits"). Nothing else in src/ hard-codes a default.
 */
final class Defaults
{
    public const CLIENT_VERSION = '2.0.1';

    public const BASE_URL = 'http://localhost:8787';
    public const ENV_BASE_URL = 'MAILRENDER_BASE_URL';
    public const ENV_API_KEY = 'MAILRENDER_API_KEY';
    /** The engine executable when no enginePath is configured (before the bundled one). */
    public const ENV_ENGINE_PATH = 'MAILRENDER_ENGINE_PATH';
    /** The engine process's memory ceiling in MiB (its --max-memory; spec/README.md, "Memory"); unset: none. */
    public const ENV_ENGINE_MAX_MEMORY = 'MAILRENDER_ENGINE_MAX_MEMORY';

    /** Per HTTP attempt and per engine call, in milliseconds. */
    public const TIMEOUT_MS = 30000;

    public const CACHE_TYPE = 'memory';
    /** The seed's PHP default: 5 minutes. */
    public const CACHE_TTL_MS = 300000;
    /** The seed's PHP default: 50 entries. */
    public const CACHE_MAX_ENTRIES = 50;
    public const DISK_CACHE_PATH = '.mailrender-cache';

    public const TARGET_HTML = 'html';
    public const TARGET_REACT_EMAIL = 'react-email';
    public const TARGET_MJML = 'mjml';
    public const TARGETS = [self::TARGET_HTML, self::TARGET_REACT_EMAIL, self::TARGET_MJML];
    public const DEFAULT_TARGET = self::TARGET_HTML;

    /** Template fetch retries (connection errors, 429, 5xx only): 2 after the first attempt. */
    public const MAX_RETRIES = 2;
    /** Backoff before retry n (0-based) is BASE * 2^n scaled into [0.5, 1) (jitter). */
    public const RETRY_BASE_DELAY_MS = 250;
    /** A Retry-After longer than this is not waited for: the error is raised (or the stale copy used). */
    public const MAX_RETRY_AFTER_MS = 30000;

    public const TEMPLATE_PATH = '/v1/sdk/template/';

    /** The engine protocol this client speaks (spec/README.md, version handshake). */
    public const PROTOCOL_VERSION = 1;
    public const ENGINE_NAME = 'mailrender-engine';

    /** spec/clients.md: mailrender-<language>/<version> <runtime>/<runtime version>. */
    public static function userAgent(): string
    {
        return 'mailrender-php/' . self::CLIENT_VERSION . ' php/' . PHP_VERSION;
    }
}
