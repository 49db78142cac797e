// The cron tool through the real registry and gate, on a real ledger in a temp home: listing reads,
// every change is asked about under every policy (refused with nobody to ask, nothing stored), bad
// input is refused before anyone is asked, and plan mode refuses changes.
import { existsSync } from "node:fs";
import { expect, it } from "vitest";
import type { Answer, Question } from "../../src/agent/gate.js";
import { CronStore, cronDbPath } from "../../src/cron/store.js";
import { cronTool } from "../../src/cron/tool.js";
import type { ApprovalPolicy, PermissionMode } from "../../src/protocol/events.js";
import { tempDir } from "../helpers/cli.js";
import { testGate } from "../helpers/gate.js";
import { callTool } from "../helpers/tools.js";

interface Setup {
  approval?: ApprovalPolicy;
  mode?: PermissionMode;
  allow?: string[];
  yolo?: boolean;
  answer?: Answer;
}

function setup() {
  const home = tempDir("nh-home-");
  const workspace = tempDir("nh-ws-");
  const tool = cronTool({ home });
  const asked: Question[] = [];
  const call = (args: object, opts: Setup = {}) =>
    callTool(tool, args, workspace, undefined, {
      gate: testGate({
        workspace,
        approval: opts.approval ?? "never",
        mode: opts.mode ?? "default",
        allow: opts.allow ?? [],
        yolo: opts.yolo ?? false,
        ...(opts.answer ? { answer: (q) => (asked.push(q), opts.answer!) } : {}),
      }),
    });
  const jobs = async () => {
    const store = await CronStore.open(cronDbPath(home));
    try {
      return store.jobs();
    } finally {
      store.close();
    }
  };
  return { home, workspace, call, asked, jobs };
}

const create = (extra: object = {}) => ({
  action: "create",
  name: "nightly",
  schedule: "0 3 * * *",
  prompt: "run the tests",
  tz: "UTC",
  ...extra,
});

it("asks before creating a job even under the never policy, and stores it once approved", async () => {
  const t = setup();
  const done = await t.call(create(), { answer: { decision: "once" } });
  expect(done.status).toBe("ok");
  expect(t.asked).toHaveLength(1);
  expect(t.asked[0]!.title).toBe("cron create nightly 0 3 * * *");
  expect(t.asked[0]!.reason).toMatch(/asked about under every policy/);
  // Consent to scheduled work is never kept for the workspace.
  expect(t.asked[0]!.alwaysWorkspace).toBe(false);
  expect(t.asked[0]!.always).toBe("the tool cron");
  expect(done.forModel).toMatch(/^created nightly {2}0 3 \* \* \* \[UTC\]/);
  const [job] = await t.jobs();
  expect(job).toMatchObject({ name: "nightly", workspace: t.workspace, approval: "never", missed: "once" });
});

it("with nobody to ask, a create is refused with the flag that allows it, and nothing is stored", async () => {
  const t = setup();
  const refused = await t.call(create());
  expect(refused.status).toBe("denied");
  expect(refused.forModel).toMatch(/nobody can answer here.*--allow tool:cron or --yolo/);
  // Not even the ledger's file: the check before the question and a listing only read.
  expect((await t.call({ action: "list" })).forModel).toBe("no cron jobs");
  expect(existsSync(cronDbPath(t.home))).toBe(false);
  expect(await t.jobs()).toEqual([]);
  // --allow tool:cron is that consent given up front.
  expect((await t.call(create(), { allow: ["tool:cron"] })).status).toBe("ok");
  expect((await t.jobs()).map((j) => j.name)).toEqual(["nightly"]);
});

it("a denied create stores nothing; list reads without asking under every policy", async () => {
  const t = setup();
  const denied = await t.call(create(), { answer: { decision: "deny", reason: "not now" } });
  expect(denied.status).toBe("denied");
  expect(await t.jobs()).toEqual([]);
  const listed = await t.call({ action: "list" }, { approval: "untrusted", answer: { decision: "deny", reason: "x" } });
  expect(listed.status).toBe("ok");
  expect(listed.forModel).toBe("no cron jobs");
  expect(t.asked).toHaveLength(1);
});

it("refuses bad input before anyone is asked, with nothing stored", async () => {
  const t = setup();
  expect((await t.call(create(), { allow: ["tool:cron"] })).status).toBe("ok");
  for (const [args, message] of [
    [create({ name: "other", schedule: "every day" }), /fields|valid cron/],
    [create({ name: "other", schedule: "61 * * * *" }), /not a valid cron expression/],
    [create({ name: "other", tz: "Mars/Base" }), /unknown time zone "Mars\/Base"/],
    [create(), /a job named "nightly" exists already/],
    [create({ name: "other", workspace: "gone" }), /the workspace .*gone does not exist/],
    [create({ name: "Bad Name" }), /invalid job name/],
    [{ action: "create", name: "other", schedule: "0 * * * *" }, /--prompt is required/],
    [{ action: "pause" }, /needs the job's name/],
    [{ action: "remove", name: "nope" }, /no cron job named "nope"/],
    [{ action: "update", name: "nightly" }, /nothing to change/],
    [{ action: "update", name: "nightly", tz: "Nowhere/City" }, /unknown time zone/],
    [{ action: "create", name: "other", schedule: "0 * * * *", prompt: "p", missed: "sometimes" }, /missed/],
  ] as const) {
    const result = await t.call(args, { answer: { decision: "once" } });
    expect(result.status, JSON.stringify(args)).toBe("error");
    expect(result.forModel, JSON.stringify(args)).toMatch(message);
  }
  expect(t.asked).toHaveLength(0);
  const jobs = await t.jobs();
  expect(jobs.map((j) => [j.name, j.schedule, j.tz])).toEqual([["nightly", "0 3 * * *", "UTC"]]);
});

it("updates, pauses, resumes and removes through the gate, and run without a daemon says how to start one", async () => {
  const t = setup();
  const yes = { answer: { decision: "once" } as Answer };
  expect((await t.call(create(), yes)).status).toBe("ok");
  const updated = await t.call({ action: "update", name: "nightly", schedule: "*/5 * * * *", missed: "skip" }, yes);
  expect(updated.forModel).toMatch(/^updated nightly {2}\*\/5 \* \* \* \* \[UTC\] {2}missed:skip/);
  expect((await t.call({ action: "pause", name: "nightly" }, yes)).forModel).toMatch(/paused \(paused through/);
  expect((await t.jobs())[0]!.enabled).toBe(false);
  expect((await t.call({ action: "resume", name: "nightly" }, yes)).status).toBe("ok");
  expect((await t.jobs())[0]!.enabled).toBe(true);
  const run = await t.call({ action: "run", name: "nightly" }, yes);
  expect(run.status).toBe("error");
  expect(run.forModel).toMatch(/no daemon is running .*nanohermes --daemon/);
  expect((await t.call({ action: "remove", name: "nightly" }, yes)).forModel).toBe("removed nightly and its runs");
  expect(await t.jobs()).toEqual([]);
  // Asked once per change; the failed run was refused before asking.
  expect(t.asked.map((q) => q.title.split(" ")[1])).toEqual(["create", "update", "pause", "resume", "remove"]);
});

it("plan mode refuses a change but lists; --yolo lets a change through unasked", async () => {
  const t = setup();
  const planned = await t.call(create(), { mode: "plan", answer: { decision: "once" } });
  expect(planned.status).toBe("denied");
  expect(planned.forModel).toMatch(/plan mode is read-only/);
  expect((await t.call({ action: "list" }, { mode: "plan" })).status).toBe("ok");
  expect(await t.jobs()).toEqual([]);
  expect((await t.call(create(), { yolo: true })).status).toBe("ok");
  expect((await t.jobs()).map((j) => j.name)).toEqual(["nightly"]);
  expect(t.asked).toHaveLength(0);
});
