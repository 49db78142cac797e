// Free when off (issue 32, item 5): with telemetry off, a one-shot turn and a UI start load no
// @opentelemetry module. Node's module loader reports every module it loads (a `load` hook
// registered before the program starts); the built files it loaded are mapped to the sources
// bundled in them with dist/meta.json. With telemetry on, the same list shows the OpenTelemetry
// chunk, so the list is known to see it.
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import type { BuildMeta } from "../helpers/build-meta.js";
import { runCli, tempDir, testEnv } from "../helpers/cli.js";
import { startMockServer, textReply, toolReply, type MockServer } from "../helpers/mock-openai.js";
import { PtyApp } from "../helpers/pty.js";

let server: MockServer | undefined;
let app: PtyApp | undefined;
afterEach(async () => {
  if (app && app.exitCode === null) app.kill("SIGKILL");
  await server?.close();
  server = undefined;
  app = undefined;
});

const root = resolve(import.meta.dirname, "../..");

/** NODE_OPTIONS that make Node append the URL of every module it loads to the returned file. */
function moduleLog(): { list: string; nodeOptions: string } {
  const dir = tempDir();
  const list = join(dir, "modules.txt");
  writeFileSync(list, "");
  writeFileSync(
    join(dir, "hooks.mjs"),
    [
      `import { appendFileSync } from "node:fs";`,
      `let file;`,
      `export function initialize(data) { file = data.file; }`,
      `export async function load(url, context, next) { appendFileSync(file, url + "\\n"); return next(url, context); }`,
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "preload.mjs"),
    `import { register } from "node:module";\nregister("./hooks.mjs", import.meta.url, { data: { file: ${JSON.stringify(list)} } });\n`,
  );
  return { list, nodeOptions: `--import ${join(dir, "preload.mjs")}` };
}

/** The sources bundled in the built files the program loaded. */
function loadedSources(list: string): string[] {
  const meta = JSON.parse(readFileSync(join(root, "dist/meta.json"), "utf8")) as BuildMeta;
  const files = readFileSync(list, "utf8")
    .split("\n")
    .filter((url) => url.startsWith("file:"))
    .map((url) => fileURLToPath(url).slice(root.length + 1));
  return files.flatMap((file) => Object.keys(meta.outputs[file]?.inputs ?? {}));
}

const isOtel = (source: string) =>
  source.includes("node_modules/@opentelemetry/") ||
  source === "src/telemetry/otel.ts" ||
  source === "src/telemetry/spans.ts";

function oneShotEnv(extra: Record<string, string>) {
  return testEnv({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: server!.url, NANOHERMES_MODEL: "mock-model", ...extra });
}

it("a one-shot turn with a tool call loads no OpenTelemetry module when telemetry is off, and its chunk when on", async () => {
  const ws = tempDir();
  writeFileSync(join(ws, "notes.txt"), "alpha\n");
  for (const on of [false, true]) {
    server = await startMockServer([
      toolReply([{ name: "read_file", args: { path: "notes.txt" } }]),
      textReply("One line."),
    ]);
    const log = moduleLog();
    const r = await runCli(["-p", "what is in notes.txt?", "-C", ws], {
      env: oneShotEnv({
        NODE_OPTIONS: log.nodeOptions,
        ...(on ? { NANOHERMES_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" } : {}),
      }),
    });
    expect(r.stdout).toBe("One line.\n");
    const sources = loadedSources(log.list);
    // The list is real: the one-shot path and the gate were loaded through it.
    expect(sources).toContain("src/oneshot/run.ts");
    expect(sources).toContain("src/tools/registry.ts");
    expect(sources.filter(isOtel).length > 0, `telemetry ${on ? "on" : "off"}`).toBe(on);
    await server.close();
    server = undefined;
  }
});

it("the UI's first frame and a turn load no OpenTelemetry module with telemetry off", async () => {
  server = await startMockServer(() => textReply("Hello from the model."));
  const log = moduleLog();
  app = new PtyApp({
    cols: 100,
    rows: 30,
    cwd: tempDir(),
    env: oneShotEnv({ NODE_OPTIONS: log.nodeOptions }),
  });
  await app.waitFor("Ask anything", 20_000);
  app.type("hi\r");
  await app.waitFor("Hello from the model.", 20_000);
  const sources = loadedSources(log.list);
  expect(sources.some((s) => s.startsWith("src/ui/"))).toBe(true);
  expect(sources.filter(isOtel)).toEqual([]);
});
