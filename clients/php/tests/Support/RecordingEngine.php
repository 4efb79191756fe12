<?php

declare(strict_types=1);

namespace Mailrender\Tests\Support;

use Mailrender\Engine\Engine;
use Mailrender\Engine\EngineRequest;
use Mailrender\Engine\EngineResult;

/** An injected engine that records what the client hands it and answers a marker. */
final class RecordingEngine implements Engine
{
    /** @var list<EngineRequest> */
    public array $requests = [];

    public function render(EngineRequest $request): EngineResult
    {
        $this->requests[] = $request;
        return new EngineResult("fake:{$request->target}", [['code' => 'FAKE', 'message' => 'from the fake', 'path' => []]]);
    }
}
