/**
 * `make email-client-report`: what caniemail (through doiuse-email) flags in every fixture's html
 * and react-email output, per client family. A report, not a gate: email HTML relies on features
 * some clients ignore on purpose (media queries, for instance, degrade to the desktop layout).
 *
 *   tsx engine/scripts/email-client-report.ts [--features]
 */
import { doIUseEmail } from "doiuse-email";
import { fixtureDocuments } from "./fixture-documents.js";

const FAMILIES = { Gmail: "gmail.*", Outlook: "outlook.*", "Apple Mail": "apple-mail.*" } as const;

/** `The `<style> element` is not supported by `outlook.windows`…` → "<style> element". */
function feature(message: string): string {
  return /`([^`]+)`/.exec(message)?.[1] ?? message;
}

const documents = await fixtureDocuments();
const showFeatures = process.argv.includes("--features");
console.log(`${documents.length} fixtures, html and react-email output each`);
for (const [family, glob] of Object.entries(FAMILIES)) {
  for (const output of ["html", "reactHtml"] as const) {
    const features = new Map<string, number>();
    let errors = 0;
    const unreadable: string[] = [];
    for (const document of documents) {
      let result: ReturnType<typeof doIUseEmail>;
      try {
        result = doIUseEmail(document[output], { emailClients: [glob] });
      } catch {
        // Its CSS parser rejects what browsers read (an unquoted @import url with ';' in it).
        unreadable.push(document.fixture.name);
        continue;
      }
      const messages = result.success ? [] : result.errors;
      const flagged = new Set(messages.map(feature));
      errors += messages.length;
      for (const name of flagged) features.set(name, (features.get(name) ?? 0) + 1);
    }
    const label = output === "html" ? "html" : "react-email";
    console.log(
      `${family.padEnd(10)} ${label.padEnd(11)} ${String(features.size).padStart(3)} features flagged, ${String(errors).padStart(5)} client×feature errors${unreadable.length > 0 ? `; not parsed by doiuse-email: ${unreadable.join(", ")}` : ""}`,
    );
    if (showFeatures) for (const [name, count] of [...features].sort()) console.log(`    ${name} (${count} fixtures)`);
  }
}
