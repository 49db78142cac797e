// The missed-run rules as a table, and schedules enumerated through croner.
import { describe, expect, it } from "vitest";
import { ALL_CAP, defaultMissedPolicy, GRACE_MS, planDue, type MissedPolicy } from "../../src/cron/plan.js";
import { compileSchedule, CronInputError, instantsBetween } from "../../src/cron/schedule.js";

const NOW = 1_000_000_000;
const due = [NOW - 40_000, NOW - 30_000, NOW - 20_000];
const onTime = [NOW - 20_000, NOW - 1_000];

describe("planDue", () => {
  const cases: [
    string,
    readonly number[],
    MissedPolicy,
    boolean,
    { run: number[]; skipped: number[]; coalesced: number[] },
  ][] = [
    ["nothing due", [], "once", true, { run: [], skipped: [], coalesced: [] }],
    ["skip at start-up runs nothing", due, "skip", true, { run: [], skipped: due, coalesced: [] }],
    [
      "once at start-up runs the newest",
      due,
      "once",
      true,
      { run: [due[2]!], skipped: [], coalesced: due.slice(0, 2) },
    ],
    ["all at start-up runs each", due, "all", true, { run: due, skipped: [], coalesced: [] }],
    [
      "skip runs an on-time instant",
      onTime,
      "skip",
      false,
      { run: [onTime[1]!], skipped: [onTime[0]!], coalesced: [] },
    ],
    ["skip after a sleep runs nothing", due, "skip", false, { run: [], skipped: due, coalesced: [] }],
    [
      "once after a sleep runs the newest",
      due,
      "once",
      false,
      { run: [due[2]!], skipped: [], coalesced: due.slice(0, 2) },
    ],
  ];
  it.each(cases)("%s", (_, instants, policy, startup, expected) => {
    expect(planDue(instants, NOW, policy, startup)).toEqual(expected);
  });

  it("all stops at the cap and records the older ones as skipped", () => {
    const many = Array.from({ length: ALL_CAP + 3 }, (_, i) => NOW - GRACE_MS * 10 + i);
    const plan = planDue(many, NOW, "all", true);
    expect(plan.run).toEqual(many.slice(3));
    expect(plan.skipped).toEqual(many.slice(0, 3));
  });

  it("hourly and slower catch up once by default, faster ones skip", () => {
    expect(defaultMissedPolicy(3_600_000)).toBe("once");
    expect(defaultMissedPolicy(2_000)).toBe("skip");
  });
});

describe("compileSchedule", () => {
  const start = Date.UTC(2025, 0, 1, 0, 0, 0);
  it("reads 6 fields with seconds", () => {
    const s = compileSchedule("*/2 * * * * *", "UTC", start);
    expect(instantsBetween(s, start, start + 6_000, 10).instants).toEqual([start + 2000, start + 4000, start + 6000]);
  });
  it("reads 5 fields in a time zone", () => {
    const s = compileSchedule("0 9 * * *", "Europe/Berlin", start);
    expect(new Date(s.next(start)!).toISOString()).toBe("2025-01-01T08:00:00.000Z");
    expect(s.periodMs(start)).toBe(86_400_000);
  });
  it("counts @every from the anchor", () => {
    const s = compileSchedule("@every 30m", "UTC", start);
    expect(s.next(start)).toBe(start + 1_800_000);
    expect(s.next(start + 1_800_000)).toBe(start + 3_600_000);
  });
  it("keeps the newest instants past the cap", () => {
    const s = compileSchedule("* * * * * *", "UTC", start);
    const { instants, dropped } = instantsBetween(s, start, start + 10_000, 3);
    expect(instants).toEqual([start + 8000, start + 9000, start + 10_000]);
    expect(dropped).toBe(7);
  });
  it.each([
    ["not cron", "UTC", /not a valid cron expression|fields/],
    ["61 * * * *", "UTC", /not a valid cron expression/],
    ["* * * *", "UTC", /4 fields/],
    ["@daily", "UTC", /@every/],
    ["* * * * *", "Mars/Olympus", /unknown time zone/],
  ])("refuses %s in %s", (expr, tz, message) => {
    expect(() => compileSchedule(expr, tz, start)).toThrow(CronInputError);
    expect(() => compileSchedule(expr, tz, start)).toThrow(message);
  });
});
