<?php

declare(strict_types=1);

namespace Mailrender\Engine;

use JsonException;
use Mailrender\MailrenderError;
use stdClass;

/** One render for the engine, and its wire form (spec/README.md, protocol version 1). */
final class EngineRequest
{
    /**
     * @param string $templateJson the template as JSON text (verbatim from the service or the cache)
     * @param string $templateRef changes whenever the template changes (`<id>@<etag>`); a long-lived
     *                            engine keeps the template under it
     * @param array<mixed> $dynamicData
     *        ['merge_tags' => ['text' => [], 'url' => [], 'attr' => []], 'context' => []]
     */
    public function __construct(
        public readonly string $templateJson,
        public readonly string $templateRef,
        public readonly string $target,
        public readonly array $dynamicData = [],
        public readonly ?bool $minify = null,
        public readonly ?bool $strict = null,
        public readonly ?bool $plainText = null,
        public readonly ?bool $componentProps = null,
        /**
         * With the template in the request: the engine's saved layout of this template, target and
         * minification (null: none yet), and a new one is asked for (spec/README.md, "Saved layouts").
         */
        public readonly ?string $savedLayout = null,
        public readonly bool $saveLayout = false,
    ) {
    }

    /** The same render without saved layouts (for an engine that does not know them). */
    public function withoutSavedLayouts(): self
    {
        return new self(
            $this->templateJson,
            $this->templateRef,
            $this->target,
            $this->dynamicData,
            $this->minify,
            $this->strict,
            $this->plainText,
        );
    }

    /**
     * The request as one line of JSON (no raw newline: --serve frames by lines). `$asLayout` asks
     * for output_format "layout", `$withLayoutParts` for the layout's parts even if sent before.
     *
     * @throws MailrenderError when the dynamic data cannot be encoded (e.g. invalid UTF-8)
     */
    public function toJson(
        int|string|null $id,
        bool $withTemplate,
        bool $withRef,
        bool $asLayout = false,
        bool $withLayoutParts = false,
    ): string {
        $request = [];
        if ($id !== null) {
            $request['id'] = $id;
        }
        $request['target'] = $this->target;
        if ($withRef) {
            $request['template_ref'] = $this->templateRef;
        }
        if ($this->dynamicData !== []) {
            $request['dynamic_data'] = self::objects($this->dynamicData);
        }
        $options = array_filter(
            [
                'minify' => $this->minify,
                'strict' => $this->strict,
                'plain_text' => $this->plainText,
                'component_props' => $this->componentProps,
            ],
            static fn (?bool $v): bool => $v !== null,
        );
        if ($options !== []) {
            $request['options'] = $options;
        }
        if ($asLayout) {
            // spec/README.md, output_format "layout": the static text once, then only the values.
            $request['output_format'] = 'layout';
            if ($withLayoutParts) {
                $request['layout_parts'] = true;
            }
        }
        try {
            $json = json_encode($request, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR);
        } catch (JsonException $e) {
            throw new MailrenderError(
                MailrenderError::RENDER_ERROR,
                422,
                'Invalid render request: dynamicData cannot be encoded as JSON (' . $e->getMessage() . ')',
                [['loc' => ['dynamic_data'], 'msg' => $e->getMessage(), 'type' => 'json_invalid']],
                $e,
            );
        }
        if (!$withTemplate) {
            return $json;
        }
        if ($this->saveLayout || $this->savedLayout !== null) {
            $layout = ['save_layout' => $this->saveLayout];
            if ($this->savedLayout !== null) {
                $layout['saved_layout'] = $this->savedLayout;
            }
            // Escaped as the engine wrote it: a layout that is not UTF-8 (a damaged file) is sent as
            // U+FFFD rather than refused, and the engine, finding its checksum wrong, ignores it.
            $flags = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE;
            $layoutJson = json_encode($layout, $flags);
            $json = substr($json, 0, -1) . ',' . substr((string) $layoutJson, 1);
        }
        // The template is spliced in as text, so {} stays {}. A raw CR/LF in valid JSON can only be
        // whitespace between tokens, so replacing it keeps the meaning and the one-line framing.
        $template = str_replace(["\r", "\n"], ' ', $this->templateJson);
        return substr($json, 0, -1) . ',"template":' . $template . '}';
    }

    /**
     * The data maps as JSON objects: an empty PHP array would otherwise encode as [] and be refused.
     *
     * @param array<mixed> $data
     */
    private static function objects(array $data): stdClass
    {
        $out = [];
        foreach ($data as $key => $value) {
            if ($key === 'merge_tags' && is_array($value)) {
                $groups = [];
                foreach ($value as $name => $group) {
                    $isMap = is_array($group) && ($group === [] || !array_is_list($group));
                    $groups[$name] = $isMap ? (object) $group : $group;
                }
                $out[$key] = (object) $groups;
            } elseif ($key === 'context' && is_array($value) && ($value === [] || !array_is_list($value))) {
                $out[$key] = (object) $value;
            } else {
                $out[$key] = $value;
            }
        }
        return (object) $out;
    }
}
