import { expect, it } from "vitest";
import { byCodeUnit } from "../../src/protocol/order.js";

it("orders ISO-8601 times by time and names by their characters", () => {
  const times = ["2026-12-02T07:00:00.000Z", "2025-01-31T23:59:59.999Z", "2026-12-02T06:59:59.999Z"];
  expect([...times].sort(byCodeUnit)).toEqual([times[1], times[2], times[0]]);
  // Newest first: the arguments swapped.
  expect([...times].sort((a, b) => byCodeUnit(b, a))).toEqual([times[0], times[2], times[1]]);
  expect(["review", "Deploy", "init", "deploy"].sort(byCodeUnit)).toEqual(["Deploy", "deploy", "init", "review"]);
  expect(byCodeUnit("same", "same")).toBe(0);
});
