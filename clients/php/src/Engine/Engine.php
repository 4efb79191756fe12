<?php

declare(strict_types=1);

namespace Mailrender\Engine;

use Mailrender\MailrenderError;

/**
 * The rendering seam. The default is ProcessEngine (one engine process per render); ServeEngine keeps
 * one `--serve` process for CLI scripts and queue workers. Tests and special set-ups inject their own.
 */
interface Engine
{
    /**
     * @throws MailrenderError RENDER_ERROR with the engine's message (and issues) when rendering fails
     */
    public function render(EngineRequest $request): EngineResult;
}
