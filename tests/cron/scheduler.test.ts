import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { addJob } from "../../src/cron/jobs.js";
import { CronScheduler, type RunResult } from "../../src/cron/scheduler.js";
import { CronStore } from "../../src/cron/store.js";
import { tempDir } from "../helpers/cli.js";
import { waitFor } from "../helpers/wait.js";

const open: CronStore[] = [];
afterEach(() => {
  for (const store of open.splice(0)) store.close();
});

async function fresh(): Promise<{ store: CronStore; dir: string; file: string }> {
  const dir = tempDir("nh-cron-");
  const file = join(dir, "cron.db");
  const store = await CronStore.open(file);
  open.push(store);
  return { store, dir, file };
}

const ok = async (): Promise<RunResult & { session: string }> => ({
  status: "completed",
  response: "done",
  error: null,
  refused: [],
  session: "s",
});

it("refuses bad input with nothing stored", async () => {
  const { store, dir } = await fresh();
  const base = { name: "a", schedule: "* * * * *", prompt: "p", workspace: dir, tz: "UTC" };
  addJob(store, base);
  expect(() => addJob(store, base)).toThrow(/exists already/);
  expect(() => addJob(store, { ...base, name: "b", schedule: "nope nope" })).toThrow(/fields|valid/);
  expect(() => addJob(store, { ...base, name: "c", tz: "Nowhere/Zone" })).toThrow(/unknown time zone/);
  expect(() => addJob(store, { ...base, name: "d", workspace: join(dir, "missing") })).toThrow(/does not exist/);
  expect(() => addJob(store, { ...base, name: "Bad Name" })).toThrow(/invalid job name/);
  expect(store.jobs().map((j) => j.name)).toEqual(["a"]);
});

it("claims an instant once: a second claim and a claim while running are refused", async () => {
  const { store, dir } = await fresh();
  addJob(store, { name: "a", schedule: "* * * * *", prompt: "p", workspace: dir, tz: "UTC" });
  const first = store.claim("a", 1000, false);
  expect("id" in first).toBe(true);
  expect(store.claim("a", 2000, false)).toEqual({ refused: "busy" });
  store.finish((first as { id: number }).id, "completed", "ok", null);
  expect(store.claim("a", 1000, false)).toEqual({ refused: "recorded" });
});

it("marks what a dead daemon left running as interrupted, and never runs that instant again", async () => {
  const { store, dir, file } = await fresh();
  const now = Date.now();
  addJob(
    store,
    { name: "a", schedule: "* * * * * *", prompt: "p", workspace: dir, tz: "UTC", missed: "all" },
    now - 5000,
  );
  const claim = store.claim("a", now - 3000, false) as { id: number };
  store.markRunning(claim.id, "cron-a-1");
  // A second process (the next daemon) opens the same file.
  const next = await CronStore.open(file);
  open.push(next);
  const runs: number[] = [];
  const scheduler = new CronScheduler({
    store: next,
    maxConcurrent: 1,
    run: async (_job, runId) => {
      runs.push(runId);
      return ok();
    },
  });
  // start() marks the leftovers and plans synchronously; stop() waits for the runs it started.
  scheduler.start();
  await scheduler.stop();
  const rows = next.runs("a");
  expect(rows.find((r) => r.id === claim.id)?.status).toBe("interrupted");
  expect(rows.filter((r) => r.scheduledFor === now - 3000)).toHaveLength(1);
});

it("at start-up a once job runs the newest missed instant and coalesces the rest; skip runs none", async () => {
  const { store, dir } = await fresh();
  const created = Date.now() - 10_500;
  addJob(
    store,
    { name: "once", schedule: "* * * * * *", prompt: "p", workspace: dir, tz: "UTC", missed: "once" },
    created,
  );
  addJob(
    store,
    { name: "skip", schedule: "* * * * * *", prompt: "p", workspace: dir, tz: "UTC", missed: "skip" },
    created,
  );
  const started: string[] = [];
  let finish: () => void = () => {};
  const gate = new Promise<void>((r) => (finish = r));
  const scheduler = new CronScheduler({
    store,
    run: async (job) => {
      started.push(job.name);
      await gate;
      return ok();
    },
  });
  scheduler.start();
  expect(started).toEqual(["once"]);
  expect(store.runs("once").filter((r) => r.status === "coalesced").length).toBeGreaterThanOrEqual(9);
  expect(store.runs("skip").every((r) => r.status === "skipped")).toBe(true);
  finish();
  await scheduler.stop();
});

it("pauses a job after repeated failures, with the reason", async () => {
  const { store, dir } = await fresh();
  addJob(store, { name: "a", schedule: "0 0 1 1 *", prompt: "p", workspace: dir, tz: "UTC" });
  const scheduler = new CronScheduler({
    store,
    pauseAfter: 2,
    run: async () => ({ status: "failed", response: null, error: "preflight: no key", refused: [], session: "" }),
  });
  for (let i = 0; i < 2; i++) {
    expect("id" in scheduler.runNow("a")).toBe(true);
    await waitFor(() => !scheduler.isRunning("a"), { what: `failed run ${i + 1} ended` });
  }
  const job = store.job("a")!;
  expect(job.enabled).toBe(false);
  expect(job.pausedReason).toMatch(/2 failed runs.*no key/);
  expect(store.inbox().some((i) => i.text.includes("paused"))).toBe(true);
  await scheduler.stop();
});
