// The Lines component: a pane's lines as one text node, and a spinner in place of the first
// running glyph it is pointed at (one per pane), at 40, 80 and 120 columns.
import { afterEach, describe, expect, it } from "vitest";
import { glyphColumn, Lines } from "../../../src/ui/components/Lines.js";
import { mountPane } from "./mount.js";

let mounted: ReturnType<typeof mountPane> | undefined;
afterEach(() => {
  mounted?.app.unmount();
  mounted = undefined;
});

const SPINNER = /[▖▘▝▗]/;

describe.each([40, 80, 120])("at %i columns", (columns) => {
  const pad = (s: string) => s + " ".repeat(columns - s.length);
  const lines = [pad("head"), pad("▸ ● one running"), pad("▸ ● two running"), pad("▸ ✓ done")];

  it("draws the lines as given when nothing spins", async () => {
    mounted = mountPane(<Lines lines={lines} width={columns} />, columns, 10);
    expect((await mounted.frame()).split("\n").map((l) => l.trimEnd())).toEqual(lines.map((l) => l.trimEnd()));
  });

  it("spins the first running row only, keeping every column in place", async () => {
    mounted = mountPane(<Lines lines={lines} width={columns} spin={[2, 1]} />, columns, 10, { motion: true });
    const rows = (await mounted.frame()).split("\n");
    expect(rows[1]).toMatch(new RegExp(`^▸ ${SPINNER.source} one running`));
    expect(rows[2]).toBe("▸ ● two running");
    expect(rows[0]).toBe("head");
  });

  it("keeps the still glyph without motion", async () => {
    mounted = mountPane(<Lines lines={lines} width={columns} spin={[1]} />, columns, 10, { motion: false });
    expect((await mounted.frame()).split("\n")[1]).toBe("▸ ● one running");
  });
});

describe("glyphColumn", () => {
  it("counts columns, not characters or escapes", () => {
    expect(glyphColumn("\x1b[2m中\x1b[22m ● x", ["●"])).toBe(3);
    expect(glyphColumn("no glyph", ["●", "*"])).toBe(-1);
  });
});
