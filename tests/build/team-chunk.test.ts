// Start-up weight of team daemons (issue 34): the PostgreSQL driver and the team code load only
// when a database URL is given; cli.js, a one-shot turn and the embedded daemon never load them.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { staticallyLoaded, type BuildMeta } from "../helpers/build-meta.js";

const dist = resolve(import.meta.dirname, "../../dist");

it("cli.js, the one-shot path and the embedded daemon load no pg module and no team code", () => {
  const meta = JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")) as BuildMeta;
  const chunkOf = (source: string) =>
    Object.entries(meta.outputs).find(([, o]) => Object.keys(o.inputs).some((i) => i.endsWith(source)))![0];
  const inputsOf = (from: string) =>
    new Set([...staticallyLoaded(meta, from)].flatMap((path) => Object.keys(meta.outputs[path]?.inputs ?? {})));
  const isTeam = (input: string) => /node_modules\/pg(-[a-z-]+)?\//.test(input) || input.startsWith("src/daemon/team");
  for (const entry of ["src/cli.ts", "src/oneshot/run.ts", "src/daemon/run.ts"]) {
    expect([...inputsOf(chunkOf(entry))].filter(isTeam), entry).toEqual([]);
  }
  // ...and they are in the bundle: the daemon reaches the driver through dynamic imports.
  const daemon = chunkOf("src/daemon/run.ts");
  const reachable = new Set<string>();
  const walk = (from: string) => {
    if (reachable.has(from)) return;
    reachable.add(from);
    for (const imp of meta.outputs[from]?.imports ?? []) walk(imp.path);
  };
  walk(daemon);
  const inputs = [...reachable].flatMap((path) => Object.keys(meta.outputs[path]?.inputs ?? {}));
  expect(inputs.some((i) => i.includes("node_modules/pg/lib/client.js"))).toBe(true);
  expect(inputs).toContain("src/daemon/team/pg-turns.ts");
});
