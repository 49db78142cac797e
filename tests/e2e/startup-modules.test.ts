// What a one-shot turn through the openai SDK makes Node load: none of the built-ins a model
// request does not need (issue 19's start-up budget). Node's web streams come with the first touch
// of `globalThis.ReadableStream` and its fetch (undici) with `fetch`, `FormData` or `Headers`;
// the bundle's diffs (patches/openai@6.49.0/) keep the SDK's client from touching them. Web
// Crypto and the report module come with an ESM import of node:crypto or node:process, which the
// bundle replaces (scripts/builtin-facades.mjs).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";

it("a streamed one-shot turn with a tool call loads no web streams, undici, Web Crypto or report module, and builds no collator", async () => {
  // Node's own list of the built-in modules it loaded, written as the program exits.
  const dir = tempDir();
  const preload = join(dir, "module-list.mjs");
  const list = join(dir, "modules.txt");
  writeFileSync(
    preload,
    [
      `import { writeFileSync } from "node:fs";`,
      // Collations counted: the first builds ICU's collator (~10 ms), which ordering timestamps never needs.
      `let collations = 0;`,
      `const compare = String.prototype.localeCompare;`,
      `String.prototype.localeCompare = function (...a) { collations++; return compare.apply(this, a); };`,
      `const Collator = Intl.Collator;`,
      `Intl.Collator = function (...a) { collations++; return new Collator(...a); };`,
      `process.on("exit", () => writeFileSync(${JSON.stringify(list)}, [...process.moduleLoadList, \`collations \${collations}\`].join("\\n")));`,
    ].join("\n"),
  );
  const {
    workspace: ws,
    home,
    run,
  } = await e2eEnv([toolReply([{ name: "read_file", args: { path: "notes.txt" } }]), textReply("One line.")], {
    model: "mock-model",
    env: { NODE_OPTIONS: `--import ${preload}` },
  });
  writeFileSync(join(ws, "notes.txt"), "alpha\n");
  // Earlier tasks in the index, which the run orders by time when it adds its own.
  const earlier = (id: string, updatedAt: string) => ({
    id,
    sessionFile: join(home, `${id}.json`),
    title: id,
    pinned: false,
    workspace: ws,
    updatedAt,
  });
  writeFileSync(
    join(home, "tasks.json"),
    JSON.stringify([earlier("a", "2026-11-30T10:00:00.000Z"), earlier("b", "2026-12-01T10:00:00.000Z")]),
  );
  const r = await run(["-p", "what is in notes.txt?", "-C", ws]);
  expect(r.stderr).toBe("");
  expect(r.stdout).toBe("One line.\n");
  const loaded = readFileSync(list, "utf8").split("\n");
  // The list is real: the request itself went through node:http.
  expect(loaded).toContain("NativeModule _http_client");
  // (webstreams/util and queuingstrategies come with Node's start itself.)
  const unneeded = /webstreams\/(readable|writable|transform)stream|undici|crypto\/webcrypto|process\/report/;
  expect(loaded.filter((m) => unneeded.test(m))).toEqual([]);
  // Nothing on the way orders text by locale (the task index sorts ISO times).
  expect(loaded.at(-1)).toBe("collations 0");
  const index = JSON.parse(readFileSync(join(home, "tasks.json"), "utf8")) as { title: string }[];
  expect(index.map((e) => e.title)).toEqual(["what is in notes.txt?", "b", "a"]);
});
