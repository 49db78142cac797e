// visibleWidth's fast path counts one column per UTF-16 unit for the characters of NARROW_TEXT:
// right only if string-width agrees for each, and if the set is the one string-width's patched
// fast path uses (scripts/narrow-chars.json), so the two measures never disagree. "By string-width"
// means the installed one, not the one patched to agree (tests/helpers/stock-module.ts).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { NARROW_TEXT, visibleWidth } from "../../../src/ui/render/wrap.js";
import { stockModule } from "../../helpers/stock-module.js";

const { default: stringWidth } = await stockModule<typeof import("string-width")>("string-width");

const root = resolve(import.meta.dirname, "../../..");
const { ranges } = JSON.parse(readFileSync(resolve(root, "scripts/narrow-chars.json"), "utf8")) as {
  ranges: [string, string][];
};

describe("visibleWidth's narrow fast path", () => {
  it("takes exactly the characters of narrow-chars.json, each one column by string-width", () => {
    const listed = new Set<number>();
    for (const [from, to] of ranges) for (let cp = parseInt(from, 16); cp <= parseInt(to, 16); cp++) listed.add(cp);
    for (let cp = 0x20; cp <= 0x2fff; cp++) {
      const ch = String.fromCodePoint(cp);
      expect(NARROW_TEXT.test(ch), `U+${cp.toString(16)}`).toBe(listed.has(cp));
      if (listed.has(cp)) expect(stringWidth(ch), `U+${cp.toString(16)}`).toBe(1);
    }
  });

  it("measures styled lines of those characters, and leaves wide or combining text to the full path", () => {
    const lines = ["\x1b[2m│\x1b[22m ● done · 3s ›", "│ 中文", "e\u0301 ·", "\x1b[31m⠋\x1b[39m ok…"];
    expect(lines.map(visibleWidth)).toEqual(lines.map((l) => stringWidth(l)));
    expect(visibleWidth(lines[0]!)).toBe(15);
  });
});
