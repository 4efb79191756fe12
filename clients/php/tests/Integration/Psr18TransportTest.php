<?php

declare(strict_types=1);

namespace Mailrender\Tests\Integration;

use GuzzleHttp\Client as GuzzleClient;
use GuzzleHttp\Psr7\HttpFactory;
use Mailrender\Http\Psr18Transport;
use Mailrender\MailrenderError;
use Mailrender\Tests\Support\Paths;
use Psr\Http\Client\ClientInterface;

/**
 * Psr18Transport with a real PSR-18 client: Debian's Guzzle 7 (php-guzzlehttp-guzzle) and its PSR-17
 * factory, against the real server. scripts/test-client-php.sh installs them; the package itself only
 * suggests the PSR interfaces.
 */
final class Psr18TransportTest extends ServerTestCase
{
    protected function setUp(): void
    {
        if (!interface_exists(ClientInterface::class) || !class_exists(GuzzleClient::class)) {
            self::markTestSkipped('the PSR-18 interfaces or Guzzle are not installed (Debian: php-psr-http-client php-guzzlehttp-guzzle)');
        }
        parent::setUp();
    }

    private function transport(float $timeoutSeconds = 5.0): Psr18Transport
    {
        $guzzle = new GuzzleClient(['timeout' => $timeoutSeconds, 'connect_timeout' => $timeoutSeconds]);
        self::assertInstanceOf(ClientInterface::class, $guzzle);
        return new Psr18Transport($guzzle, new HttpFactory());
    }

    public function testRendersThroughAPsr18Client(): void
    {
        $created = self::server()->createTemplate(Paths::sampleTemplate('PSR'));
        $wire = self::wire($this->transport());
        $client = $this->client(['cache' => ['ttl' => 0]], $wire);
        $html = $client->renderHtml($created['id'], ['merge_tags' => ['text' => ['first_name' => 'Psr']]]);
        self::assertStringContainsString('Hi Psr', $html);
        self::assertSame($html, $client->renderHtml($created['id'], ['merge_tags' => ['text' => ['first_name' => 'Psr']]]));
        self::assertSame([200, 304], $wire->statuses(), 'headers (ETag, If-None-Match) make the round trip');
        $key = self::server()->createKey(['html', 'mjml'])['key'];
        $wire = self::wire($this->transport());
        try {
            $this->client(['apiKey' => $key], $wire)->renderReact($created['id']);
            self::fail('expected FORBIDDEN');
        } catch (MailrenderError $e) {
            self::assertSame("API key is limited to targets [html, mjml]; requested 'react-email'", $e->getMessage());
        }
    }

    public function testConnectionFailureIsNetworkError(): void
    {
        $id = self::server()->createTemplate(Paths::sampleTemplate())['id'];
        self::server()->stop();
        $wire = self::wire($this->transport());
        try {
            $this->client([], $wire, null, self::quickRetries())->renderHtml($id);
            self::fail('expected NETWORK_ERROR');
        } catch (MailrenderError $e) {
            self::assertSame('NETWORK_ERROR', $e->getErrorCode());
            self::assertSame(0, $e->status);
            self::assertStringStartsWith('Could not reach ' . self::server()->url, $e->getMessage());
        }
        self::assertSame(['NETWORK_ERROR', 'NETWORK_ERROR', 'NETWORK_ERROR'], $wire->statuses());
    }

    public function testASilentServerIsTimeout(): void
    {
        $errno = 0;
        $error = '';
        $socket = stream_socket_server('tcp://127.0.0.1:0', $errno, $error);
        self::assertNotFalse($socket, (string) $error);
        $address = (string) stream_socket_get_name($socket, false);
        $wire = self::wire($this->transport(0.3));
        try {
            $this->client(['baseUrl' => 'http://' . $address], $wire)->renderHtml('x');
            self::fail('expected TIMEOUT');
        } catch (MailrenderError $e) {
            self::assertSame('TIMEOUT', $e->getErrorCode());
            self::assertSame(0, $e->status);
            self::assertStringStartsWith('No answer from http://' . $address . ' in time', $e->getMessage());
        } finally {
            fclose($socket);
        }
        self::assertSame(['TIMEOUT'], $wire->statuses());
    }
}
