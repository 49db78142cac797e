// The status line's key hints are never cut in the middle (the idle hint used to end in
// "Ctrl-…" at 80 columns): whole hints, as many as fit, in order.
import { describe, expect, it } from "vitest";
import { HINTS, wholeHints } from "../../src/ui/panes/status.js";

const idle = [
  "Enter send",
  "Ctrl-J newline",
  "/ commands",
  "@ files",
  "? keys",
  "Ctrl-K palette",
  "Ctrl-T tasks",
  "Ctrl-R results",
];

describe("wholeHints", () => {
  it.each([40, 50, 80, 120])("keeps whole hints within %i columns", (width) => {
    const line = wholeHints(idle, width);
    expect(line.length).toBeLessThanOrEqual(width);
    expect(line).not.toContain("…");
    for (const part of line.split(" · ")) expect(idle).toContain(part);
    expect(line.startsWith("Enter send")).toBe(true);
  });

  it("shows them all when there is room, and cuts a lone first hint only when nothing else fits", () => {
    expect(wholeHints(idle, 200)).toBe(idle.join(" · "));
    expect(wholeHints(idle, 6)).toBe("Enter…");
  });

  it.each(Object.entries(HINTS))(
    "%s hints: whole at 50 columns, and an approval's always says how to deny",
    (name, hints) => {
      const line = wholeHints(hints, 50);
      expect(line.length).toBeLessThanOrEqual(50);
      expect(line).not.toContain("…");
      for (const part of line.split(" · ")) expect(hints).toContain(part);
      if (name === "approval" || name === "dangerous") expect(line).toContain("n deny");
    },
  );
});
