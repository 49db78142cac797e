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
    const parts = line.split(" · ");
    for (const part of parts) expect(idle).toContain(part);
    const order = parts.map((part) => idle.indexOf(part));
    expect(order).toEqual([...order].sort((a, b) => a - b));
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
      if (name === "approval" || name === "dangerous") expect(line).toContain("n deny+stop");
    },
  );

  it("leaves out a hint too wide to fit and keeps the shorter ones after it, in order", () => {
    expect(wholeHints(HINTS.dangerous, 50)).toBe("dangerous: y once · n deny+stop · d deny+note");
    expect(wholeHints(["first", "a much longer second hint", "third"], 20)).toBe("first · third");
    // The first hint leads: when it does not fit it is cut, never skipped.
    expect(wholeHints(["a much longer first hint", "x"], 10)).toBe("a much lo…");
  });
});
