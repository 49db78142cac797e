// The classifier case tables (tests/sandbox/cases/*.tsv), both directions: what must stay trusted
// as much as what must ask, be dangerous or be blocked, through the same `policyCheck` that
// `nanohermes policy check` prints. Each line of a table is one case a reviewer can read.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DANGER_RULES } from "../../src/sandbox/dangerous.js";
import { policyCheck } from "../../src/sandbox/policy-check.js";
import { readCases } from "../helpers/case-table.js";

const cases = readCases(join(import.meta.dirname, "cases"));

describe("classifier case tables", () => {
  it.each(cases.map((c) => [`${c.file}:${c.line}`, c] as const))("%s", (_where, c) => {
    const v = policyCheck(c.command, "on-request");
    expect(
      { verdict: v.decision, ...(c.rule ? { rule: v.rule } : {}) },
      `${JSON.stringify(c.command)}: ${v.reason}`,
    ).toEqual({ verdict: c.verdict, ...(c.rule ? { rule: c.rule } : {}) });
  });

  it("holds at least 300 cases, with every verdict and every rule represented", () => {
    expect(cases.length).toBeGreaterThanOrEqual(300);
    for (const verdict of ["trusted", "ask", "dangerous", "blocked"])
      expect(cases.filter((c) => c.verdict === verdict).length, verdict).toBeGreaterThanOrEqual(30);
    const named = new Set(cases.map((c) => c.rule));
    for (const rule of DANGER_RULES) expect(named, rule.name).toContain(rule.name);
  });

  it("names only rules that exist, at the level the catalogue gives them", () => {
    const level = new Map(DANGER_RULES.map((r) => [r.name, r.level]));
    for (const c of cases.filter((x) => x.rule)) expect(level.get(c.rule!), `${c.file}:${c.line}`).toBe(c.verdict);
  });
});
