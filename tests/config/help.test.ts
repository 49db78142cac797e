// Issue 18 item 10: --help at 80 columns (no line wider, no column running into the next) and the
// subcommands a user looks for.
import { describe, expect, it } from "vitest";
import { flagSpecs } from "../../src/config/flag-table.js";
import { HELP_WIDTH, helpText } from "../../src/config/help.js";

describe("--help", () => {
  const text = helpText("0.0.0");
  const lines = text.split("\n");

  it("fits 80 columns", () => {
    expect(HELP_WIDTH).toBe(80);
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
  });

  it("keeps a gap between a name and its description", () => {
    // A flag line either is the name alone or has two spaces before its description.
    for (const spec of flagSpecs) {
      // The whole name: `--all` is not the line of `--allow`.
      const name = `--${spec.name}${spec.value ? ` ${spec.value}` : ""}`;
      const line = lines.find(
        (l) => /^\s+(-\w, )?--/.test(l) && l.includes(name) && !/[\w-]/.test(l[l.indexOf(name) + name.length] ?? ""),
      )!;
      expect(line, spec.name).toBeDefined();
      const after = line.slice(
        line.indexOf(`--${spec.name}`) + `--${spec.name}`.length + (spec.value ? spec.value.length + 1 : 0),
      );
      expect(after === "" || after.startsWith("  "), `${spec.name}: ${line}`).toBe(true);
    }
  });

  it.each([
    "nanohermes doctor",
    "nanohermes policy check",
    "nanohermes sandbox",
    "nanohermes sessions",
    "nanohermes export",
    "nanohermes attach",
    "nanohermes tool",
    "nanohermes mcp",
    "nanohermes skills",
  ])("lists %s", (cmd) => {
    expect(lines.some((l) => l.trimStart().startsWith(cmd))).toBe(true);
  });
});
