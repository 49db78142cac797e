// Writes docs/events.md from the protocol definitions (bundled on the fly: they are TypeScript).
import { buildSync } from "esbuild";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const out = join(mkdtempSync(join(tmpdir(), "nh-docs-")), "docs.mjs");
buildSync({
  entryPoints: ["src/protocol/docs.ts"],
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: out,
  logLevel: "warning",
});
const { renderEventsDoc } = await import(pathToFileURL(out).href);
writeFileSync("docs/events.md", renderEventsDoc());
console.log("wrote docs/events.md");
