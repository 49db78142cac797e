// The openai SDK's client module imports every API resource it offers, so the bundled SDK was
// ~155 KB that each one-shot turn compiles before its first request (issue 19's start-up budget).
// NanoHermes calls `chat.completions` and `responses` only (and `models`); the resources below are
// bundled as empty classes of the same names, which keeps the client's shape (`client.beta` exists,
// it just has no methods) and drops ~60 KB of code. tests/build/openai-chunk.test.ts checks which
// resources are in the bundle; the SDK-backed e2e tests (model-wires, providers) check the wire.
import { readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

/** Resource modules (under openai/resources/, without .mjs) that nothing in src/ calls. */
export const UNUSED_OPENAI_RESOURCES = [
  "admin/admin",
  "audio/audio",
  "batches",
  "beta/beta",
  "completions",
  "containers/containers",
  "conversations/conversations",
  "embeddings",
  "evals/evals",
  "files",
  "fine-tuning/fine-tuning",
  "graders/graders",
  "images",
  "moderations",
  "realtime/realtime",
  "skills/skills",
  "uploads/uploads",
  "vector-stores/vector-stores",
  "videos",
  "webhooks/webhooks",
];

/**
 * The SDK's helpers for `.stream()`, `.runTools()` and the Azure and Bedrock clients, which the
 * resources NanoHermes calls import but NanoHermes never uses (it streams through `create` and
 * speaks to Azure with the base URL and api-version): modules under openai/, without .mjs (~40 KB).
 */
export const UNUSED_OPENAI_HELPERS = [
  "lib/ChatCompletionRunner",
  "lib/ChatCompletionStreamingRunner",
  "lib/ChatCompletionStream",
  "lib/responses/ResponseStream",
  "azure",
  "bedrock",
];

/** An esbuild plugin; `applied` counts the stand-ins built, for the build's own check. */
export function openaiSlim() {
  const applied = { stubs: 0 };
  const unused = new Set([...UNUSED_OPENAI_RESOURCES.map((r) => `resources/${r}`), ...UNUSED_OPENAI_HELPERS]);
  const plugin = {
    name: "nanohermes-openai-slim",
    setup(b) {
      b.onResolve({ filter: /\.mjs$/ }, (args) => {
        const at = args.importer.lastIndexOf(`${sep}node_modules${sep}openai${sep}`);
        if (at < 0 || !args.path.startsWith(".")) return undefined;
        const sdk = join(args.importer.slice(0, at), "node_modules", "openai");
        const path = join(dirname(args.importer), args.path);
        const name = relative(sdk, path)
          .split(sep)
          .join("/")
          .replace(/\.mjs$/, "");
        return unused.has(name) ? { path, namespace: "openai-unused" } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: "openai-unused" }, (args) => {
        // The same exported class names as the real module, so every import of it still binds.
        const names = [...readFileSync(args.path, "utf8").matchAll(/^export class (\w+)/gm)].map((m) => m[1]);
        if (names.length === 0) throw new Error(`openai-slim: no exported class in ${args.path}`);
        applied.stubs++;
        const classes = names.map((n) => `export class ${n} { constructor(client) { this._client = client; } }`);
        return {
          contents: `// Not called by NanoHermes (scripts/openai-slim.mjs).\n${classes.join("\n")}\n`,
          loader: "js",
        };
      });
    },
  };
  return { plugin, applied };
}
