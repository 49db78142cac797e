// Start-up weight of dist/: the openai SDK (the model wire) is a chunk loaded on the first model
// request, never by cli.js's static imports, so `--help` and the first UI frame do not pay for it.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { staticallyLoaded } from "../helpers/build-meta.js";

const dist = resolve(import.meta.dirname, "../../dist");

type Meta = { outputs: Record<string, { inputs: Record<string, unknown>; imports: { path: string; kind: string }[] }> };

it("puts the openai SDK in chunks the entry reaches only by dynamic import", () => {
  const meta = JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")) as Meta;
  const sdk = Object.entries(meta.outputs)
    .filter(([, o]) => Object.keys(o.inputs).some((i) => i.includes("node_modules/openai/")))
    .map(([path]) => path);
  expect(sdk.length).toBeGreaterThan(0);
  const seen = staticallyLoaded(meta, "dist/cli.js");
  expect(sdk.filter((chunk) => seen.has(chunk))).toEqual([]);
});

it("loads the Anthropic Messages and Responses clients only in their modes (by dynamic import)", () => {
  const meta = JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")) as Meta;
  // What a chat-completions run loads before its first request: the entry, the one-shot path and the chat client.
  const seen = staticallyLoaded(meta, "dist/cli.js");
  for (const [path, o] of Object.entries(meta.outputs))
    if (Object.keys(o.inputs).some((i) => i.endsWith("src/agent/providers/openai-chat.ts")))
      staticallyLoaded(meta, path, seen);
  const inputs = [...seen].flatMap((path) => Object.keys(meta.outputs[path]?.inputs ?? {}));
  expect(inputs.some((i) => i.endsWith("src/agent/providers/openai-chat.ts"))).toBe(true);
  for (const other of ["anthropic.ts", "anthropic-reply.ts", "openai-responses.ts", "responses-reply.ts"])
    expect(
      inputs.some((i) => i.endsWith(`src/agent/providers/${other}`)),
      other,
    ).toBe(false);
});

it("gives the SDK our Headers, so a model request never touches the global one (which loads undici)", () => {
  const meta = JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")) as Meta;
  const chunks = Object.entries(meta.outputs).filter(
    ([path, o]) => path.endsWith(".js") && Object.keys(o.inputs).some((i) => i.includes("node_modules/openai/")),
  );
  const text = chunks.map(([path]) => readFileSync(resolve(dist, "..", path), "utf8")).join("\n");
  expect(text).not.toMatch(/new Headers\b|instanceof Headers\b|globalThis\.Headers/);
  // FormData is undici's too: the client module's body check tests a local class (renamed by the minifier).
  expect(text).not.toMatch(/instanceof FormData\b/);
  // The minified chunk still builds headers, with the class it was given (bundled beside node-fetch.ts).
  expect(
    Object.values(meta.outputs).some((o) =>
      Object.keys(o.inputs).some((i) => i.endsWith("src/agent/providers/sdk-headers.ts")),
    ),
  ).toBe(true);
});

it("bundles the SDK resources NanoHermes calls and stand-ins for the rest (scripts/openai-slim.mjs)", () => {
  const meta = JSON.parse(readFileSync(join(dist, "meta.json"), "utf8")) as Meta;
  const inputs = Object.values(meta.outputs).flatMap((o) => Object.keys(o.inputs));
  const real = (resource: string) =>
    inputs.some((i) => !i.startsWith("openai-unused:") && i.endsWith(`node_modules/openai/resources/${resource}.mjs`));
  const standIn = (resource: string) =>
    inputs.some((i) => i.startsWith("openai-unused:") && i.endsWith(`node_modules/openai/resources/${resource}.mjs`));
  for (const used of ["chat/completions/completions", "responses/responses", "models"]) {
    expect(real(used), used).toBe(true);
    expect(standIn(used), used).toBe(false);
  }
  for (const unused of ["admin/admin", "beta/beta", "vector-stores/vector-stores", "webhooks/webhooks"]) {
    expect(real(unused), unused).toBe(false);
    expect(standIn(unused), unused).toBe(true);
  }
  // Nothing the stand-ins replaced is reached some other way (the Assistants stream came with beta).
  expect(inputs.some((i) => i.includes("node_modules/openai/lib/AssistantStream"))).toBe(false);
  // The helpers for .stream() and .runTools() and the Azure and Bedrock clients are stand-ins too,
  // and what only they imported (the runners' base, the partial-JSON parser) is gone with them.
  const helper = (path: string, standInOnly: boolean) =>
    inputs.some((i) => i.startsWith("openai-unused:") === standInOnly && i.endsWith(`node_modules/openai/${path}.mjs`));
  for (const path of ["lib/ChatCompletionStream", "lib/responses/ResponseStream", "azure", "bedrock"]) {
    expect(helper(path, true), path).toBe(true);
    expect(helper(path, false), path).toBe(false);
  }
  expect(inputs.some((i) => i.includes("node_modules/openai/lib/AbstractChatCompletionRunner"))).toBe(false);
  expect(inputs.some((i) => i.includes("node_modules/openai/_vendor/partial-json-parser"))).toBe(false);
});
