// The memory bench as a guard: 10,000 entries, warm searches well under the 5 ms target.
import { expect, it } from "vitest";
import { benchMemory } from "../../bench/memory.js";

it("searches 10,000 memories in under 5 ms (median, warm cache)", async () => {
  const figures = await benchMemory();
  expect(figures.entries).toBe(10_006);
  expect(figures.queryMs.p50).toBeLessThan(5);
  // Loose bounds: shared CI machines pause for GC and other jobs.
  expect(figures.queryMs.p95).toBeLessThan(50);
  expect(figures.saveMs).toBeLessThan(1_000);
}, 60_000);
