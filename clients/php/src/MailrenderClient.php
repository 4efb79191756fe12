<?php

declare(strict_types=1);

namespace Mailrender;

use InvalidArgumentException;
use Mailrender\Cache\CachedScope;
use Mailrender\Cache\CacheEntry;
use Mailrender\Cache\CacheStore;
use Mailrender\Cache\CacheTime;
use Mailrender\Cache\DiskCache;
use Mailrender\Cache\MemoryCache;
use Mailrender\Engine\Engine;
use Mailrender\Engine\EngineRequest;
use Mailrender\Engine\ProcessEngine;
use Mailrender\Http\CurlTransport;
use Mailrender\Http\RetryPolicy;
use Mailrender\Http\TemplateFetcher;
use Mailrender\Http\Transport;
use Throwable;

/**
 * Fetches a template's JSON (cached), then renders it locally with the engine executable.
 *
 * Order of a render: check the arguments → cached entry fresh and in scope? render from it → else
 * (re)fetch, conditional on the cached ETag, with retries for outages → on an outage use the expired
 * copy (stale-on-error) → render. Scope decisions on cached entries use X-Key-Targets, so a cached
 * render refuses exactly what the service would. Merge tags and context go to the engine only.
 */
final class MailrenderClient
{
    public const VERSION = Defaults::CLIENT_VERSION;

    private const RENDER_KEYS = [
        'templateId',
        'target',
        'dynamicData',
        'minify',
        'strict',
        'plainText',
        'componentProps',
    ];

    private readonly Config $config;
    private readonly TemplateFetcher $fetcher;
    private readonly CacheStore $cache;
    private readonly Engine $engine;
    private readonly string $fingerprint;
    private bool $cacheWriteWarned = false;

    /**
     * @param array{apiKey?: string, baseUrl?: string, timeout?: int, cache?: array{type?: 'memory'|'disk',
     *     path?: string, ttl?: int, maxEntries?: int}, enginePath?: string} $config
     * @param Transport|null $transport default: CurlTransport; e.g. a Psr18Transport
     * @param Engine|null $engine default: ProcessEngine on enginePath or the bundled executable
     * @param RetryPolicy|null $retryPolicy for tests of the retry schedule
     *
     * @throws MailrenderError INVALID_API_KEY without a key; RENDER_ERROR when no engine can run
     * @throws InvalidArgumentException for an unknown or malformed config key
     */
    public function __construct(
        #[\SensitiveParameter] array $config = [],
        ?Transport $transport = null,
        ?Engine $engine = null,
        ?RetryPolicy $retryPolicy = null,
    ) {
        $this->config = Config::resolve($config);
        if ($engine !== null && isset($config['enginePath'])) {
            throw new InvalidArgumentException('MailrenderClient: pass either an Engine or enginePath, not both');
        }
        $this->fetcher = new TemplateFetcher(
            $transport ?? new CurlTransport(),
            $this->config->baseUrl,
            $this->config->apiKey,
            $this->config->timeoutMs,
            $retryPolicy ?? new RetryPolicy(),
        );
        $this->cache = $this->config->cacheType === 'disk'
            ? new DiskCache($this->config->cachePath, $this->config->cacheMaxEntries)
            : new MemoryCache($this->config->cacheMaxEntries);
        // Checked here, not at the first render: a missing engine is a deployment error, best seen at boot.
        $this->engine = $engine ?? ProcessEngine::locate($this->config->enginePath, $this->config->timeoutMs);
        $this->fingerprint = CachedScope::fingerprint($this->config->apiKey);
    }

    /**
     * Never shows the API key in var_dump()/print_r().
     *
     * @return array{baseUrl: string, apiKey: string, timeout: int, cache: string, engine: class-string}
     */
    public function __debugInfo(): array
    {
        return [
            'baseUrl' => $this->config->baseUrl,
            'apiKey' => '[redacted]',
            'timeout' => $this->config->timeoutMs,
            'cache' => $this->config->cacheType,
            'engine' => $this->engine::class,
        ];
    }

    public function baseUrl(): string
    {
        return $this->config->baseUrl;
    }

    /**
     * @param array{templateId: string, target?: string, dynamicData?: array<string, mixed>, minify?: bool,
     *     strict?: bool, plainText?: bool, componentProps?: bool} $request
     * @throws MailrenderError
     */
    public function render(array $request): RenderResult
    {
        [$templateId, $target, $dynamicData, $minify, $strict, $plainText, $componentProps] =
            self::checkRequest($request);
        [$entry, $stale] = $this->resolve($templateId, $target);
        $layouts = $this->layoutStore($plainText === true || $componentProps === true);
        $result = $this->engine->render(new EngineRequest(
            $entry->templateJson,
            $entry->templateRef(),
            $target,
            $dynamicData,
            $minify,
            $strict,
            $plainText,
            $componentProps,
            $layouts?->getLayout($templateId, $target, $minify ?? true),
            $layouts !== null,
        ));
        if ($layouts !== null && $result->savedLayout !== null) {
            $layout = $result->savedLayout;
            $this->keep(static function () use ($layouts, $templateId, $target, $minify, $layout): void {
                $layouts->setLayout($templateId, $target, $minify ?? true, $layout);
            });
        }
        return new RenderResult($result->output, $target, $templateId, $stale, $result->warnings, $result->text);
    }

    /** @param array<string, mixed> $dynamicData */
    public function renderHtml(string $templateId, array $dynamicData = []): string
    {
        return $this->renderTo($templateId, Defaults::TARGET_HTML, $dynamicData);
    }

    /** @param array<string, mixed> $dynamicData */
    public function renderReact(string $templateId, array $dynamicData = []): string
    {
        return $this->renderTo($templateId, Defaults::TARGET_REACT_EMAIL, $dynamicData);
    }

    /** @param array<string, mixed> $dynamicData */
    public function renderMjml(string $templateId, array $dynamicData = []): string
    {
        return $this->renderTo($templateId, Defaults::TARGET_MJML, $dynamicData);
    }

    /** @param array<string, mixed> $dynamicData */
    private function renderTo(string $templateId, string $target, array $dynamicData): string
    {
        return $this->render(['templateId' => $templateId, 'target' => $target, 'dynamicData' => $dynamicData])->output;
    }

    /** @return list<string> ids of the cached templates (fresh or expired) */
    public function listCached(): array
    {
        return $this->cache->list();
    }

    /** Removes one template from the cache; true when it was there. */
    public function deleteCached(string $templateId): bool
    {
        return $this->cache->delete($templateId);
    }

    public function clearCache(): void
    {
        $this->cache->clear();
    }

    /**
     * @deprecated since 2.0.0: use deleteCached($templateId). Works the same.
     */
    public function invalidate(string $templateId): bool
    {
        trigger_error(
            'MailrenderClient::invalidate() is deprecated since 2.0.0; use deleteCached($templateId)',
            E_USER_DEPRECATED,
        );
        return $this->deleteCached($templateId);
    }

    /**
     * @param array<mixed> $request
     * @return array{string, string, array<mixed>, ?bool, ?bool, ?bool, ?bool}
     */
    private static function checkRequest(array $request): array
    {
        $issues = [];
        foreach (array_keys($request) as $key) {
            if (!in_array($key, self::RENDER_KEYS, true)) {
                $known = implode(', ', self::RENDER_KEYS);
                $msg = "Extra inputs are not permitted; known: {$known}";
                $issues[] = self::issue((string) $key, $msg, 'extra_forbidden');
            }
        }
        $templateId = $request['templateId'] ?? null;
        if (!is_string($templateId) || trim($templateId) === '') {
            $type = $templateId === null ? 'missing' : 'string_type';
            $issues[] = self::issue('templateId', 'Field required: a non-empty template id string', $type);
            $templateId = null;
        }
        $target = $request['target'] ?? Defaults::DEFAULT_TARGET;
        if (!is_string($target) || !in_array($target, Defaults::TARGETS, true)) {
            $issues[] = self::issue('target', "Input should be 'html', 'react-email' or 'mjml'", 'literal_error');
            $target = null;
        }
        $dynamicData = $request['dynamicData'] ?? [];
        if (!is_array($dynamicData)) {
            $msg = "Input should be an array ['merge_tags' => [...], 'context' => [...]]";
            $issues[] = self::issue('dynamicData', $msg, 'dict_type');
            $dynamicData = null;
        }
        $flags = [];
        foreach (['minify', 'strict', 'plainText', 'componentProps'] as $flag) {
            $value = $request[$flag] ?? null;
            if ($value !== null && !is_bool($value)) {
                $issues[] = self::issue($flag, 'Input should be a valid boolean', 'bool_type');
            }
            $flags[$flag] = is_bool($value) ? $value : null;
        }
        if ($issues !== [] || $templateId === null || $target === null || $dynamicData === null) {
            $described = implode('; ', array_map(
                /** @param array{loc: list<string>, msg: string, type: string} $i */
                static fn (array $i): string => implode('.', $i['loc']) . ': ' . $i['msg'],
                $issues,
            ));
            throw new MailrenderError(
                MailrenderError::RENDER_ERROR,
                422,
                "Invalid render request: {$described}",
                $issues,
            );
        }
        return [
            $templateId,
            $target,
            $dynamicData,
            $flags['minify'],
            $flags['strict'],
            $flags['plainText'],
            $flags['componentProps'],
        ];
    }

    /** @return array{loc: list<string>, msg: string, type: string} shaped like the service's 422 issues */
    private static function issue(string $field, string $msg, string $type): array
    {
        return ['loc' => [$field], 'msg' => $msg, 'type' => $type];
    }

    /** @return array{CacheEntry, bool} the entry to render and whether it is a stale copy */
    private function resolve(string $templateId, string $target): array
    {
        $cached = $this->cache->get($templateId);
        if ($cached !== null) {
            $verdict = CachedScope::verdict($cached->scope, $this->fingerprint, $target);
            if ($verdict === 'forbidden' && $cached->scope !== null) {
                throw MailrenderError::forbiddenTarget($cached->scope->targets, $target);
            }
            $fresh = CacheTime::isFresh($cached->fetchedAt, CacheTime::now(), $this->config->cacheTtlMs);
            if ($verdict === 'allowed' && $fresh) {
                return [$cached, false];
            }
        }
        return $this->refresh($templateId, $target, $cached);
    }

    /** @return array{CacheEntry, bool} */
    private function refresh(string $templateId, string $target, ?CacheEntry $cached): array
    {
        try {
            $outcome = $this->fetcher->fetch($templateId, $target, $cached?->etag);
        } catch (MailrenderError $error) {
            if ($error->getErrorCode() === MailrenderError::TEMPLATE_NOT_FOUND) {
                $this->cache->delete($templateId);
            }
            if (
                $cached !== null
                && self::mayServeStale($error, CachedScope::verdict($cached->scope, $this->fingerprint, $target))
            ) {
                return [$cached, true];
            }
            throw $error;
        }
        $scope = CachedScope::learned($this->fingerprint, $outcome->keyTargets, $cached?->scope, $target);
        if ($outcome->notModified()) {
            if ($cached === null) {
                throw new MailrenderError(
                    MailrenderError::UNKNOWN,
                    304,
                    'The service answered 304 to a request without If-None-Match',
                );
            }
            // 304: the cached body is current; only the time (and scope) are renewed.
            $json = $cached->templateJson;
            $etag = $outcome->etag ?? $cached->etag;
        } else {
            $json = (string) $outcome->templateJson;
            $etag = $outcome->etag;
        }
        $entry = new CacheEntry($templateId, $json, $etag, CacheTime::now(), $scope);
        $this->store($entry);
        if (CachedScope::verdict($scope, $this->fingerprint, $target) === 'forbidden') {
            throw MailrenderError::forbiddenTarget($scope->targets, $target);
        }
        return [$entry, false];
    }

    /** A cache that cannot be written (read-only or full disk) slows renders down but does not fail them. */
    private function store(CacheEntry $entry): void
    {
        $this->keep(function () use ($entry): void {
            $this->cache->set($entry);
        });
    }

    /**
     * Where the engine's saved layouts are kept: beside the templates in a disk cache, when each render
     * is a new engine process (ProcessEngine), which would otherwise compile the template every time
     * (spec/clients.md, "Saved layouts"). A plain-text render is compiled from the template anyway, and
     * a component (`$notPerRecipient`, with plain text) is one for every recipient.
     */
    private function layoutStore(bool $notPerRecipient): ?DiskCache
    {
        $useful = $this->cache instanceof DiskCache && $this->engine instanceof ProcessEngine && !$notPerRecipient;
        return $useful ? $this->cache : null;
    }

    /** Runs a cache write; a failure is warned about once and the render goes on uncached. */
    private function keep(callable $write): void
    {
        try {
            $write();
        } catch (Throwable $e) {
            if (!$this->cacheWriteWarned) {
                $this->cacheWriteWarned = true;
                trigger_error(
                    "mailrender: could not write the template cache ({$e->getMessage()}); rendering continues uncached",
                    E_USER_WARNING,
                );
            }
        }
    }

    /**
     * Whether a failed fetch may fall back to the expired cached copy: only for an outage, and only
     * when the cached scope allows the target for this key (a CachedScope::verdict).
     */
    public static function mayServeStale(MailrenderError $error, string $verdict): bool
    {
        return $error->isOutage() && $verdict === 'allowed';
    }
}
