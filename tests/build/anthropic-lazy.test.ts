// Start-up weight: the Anthropic SDK (~400 KB bundled) loads on the first Anthropic request only,
// never with the entry's static imports, so --help and every other mode start without it.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";

const dist = resolve(import.meta.dirname, "../../dist");
type Meta = {
  outputs: Record<
    string,
    { inputs: Record<string, unknown>; imports: { path: string; kind: string; external?: boolean }[] }
  >;
};
const meta = () => JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")) as Meta;
const hasSdk = (inputs: Record<string, unknown>) =>
  Object.keys(inputs).some((i) => i.includes("node_modules/@anthropic-ai/sdk/"));

it("keeps the Anthropic SDK out of everything cli.js loads before main() runs", () => {
  const m = meta();
  const withSdk = Object.entries(m.outputs).filter(([, o]) => hasSdk(o.inputs));
  expect(withSdk.length).toBeGreaterThan(0);
  const seen = new Set<string>();
  const stack = ["dist/cli.js"];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const i of m.outputs[file]?.imports ?? [])
      if (i.kind === "import-statement" && !i.external) stack.push(i.path);
  }
  expect([...seen].filter((f) => hasSdk(m.outputs[f]!.inputs))).toEqual([]);
  // It is reached by a dynamic import only.
  const dynamic = Object.values(m.outputs).flatMap((o) =>
    o.imports.filter((i) => i.kind === "dynamic-import").map((i) => i.path),
  );
  expect(withSdk.some(([path]) => dynamic.includes(path))).toBe(true);
});
