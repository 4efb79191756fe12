import { listCases } from "./scripts/fixture-cases.js";
import { createEngine, NODE_HOST, ONE_RENDER } from "./src/index.js";
const engine = createEngine({ host: NODE_HOST, cache: ONE_RENDER });
for (const name of ["realistic-newsletter", "visibility-node-kinds", "merge-tag-positions"]) {
  const c = listCases("render").find((x) => x.name === name)!;
  for (const componentProps of [false, true]) {
    const opts = { target: "react-email" as const, componentProps, ...(componentProps ? {} : { dynamicData: c.dynamicData }) };
    let out = "";
    for (let i = 0; i < 20; i++) out = (await engine.render(c.template, opts)).output;
    const t0 = performance.now();
    for (let i = 0; i < 100; i++) await engine.render(c.template, opts);
    console.log(name, componentProps ? "component" : "email    ", `${((performance.now() - t0) / 100).toFixed(2)} ms/render`, `${out.length} chars`);
  }
}
