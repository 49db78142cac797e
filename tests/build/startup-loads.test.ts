// What a one-shot turn and a UI start actually run (the loader's own list of scripts, mapped to
// the sources in them through dist/meta.json), held to the list in startup-loads.json: a source
// file or package that joins either fails here, named, until the list is updated on purpose
// (`NANOHERMES_UPDATE_STARTUP_LOADS=1 npx vitest run tests/build/startup-loads.test.ts`), and so
// does a total that grows by more than 5%. Issue 35: nothing loads before it is needed.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply, toolReply } from "../helpers/mock-openai.js";
import { loadedSources } from "../helpers/loaded-sources.js";
import { uiStartReport } from "../helpers/ui-start.js";

const root = resolve(import.meta.dirname, "../..");
const listFile = join(import.meta.dirname, "startup-loads.json");

interface Loads {
  sources: string[];
  bytes: number;
}

/** A source's name as the list keeps it: a package by its name, our own files by path. */
const sourceName = (input: string) => {
  const inModules = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  return inModules ? `npm:${inModules[1]}` : input;
};

/** The sources a finished run's report names, packages by name. */
function loadsOf(report: string): Loads {
  const { sources, bytes } = loadedSources(report);
  return { sources: [...new Set(sources.map(sourceName))].sort(), bytes };
}

function check(name: string, now: Loads): void {
  const all = existsSync(listFile) ? (JSON.parse(readFileSync(listFile, "utf8")) as Record<string, Loads>) : {};
  if (process.env.NANOHERMES_UPDATE_STARTUP_LOADS === "1" || all[name] === undefined) {
    all[name] = now;
    writeFileSync(listFile, `${JSON.stringify(all, null, 2)}\n`);
    if (process.env.NANOHERMES_UPDATE_STARTUP_LOADS !== "1") throw new Error(`${name}: no recorded list; wrote one`);
    return;
  }
  const recorded = all[name];
  const joined = now.sources.filter((s) => !recorded.sources.includes(s));
  expect(joined, `${name} now also loads these (update startup-loads.json if that is intended)`).toEqual([]);
  expect(now.bytes, `${name}: bytes of code run`).toBeLessThanOrEqual(Math.ceil(recorded.bytes * 1.05));
}

it("a one-shot turn with a tool call runs no source beyond its recorded list", async () => {
  const report = join(tempDir(), "report.json");
  const { workspace: ws, env } = await e2eEnv(
    [toolReply([{ name: "read_file", args: { path: "notes.txt" } }]), textReply("One line.")],
    { model: "mock-model", env: { NANOHERMES_CODE_CACHE_REPORT: report } },
  );
  writeFileSync(join(ws, "notes.txt"), "alpha\n");
  const child = spawn(process.execPath, [join(root, "dist/cli.js"), "-p", "what is in notes.txt?"], {
    cwd: ws,
    env: env as NodeJS.ProcessEnv,
    stdio: "ignore",
  });
  expect(await new Promise((done) => child.on("close", done))).toBe(0);
  const loads = loadsOf(report);
  // The list is real: the engine, the tool and the model wire are in it.
  expect(loads.sources).toEqual(expect.arrayContaining(["src/agent/agent.ts", "src/tools/read-file.ts", "npm:openai"]));
  // Features not in use stay out.
  for (const absent of [
    "npm:ink",
    "npm:react",
    "npm:@modelcontextprotocol/sdk",
    "npm:@agentclientprotocol/sdk",
    "npm:croner",
    // The cron tool is offered by its definition alone (src/cron/tool.ts); the ledger loads with its first call.
    "src/cron/tool-run.ts",
    "src/cron/store.ts",
    "src/cron/schedule.ts",
    // Tools load on first use and the Landlock front end with the first command (issue 35).
    "src/sandbox/landlock.ts",
    "src/tools/run-command.ts",
    "src/tools/apply-patch.ts",
    "src/tools/patch-apply.ts",
    "src/tools/web-http.ts",
    "src/tools/grep.ts",
    "src/tools/git.ts",
    "npm:picomatch",
  ])
    expect(loads.sources).not.toContain(absent);
  check("one-shot turn", loads);
});

it("starting the UI and quitting runs no source beyond its recorded list", async () => {
  const loads = loadsOf(await uiStartReport());
  expect(loads.sources).toEqual(expect.arrayContaining(["npm:ink", "npm:react"]));
  for (const absent of [
    "npm:openai",
    "npm:@modelcontextprotocol/sdk",
    "npm:@agentclientprotocol/sdk",
    "npm:croner",
    "src/cron/tool-run.ts",
    "src/cron/store.ts",
    // No tool runs: no implementation loads, nor the git reader of /diff (issue 35).
    "src/tools/read-file.ts",
    "src/tools/run-command.ts",
    "src/tools/git.ts",
    "src/tools/web-http.ts",
    "src/agent/worktree-diff.ts",
    // Nothing asks for approval and no "always" rule is saved: the gate's command classifier stays
    // out (a task judged saved rules with it when it was added).
    "src/sandbox/policy.ts",
    "src/sandbox/dangerous.ts",
    "src/sandbox/classify.ts",
  ])
    expect(loads.sources).not.toContain(absent);
  check("UI start and quit", loads);
});

it("the UI's first frame runs no source beyond its recorded list, and not the engine", async () => {
  // The run stops as the first frame with the input prompt is written: what ran until then.
  const dir = tempDir();
  const stop = join(dir, "stop-at-first-frame.cjs");
  writeFileSync(
    stop,
    `const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const done = write(chunk, ...rest);
  if (typeof chunk === "string" && chunk.includes("Ask anything")) process.exit(0);
  return done;
};
`,
  );
  const loads = loadsOf(await uiStartReport({ env: { NODE_OPTIONS: `--require ${stop}` }, quit: false }));
  expect(loads.sources).toEqual(expect.arrayContaining(["src/ui/app/text-frame.ts", "src/agent/tasks.ts"]));
  for (const absent of [
    // The engine loads just after the first frame (TaskManager.warm), Ink with the second.
    "src/agent/engine.ts",
    "src/agent/agent.ts",
    "src/tools/registry.ts",
    "src/tools/specs/git.ts",
    "src/agent/providers/openai-chat.ts",
    "npm:ink",
    "npm:react",
    "src/sandbox/policy.ts",
  ])
    expect(loads.sources).not.toContain(absent);
  check("UI first frame", loads);
});
