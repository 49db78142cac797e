// Start-up weight of the engine's gate: a one-shot run loads the gate with its agent, but the
// command classifier and the policy (about 80 KB of code) only with the first call that needs
// them, so a run whose calls only read compiles none of it (issue 25's +5 ms budget).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { staticallyLoaded, type BuildMeta } from "../helpers/build-meta.js";

const dist = resolve(import.meta.dirname, "../../dist");

it("the one-shot path loads the gate statically and the classifier only on demand", () => {
  const meta = JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")) as BuildMeta;
  const chunkOf = (source: string) =>
    Object.entries(meta.outputs).find(([, o]) => Object.keys(o.inputs).includes(source))![0];
  const seen = staticallyLoaded(meta, chunkOf("src/oneshot/run.ts"));
  const inputs = new Set([...seen].flatMap((path) => Object.keys(meta.outputs[path]?.inputs ?? {})));
  expect(inputs.has("src/agent/gate.ts")).toBe(true);
  for (const heavy of ["src/sandbox/policy.ts", "src/sandbox/classify.ts", "src/sandbox/dangerous.ts"])
    expect(inputs.has(heavy), heavy).toBe(false);
  // ...and they are there to load: the gate imports them dynamically.
  const gate = meta.outputs[chunkOf("src/agent/gate.ts")]!;
  const policyChunk = chunkOf("src/sandbox/policy.ts");
  const onDemand = gate.imports.filter((i) => i.kind === "dynamic-import");
  expect(onDemand.some((i) => staticallyLoaded(meta, i.path).has(policyChunk))).toBe(true);
});
