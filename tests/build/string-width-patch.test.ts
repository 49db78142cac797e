// The bundle's string-width measures the characters of narrow-chars.json with its ASCII fast path
// (one column each). That is only right if string-width itself says one column for every one.
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import stringWidth from "string-width";
import { expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");

it("every fast-path character is one column wide by string-width's own rules", () => {
  const { ranges } = JSON.parse(readFileSync(resolve(root, "scripts/narrow-chars.json"), "utf8")) as {
    ranges: [string, string][];
  };
  let checked = 0;
  for (const [from, to] of ranges) {
    for (let cp = parseInt(from, 16); cp <= parseInt(to, 16); cp++) {
      expect(stringWidth(String.fromCodePoint(cp)), `U+${cp.toString(16)}`).toBe(1);
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(200);
});

it("the built bundle carries the patched fast path", () => {
  const dist = resolve(root, "dist/chunks");
  const files = readdirSync(dist).filter((f) => f.endsWith(".js"));
  // The character class ends with the last range of narrow-chars.json.
  const { ranges } = JSON.parse(readFileSync(resolve(root, "scripts/narrow-chars.json"), "utf8")) as {
    ranges: [string, string][];
  };
  const [a, b] = ranges.at(-1)!;
  const tail = `${a === b ? `\\u${a}` : `\\u${a}-\\u${b}`}]*$/.test(`;
  const patched = files.some((f) => readFileSync(resolve(dist, f), "utf8").includes(tail));
  expect(patched).toBe(true);
});
