// The memory bench's workload, checked for what it builds: 10,000 entries plus the saves it makes
// at that size. Its timings (warm search p50 under 5 ms) are figures of `npm run bench` (the
// memory section: NANOHERMES_BENCH_ONLY=memory), not assertions here: a shared machine's pauses
// are not the code's.
import { expect, it } from "vitest";
import { benchMemory } from "../../bench/memory.js";

it("builds 10,000 memories, searches them warm and saves six more at that size", async () => {
  const figures = await benchMemory();
  expect(figures.entries).toBe(10_006);
}, 60_000);
