<?php

declare(strict_types=1);

namespace Mailrender\Engine;

use Mailrender\Defaults;
use Mailrender\MailrenderError;

/** Reads the engine's response envelope: version handshake first, then the result or the error. */
final class Envelope
{
    public const TEMPLATE_REF_UNKNOWN = 'TEMPLATE_REF_UNKNOWN';

    /**
     * @return array<string, mixed> the decoded envelope, after the handshake
     * @throws MailrenderError RENDER_ERROR when the text is not an envelope or the protocol differs
     */
    public static function decode(string $text, string $enginePath): array
    {
        $envelope = json_decode($text, true);
        if (!is_array($envelope) || !is_bool($envelope['ok'] ?? null)) {
            throw new MailrenderError(
                MailrenderError::RENDER_ERROR,
                0,
                "{$enginePath} did not answer with a mailrender-engine envelope: " . self::excerpt($text),
            );
        }
        $protocol = $envelope['protocol_version'] ?? null;
        if ($protocol !== Defaults::PROTOCOL_VERSION) {
            $engineVersion = is_string($envelope['engine_version'] ?? null) ? $envelope['engine_version'] : 'unknown';
            throw new MailrenderError(
                MailrenderError::RENDER_ERROR,
                0,
                sprintf(
                    '%s speaks engine protocol %s (engine %s), but mailrender/client %s speaks protocol %d: '
                    . 'use the engine bundled with this client version',
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

    /** True for the one error that means "send the template again" (spec/README.md, template_ref rule 3). */
    public static function isTemplateRefUnknown(array $envelope): bool
    {
        return ($envelope['ok'] ?? null) === false
            && ($envelope['error']['code'] ?? null) === self::TEMPLATE_REF_UNKNOWN;
    }

    /**
     * @param array<string, mixed> $envelope
     * @throws MailrenderError RENDER_ERROR with the engine's message and issues
     */
    public static function result(array $envelope): EngineResult
    {
        $engineVersion = is_string($envelope['engine_version'] ?? null) ? $envelope['engine_version'] : null;
        if ($envelope['ok'] === true) {
            if (!is_string($envelope['output'] ?? null)) {
                throw new MailrenderError(MailrenderError::RENDER_ERROR, 0, 'The engine answered ok without an output');
            }
            $warnings = is_array($envelope['warnings'] ?? null) ? array_values($envelope['warnings']) : [];
            $text = is_string($envelope['text'] ?? null) ? $envelope['text'] : null;
            return new EngineResult($envelope['output'], $warnings, $engineVersion, $text);
        }
        $error = is_array($envelope['error'] ?? null) ? $envelope['error'] : [];
        $code = is_string($error['code'] ?? null) ? $error['code'] : 'INTERNAL_ERROR';
        $message = is_string($error['message'] ?? null) ? $error['message'] : 'The engine failed without a message';
        $issues = MailrenderError::normalizeIssues($error['issues'] ?? null);
        // A render failure is the caller's 422, as the service's render endpoint answers it; an engine bug is not.
        $status = $code === 'INTERNAL_ERROR' ? 0 : 422;
        if ($code !== MailrenderError::RENDER_ERROR) {
            $message = "{$message} (engine error {$code})";
        }
        throw new MailrenderError(MailrenderError::RENDER_ERROR, $status, $message, $issues);
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
