// One end-to-end test's world: the OpenAI-compatible mock model (mock-openai.ts), a workspace, and
// the built program's environment pointed at the mock with a home of its own (testEnv), plus the
// runs, child processes and pseudo-terminals started through it. The test that made it tears it
// all down when it ends, pass or fail: terminals and children killed, then the mock closed.
import type { ChildProcess } from "node:child_process";
import { onTestFinished } from "vitest";
import { type CliOptions, type CliResult, runCli, startCli, tempDir, testEnv } from "./cli.js";
import {
  type MockServer,
  type MockServerOptions,
  type Responder,
  type ScriptFn,
  startMockServer,
} from "./mock-openai.js";
import { PtyApp, type PtyOptions } from "./pty.js";

type Env = Record<string, string | undefined>;

export interface E2eOptions {
  /** NANOHERMES_MODEL (default: unset, the program's own default). */
  model?: string;
  /** OPENAI_API_KEY (default "sk-test"). */
  key?: string;
  /** More environment, over the rest (a NANOHERMES_HOME of the test's own included). */
  env?: Env;
  /** The mock's own options (a fixed port). */
  mock?: MockServerOptions;
}

/** What a pseudo-terminal needs beyond the test's env and workspace, which it may override. */
export type E2ePtyOptions = Omit<PtyOptions, "env" | "cwd"> & Partial<Pick<PtyOptions, "env" | "cwd">>;

export interface E2eEnv {
  mock: MockServer;
  /** A fresh folder for the program to work in (`-C`, or a terminal's cwd). */
  workspace: string;
  /** The program's environment: the mock's URL and key, the model if named, its own home. */
  env: Env;
  /** `env`'s NANOHERMES_HOME. */
  home: string;
  /** Another environment like `env` with a fresh home of its own, and `extra` over it. */
  envWith(extra?: Env): Env;
  /** The program run to its end (runCli) in `env` unless `opts.env` says otherwise. */
  run(args: string[], opts?: CliOptions): Promise<CliResult>;
  /** The program started (startCli) in `env` unless `opts.env` says otherwise; killed at the end. */
  start(args: string[], opts?: CliOptions): ChildProcess;
  /** The UI in a pseudo-terminal, in `env` and the workspace unless told otherwise; killed at the end. */
  pty(opts: E2ePtyOptions): PtyApp;
  /** Kills what still runs and closes the mock (done when the test ends; idempotent). */
  dispose(): Promise<void>;
}

/** The mock model alone, closed when the test that started it ends (for daemons given its URL). */
export async function mockModel(script: Responder[] | ScriptFn = [], opts?: MockServerOptions): Promise<MockServer> {
  const mock = await startMockServer(script, opts);
  onTestFinished(() => mock.close());
  return mock;
}

/**
 * Starts the mock with `script` (none: replies pushed later) and builds the rest. Contract: call it
 * inside a test; its teardown is registered with that test (onTestFinished).
 */
export async function e2eEnv(script: Responder[] | ScriptFn = [], opts: E2eOptions = {}): Promise<E2eEnv> {
  const mock = await startMockServer(script, opts.mock);
  const envWith = (extra: Env = {}): Env =>
    testEnv({
      OPENAI_API_KEY: opts.key ?? "sk-test",
      OPENAI_BASE_URL: mock.url,
      ...(opts.model === undefined ? {} : { NANOHERMES_MODEL: opts.model }),
      ...opts.env,
      ...extra,
    });
  const env = envWith();
  const workspace = tempDir();
  const children: ChildProcess[] = [];
  const apps: PtyApp[] = [];
  let disposed: Promise<void> | undefined;
  const dispose = () => {
    disposed ??= (async () => {
      for (const app of apps) if (app.exitCode === null) app.kill("SIGKILL");
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await mock.close();
    })();
    return disposed;
  };
  onTestFinished(dispose);
  return {
    mock,
    workspace,
    env,
    home: env.NANOHERMES_HOME!,
    envWith,
    run: (args, runOpts = {}) => runCli(args, { env, ...runOpts }),
    start(args, startOpts = {}) {
      const child = startCli(args, { env, ...startOpts });
      children.push(child);
      return child;
    },
    pty(ptyOpts) {
      const app = new PtyApp({ env, cwd: workspace, ...ptyOpts });
      apps.push(app);
      return app;
    },
    dispose,
  };
}
