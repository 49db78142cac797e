// The e2e fixture's own contract (tests/helpers/e2e-env.ts): the environment points the program at
// the mock with a home of its own, and what a test started through it is gone once the test ends:
// the second test looks at what the first one left running.
import { existsSync } from "node:fs";
import { request } from "node:http";
import { expect, it } from "vitest";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";
import { alive } from "../helpers/proc.js";
import { waitFor } from "../helpers/wait.js";

const left: { url?: string; child?: number; pty?: number } = {};

/** Whether anything still answers at the mock's address. */
const answers = (url: string) =>
  new Promise<boolean>((resolve) => {
    const req = request(`${url}/models`, (res) => {
      res.resume();
      resolve(true);
    });
    req.on("error", () => resolve(false));
    req.end();
  });

it("runs the program against the mock in a home of its own, and starts what the next test checks is gone", async () => {
  const { mock, env, home, workspace, run, envWith, start, pty } = await e2eEnv(
    [textReply("from the mock"), { status: 200, delayMs: 120_000, raw: "" }],
    { model: "m" },
  );
  expect(env).toMatchObject({ OPENAI_BASE_URL: mock.url, OPENAI_API_KEY: "sk-test", NANOHERMES_MODEL: "m" });
  expect(existsSync(home) && existsSync(workspace)).toBe(true);
  expect(envWith().NANOHERMES_HOME).not.toBe(home);
  const r = await run(["-p", "hi", "-C", workspace]);
  expect(r).toMatchObject({ code: 0, stdout: "from the mock\n" });
  expect(mock.requests[0]!.model).toBe("m");
  // A run whose model never answers, and a UI: both still running as this test ends.
  const child = start(["-p", "wait", "-C", workspace]);
  await waitFor(() => mock.requests.length === 2, { what: "the hanging request" });
  const app = pty({ cols: 80, rows: 24 });
  await app.waitFor("Ask anything");
  Object.assign(left, { url: mock.url, child: child.pid, pty: app.pty.pid });
});

it("after the test: the mock is closed, the run and the UI are killed", async () => {
  expect(left.url && left.child && left.pty).toBeTruthy();
  expect(await answers(left.url!)).toBe(false);
  await waitFor(() => !alive(left.child!) && !alive(left.pty!), { what: "the run and the UI killed" });
});
