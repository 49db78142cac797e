// Free when off (issue 32, item 5): with telemetry off, a one-shot turn and a UI start load no
// @opentelemetry module. The program's loader reports every script it ran
// (tests/helpers/loaded-sources.ts), mapped to the sources bundled in them with dist/meta.json. With telemetry on, the same list shows the OpenTelemetry
// chunk, so the list is known to see it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { loadedSources, loadReport } from "../helpers/loaded-sources.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";

const isOtel = (source: string) =>
  source.includes("node_modules/@opentelemetry/") ||
  source === "src/telemetry/otel.ts" ||
  source === "src/telemetry/spans.ts";

it("a one-shot turn with a tool call loads no OpenTelemetry module when telemetry is off, and its chunk when on", async () => {
  const ws = tempDir();
  writeFileSync(join(ws, "notes.txt"), "alpha\n");
  for (const on of [false, true]) {
    const log = loadReport();
    const { run, dispose } = await e2eEnv(
      [toolReply([{ name: "read_file", args: { path: "notes.txt" } }]), textReply("One line.")],
      {
        model: "mock-model",
        env: {
          ...log.env,
          ...(on ? { NANOHERMES_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" } : {}),
        },
      },
    );
    const r = await run(["-p", "what is in notes.txt?", "-C", ws]);
    expect(r.stdout).toBe("One line.\n");
    const { sources } = loadedSources(log.file);
    // The list is real: the one-shot path and the gate were loaded through it.
    expect(sources).toContain("src/oneshot/run.ts");
    expect(sources).toContain("src/tools/registry.ts");
    expect(sources.filter(isOtel).length > 0, `telemetry ${on ? "on" : "off"}`).toBe(on);
    await dispose();
  }
});

it("the UI's first frame and a turn load no OpenTelemetry module with telemetry off", async () => {
  const log = loadReport();
  const { pty } = await e2eEnv(() => textReply("Hello from the model."), { model: "mock-model", env: log.env });
  const app = pty({ cols: 100, rows: 30 });
  await app.waitFor("Ask anything", 20_000);
  app.type("hi\r");
  // The reply shows while the turn is still saving; Ctrl-D then asks whether to quit a running
  // task. The task's bar saying done is the turn's end.
  await app.waitFor((s) => s.includes("Hello from the model.") && s.includes("· done ·"), 20_000);
  // The report is written as the program exits: Ctrl-D on an empty input with nothing running.
  app.type("\x04");
  await app.exit();
  const { sources } = loadedSources(log.file);
  expect(sources.some((s) => s.startsWith("src/ui/"))).toBe(true);
  expect(sources.filter(isOtel)).toEqual([]);
});
