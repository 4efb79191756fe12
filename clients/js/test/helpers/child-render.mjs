// A separate worker process using the built package (@mailrender/client → dist/) with a disk cache.
// Input: one JSON argument. Output: one JSON line. It counts its own network calls by wrapping the
// real global fetch (every call still goes to the real server).
import { MailrenderClient } from "@mailrender/client";

const job = JSON.parse(process.argv[2]);
let networkCalls = 0;
const client = new MailrenderClient({
  apiKey: job.apiKey,
  baseUrl: job.baseUrl,
  cache: { type: "disk", path: job.cacheDir, ...(job.ttl === undefined ? {} : { ttl: job.ttl }) },
  fetch: (input, init) => {
    networkCalls++;
    return fetch(input, init);
  },
});

const outputs = {};
let stale = 0;
const errors = [];
for (let round = 0; round < (job.rounds ?? 1); round++) {
  for (const templateId of job.templateIds) {
    try {
      const result = await client.render({ templateId, dynamicData: { merge_tags: { text: { first_name: "Worker" } } } });
      if (result.fromStaleCache) stale++;
      if (outputs[templateId] !== undefined && outputs[templateId] !== result.output) errors.push(`${templateId}: output changed`);
      outputs[templateId] = result.output;
    } catch (error) {
      errors.push(`${templateId}: ${error.code ?? ""} ${error.message}`);
    }
  }
}
process.stdout.write(`${JSON.stringify({ outputs, stale, networkCalls, errors, listed: client.listCached() })}\n`);
