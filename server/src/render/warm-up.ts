/**
 * The request a fresh render thread answers before it says it is ready (worker.ts). Its first request
 * compiles the code it runs as it first runs (V8 compiles functions lazily; the request's schema builds
 * its checks on first use): 10–20 ms of the thread's CPU for a small template, against ~1 ms for the
 * next. This small request, through the same steps as a real one (read and checked, rendered, encoded),
 * keeps that start-up out of the first real request's time budget. It must render (unit.test.ts): one
 * that failed validation would warm nothing but the error path.
 */
export const WARM_UP_TEMPLATE = {
  template_id: "warm-up",
  template_name: "Warm-up",
  schema_version: "1.0",
  canvas: {},
  rows: [
    {
      type: "row",
      columns: [
        {
          children: [
            { type: "component", componentType: "heading", props: { content: "Hi {{ name }}" } },
            { type: "component", componentType: "paragraph", props: { content: "<p>{{ name }}</p>" } },
          ],
        },
      ],
    },
  ],
};

/** The warm-up's request body, as a client sends it (a stored template's id is a UUID). */
export const WARM_UP_BODY = JSON.stringify({ template_id: "00000000-0000-4000-8000-000000000000", dynamic_data: { merge_tags: { text: { name: "warm" } } } });
