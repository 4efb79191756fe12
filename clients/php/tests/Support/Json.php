<?php

declare(strict_types=1);

namespace Mailrender\Tests\Support;

use PHPUnit\Framework\Assert;
use stdClass;

/**
 * Typed reads of decoded JSON (fixtures, service and engine answers): a missing field or one of
 * another type fails the test with its path, where an unchecked read would pass a null along.
 */
final class Json
{
    /** The JSON text of a value (for comparisons and failure messages). */
    public static function encode(mixed $value): string
    {
        return json_encode($value, JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR);
    }

    /** @return array<mixed> the object or array in $text */
    public static function decode(string $text): array
    {
        return self::array(json_decode($text, true));
    }

    /** @return array<mixed> the object or array in the file at $path */
    public static function file(string $path): array
    {
        $text = file_get_contents($path);
        Assert::assertIsString($text, "cannot read {$path}");
        return self::decode($text);
    }

    /** The value at $path in $doc (keys of nested objects and indexes of lists), which must be there. */
    public static function value(mixed $doc, string|int ...$path): mixed
    {
        $at = $doc;
        $where = [];
        foreach ($path as $key) {
            $where[] = $key;
            if (!is_array($at) || !array_key_exists($key, $at)) {
                Assert::fail('no ' . implode('.', $where) . ' in ' . self::encode($doc));
            }
            $at = $at[$key] ?? null; // there, possibly null
        }
        return $at;
    }

    public static function string(mixed $doc, string|int ...$path): string
    {
        $value = self::value($doc, ...$path);
        Assert::assertIsString($value, self::describe($path, $doc));
        return $value;
    }

    public static function int(mixed $doc, string|int ...$path): int
    {
        $value = self::value($doc, ...$path);
        Assert::assertIsInt($value, self::describe($path, $doc));
        return $value;
    }

    public static function bool(mixed $doc, string|int ...$path): bool
    {
        $value = self::value($doc, ...$path);
        Assert::assertIsBool($value, self::describe($path, $doc));
        return $value;
    }

    public static function number(mixed $doc, string|int ...$path): int|float
    {
        $value = self::value($doc, ...$path);
        Assert::assertTrue(is_int($value) || is_float($value), self::describe($path, $doc) . ' is not a number');
        return $value;
    }

    public static function stringOrNull(mixed $doc, string|int ...$path): ?string
    {
        return self::value($doc, ...$path) === null ? null : self::string($doc, ...$path);
    }

    public static function intOrNull(mixed $doc, string|int ...$path): ?int
    {
        return self::value($doc, ...$path) === null ? null : self::int($doc, ...$path);
    }

    /** @return array<mixed>|null */
    public static function arrayOrNull(mixed $doc, string|int ...$path): ?array
    {
        return self::value($doc, ...$path) === null ? null : self::array($doc, ...$path);
    }

    /** @return array<mixed> */
    public static function array(mixed $doc, string|int ...$path): array
    {
        $value = self::value($doc, ...$path);
        Assert::assertIsArray($value, self::describe($path, $doc));
        return $value;
    }

    /** @return array<string, mixed> an object (every key a string) */
    public static function object(mixed $doc, string|int ...$path): array
    {
        $out = [];
        foreach (self::array($doc, ...$path) as $key => $value) {
            Assert::assertIsString($key, self::describe($path, $doc) . ' is not an object');
            $out[$key] = $value;
        }
        return $out;
    }

    /** @return list<array<mixed>> a list of objects (or arrays) */
    public static function arrays(mixed $doc, string|int ...$path): array
    {
        $out = [];
        foreach (self::array($doc, ...$path) as $item) {
            Assert::assertIsArray($item, self::describe($path, $doc) . ': an item is not an object');
            $out[] = $item;
        }
        return $out;
    }

    /** @return list<string> */
    public static function strings(mixed $doc, string|int ...$path): array
    {
        $out = [];
        foreach (self::array($doc, ...$path) as $item) {
            Assert::assertIsString($item, self::describe($path, $doc) . ': an item is not a string');
            $out[] = $item;
        }
        return $out;
    }

    /** A member of a JSON object decoded as stdClass (which keeps {} and [] apart), which must be there. */
    public static function member(mixed $object, string $name): mixed
    {
        Assert::assertInstanceOf(stdClass::class, $object);
        return self::value(get_object_vars($object), $name);
    }

    /** @param array<string|int> $path */
    private static function describe(array $path, mixed $doc): string
    {
        return ($path === [] ? 'the document' : implode('.', $path)) . ' in ' . self::encode($doc);
    }
}
