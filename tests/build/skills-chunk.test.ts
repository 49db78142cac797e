// Start-up weight of skills that learn (issue 30): what every run with skills or skill_manage loads
// is the tool's face (its schema), the per-turn glue and the evidence queue; the work itself (the
// rules, the store, the ranking, the ledger, the curator, proposals, the review, SQLite) loads only
// when a skill is written, hinted, reviewed or curated. A one-shot turn loads none of it statically.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { staticallyLoaded, type BuildMeta } from "../helpers/build-meta.js";

const dist = resolve(import.meta.dirname, "../../dist");

const HEAVY = [
  "src/skills/skill-manage-run.ts",
  "src/skills/skill-rules.ts",
  "src/skills/skill-store.ts",
  "src/skills/skill-rank.ts",
  "src/skills/ledger.ts",
  "src/skills/curator.ts",
  "src/skills/curator-lock.ts",
  "src/skills/rollback.ts",
  "src/skills/proposals.ts",
  "src/agent/skill-review.ts",
  "src/session/skill-events.ts",
  "src/oneshot/skills-cli.ts",
  "src/memory/bm25.ts",
];

it("a one-shot turn and the engine load none of the skills' working code statically; the tool loads it on its first call", () => {
  const meta = JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")) as BuildMeta;
  const chunkOf = (source: string) =>
    Object.entries(meta.outputs).find(([, o]) => Object.keys(o.inputs).includes(source))![0];
  const inputsOf = (from: string) =>
    new Set(
      [...staticallyLoaded(meta, chunkOf(from))].flatMap((path) => Object.keys(meta.outputs[path]?.inputs ?? {})),
    );
  // What a one-shot turn always loads: its front end, the engine, the extensions and, with skill_manage on, the glue.
  for (const entry of [
    "src/cli.ts",
    "src/oneshot/run.ts",
    "src/agent/engine.ts",
    "src/agent/extensions.ts",
    "src/agent/skill-hooks.ts",
    "src/skills/skill-manage.ts",
    "src/skills/skill-tool.ts",
  ]) {
    const loaded = inputsOf(entry);
    expect(
      HEAVY.filter((h) => loaded.has(h)),
      entry,
    ).toEqual([]);
    expect(
      [...loaded].some((i) => i.includes("node_modules/better-sqlite3/")),
      entry,
    ).toBe(false);
  }
  // ...and the working code is in the bundle, reached by the tool's first call.
  const face = meta.outputs[chunkOf("src/skills/skill-manage.ts")]!;
  const onDemand = face.imports.filter((i) => i.kind === "dynamic-import").map((i) => i.path);
  expect(onDemand.some((path) => staticallyLoaded(meta, path).has(chunkOf("src/skills/skill-manage-run.ts")))).toBe(
    true,
  );
});
