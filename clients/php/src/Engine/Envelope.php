<?php

declare(strict_types=1);

namespace Mailrender\Engine;

use Mailrender\Defaults;
use Mailrender\MailrenderError;

/** Reads the engine's response envelope: version handshake first, then the result or the error. */
final class Envelope
{
    public const TEMPLATE_REF_UNKNOWN = 'TEMPLATE_REF_UNKNOWN';
    /** Engine error codes that mean the request itself was bad (spec/README.md). */
    private const CALLER_ERRORS = ['BAD_REQUEST', 'REQUEST_TOO_LARGE', 'INVALID_JSON'];

    /**
     * Whether the engine refused the request for its saved-layout keys, as an engine that predates
     * them does (an unknown key is a BAD_REQUEST naming it).
     *
     * @param array<mixed> $envelope
     */
    public static function refusedSavedLayouts(array $envelope): bool
    {
        $error = $envelope['error'] ?? null;
        if (($envelope['ok'] ?? null) !== false || !is_array($error) || ($error['code'] ?? null) !== 'BAD_REQUEST') {
            return false;
        }
        foreach (is_array($error['issues'] ?? null) ? $error['issues'] : [] as $issue) {
            $loc = is_array($issue) ? ($issue['loc'] ?? null) : null;
            if (is_array($loc) && in_array($loc[0] ?? null, ['saved_layout', 'save_layout'], true)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return array<mixed> the decoded envelope, after the handshake
     * @throws MailrenderError UNKNOWN when the text is not an envelope or the protocol differs
     */
    public static function decode(string $text, string $enginePath): array
    {
        $envelope = json_decode($text, true);
        if (!is_array($envelope) || !is_bool($envelope['ok'] ?? null)) {
            throw new MailrenderError(
                MailrenderError::UNKNOWN,
                0,
                "{$enginePath} did not answer with a mailrender-engine envelope: " . self::excerpt($text),
            );
        }
        $protocol = $envelope['protocol_version'] ?? null;
        if ($protocol !== Defaults::PROTOCOL_VERSION) {
            $engineVersion = is_string($envelope['engine_version'] ?? null) ? $envelope['engine_version'] : 'unknown';
            throw new MailrenderError(
                MailrenderError::UNKNOWN,
                0,
                sprintf(
                    '%s speaks engine protocol %s (engine %s), but mailrender/client %s speaks protocol %d: '
                    . 'install the engine pinned to this client version with vendor/bin/mailrender-install-engine',
                    $enginePath,
                    is_scalar($protocol) ? (string) $protocol : 'none',
                    $engineVersion,
                    Defaults::CLIENT_VERSION,
                    Defaults::PROTOCOL_VERSION,
                ),
            );
        }
        return $envelope;
    }

    /**
     * True for the one error that means "send the template again" (spec/README.md, template_ref rule 3).
     *
     * @param array<mixed> $envelope
     */
    public static function isTemplateRefUnknown(array $envelope): bool
    {
        return ($envelope['ok'] ?? null) === false
            && ($envelope['error']['code'] ?? null) === self::TEMPLATE_REF_UNKNOWN;
    }

    /**
     * The render's result, or its error (spec/clients.md, Errors): the caller's fault is RENDER_ERROR
     * 422 as the service's render endpoint answers it; an engine fault is UNKNOWN with status 0.
     *
     * @param array<mixed> $envelope
     * @throws MailrenderError
     */
    public static function result(array $envelope): EngineResult
    {
        if (($envelope['ok'] ?? null) === true) {
            if (!is_string($envelope['output'] ?? null)) {
                throw new MailrenderError(MailrenderError::UNKNOWN, 0, 'The engine answered ok without an output');
            }
            $text = is_string($envelope['text'] ?? null) ? $envelope['text'] : null;
            $layout = is_string($envelope['saved_layout'] ?? null) ? $envelope['saved_layout'] : null;
            return new EngineResult($envelope['output'], self::warnings($envelope['warnings'] ?? null), $text, $layout);
        }
        $error = is_array($envelope['error'] ?? null) ? $envelope['error'] : [];
        $code = is_string($error['code'] ?? null) ? $error['code'] : 'INTERNAL_ERROR';
        $message = is_string($error['message'] ?? null) ? $error['message'] : 'The engine failed without a message';
        $issues = MailrenderError::normalizeIssues($error['issues'] ?? null);
        if ($code === MailrenderError::RENDER_ERROR) {
            throw new MailrenderError(MailrenderError::RENDER_ERROR, 422, $message, $issues);
        }
        if (in_array($code, self::CALLER_ERRORS, true)) {
            // The engine refused the request itself: the caller's dynamic data (or its size) is the cause.
            throw new MailrenderError(
                MailrenderError::RENDER_ERROR,
                422,
                "The engine refused the render request ({$code}): {$message}",
                $issues,
            );
        }
        throw new MailrenderError(MailrenderError::UNKNOWN, 0, "The engine failed ({$code}): {$message}");
    }

    /**
     * The well-formed {code, message, path} items of an envelope's `warnings`.
     *
     * @return list<array{code: string, message: string, path: list<string|int>}>
     */
    private static function warnings(mixed $warnings): array
    {
        $out = [];
        foreach (is_array($warnings) ? $warnings : [] as $warning) {
            if (
                is_array($warning)
                && is_string($warning['code'] ?? null)
                && is_string($warning['message'] ?? null)
                && is_array($warning['path'] ?? null)
            ) {
                $path = [];
                foreach ($warning['path'] as $step) {
                    if (is_string($step) || is_int($step)) {
                        $path[] = $step;
                    }
                }
                $out[] = ['code' => $warning['code'], 'message' => $warning['message'], 'path' => $path];
            }
        }
        return $out;
    }

    public static function excerpt(string $text): string
    {
        $text = trim($text);
        if ($text === '') {
            return '(nothing)';
        }
        return strlen($text) > 300 ? substr($text, 0, 300) . '…' : $text;
    }
}
