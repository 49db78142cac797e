import { describe, expect, it } from "vitest";
import { clampResult, headBytes, MAX_RESULT_BYTES, tailBytes } from "../../src/tools/truncate.js";
import { BoundedOutput } from "../../src/tools/bounded-output.js";

const bytes = (s: string) => Buffer.byteLength(s);

describe("clampResult", () => {
  it("returns text that fits unchanged", () => {
    expect(clampResult("hello")).toBe("hello");
    const exact = "a".repeat(MAX_RESULT_BYTES);
    expect(clampResult(exact)).toBe(exact);
  });

  it("never exceeds the cap, for many sizes, alphabets and both strategies", () => {
    const alphabets = ["a", "é", "中", "😀", "ab\n"];
    for (const alpha of alphabets) {
      for (const n of [MAX_RESULT_BYTES + 1, 30_000, 100_000, 1_000_000]) {
        const text = alpha.repeat(Math.ceil(n / bytes(alpha)));
        for (const strategy of ["head", "head-tail"] as const) {
          const out = clampResult(text, { strategy, hint: "Use offset." });
          expect(bytes(out)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
          expect(out).not.toContain("\uFFFD");
          expect(out).toContain("Use offset.");
        }
      }
    }
  });

  it("head-tail keeps the start and the end and says how much was cut", () => {
    const text = `START${"x".repeat(50_000)}END`;
    const out = clampResult(text, { strategy: "head-tail" });
    expect(out.startsWith("START")).toBe(true);
    expect(out.endsWith("END")).toBe(true);
    const cut = Number(/(\d+) bytes cut from the middle of a (\d+)-byte result/.exec(out)?.[1]);
    const kept = bytes(out) - bytes(out.match(/\n\[\.\.\. .* \.\.\.\]\n/)![0]);
    expect(cut + kept).toBe(bytes(text));
  });

  it("head and tail helpers cut on character boundaries", () => {
    expect(headBytes("日本語", 4)).toBe("日");
    expect(tailBytes("日本語", 4)).toBe("語");
    expect(headBytes("abc", 0)).toBe("");
  });
});

describe("BoundedOutput", () => {
  it("keeps everything under the cap", () => {
    const b = new BoundedOutput(100);
    b.push(Buffer.from("hello "));
    b.push(Buffer.from("world"));
    expect(b.text()).toBe("hello world");
    expect(b.dropped).toBe(0);
  });

  it("keeps the first quarter and the last three quarters of a flood, memory bounded", () => {
    const b = new BoundedOutput(1000);
    for (let i = 0; i < 1000; i++) b.push(Buffer.from(`line ${String(i).padStart(4, "0")}\n`));
    const text = b.text();
    expect(text.startsWith("line 0000\n")).toBe(true);
    expect(text.endsWith("line 0999\n")).toBe(true);
    expect(text).toMatch(/\[\.\.\. \d+ bytes of output dropped while reading \.\.\.\]/);
    expect(b.totalBytes).toBe(10_000);
    expect(bytes(text)).toBeLessThan(1100);
  });

  it("does not split multi-byte characters at the seams", () => {
    const b = new BoundedOutput(40);
    for (let i = 0; i < 30; i++) b.push(Buffer.from("日本"));
    expect(b.text()).not.toContain("\uFFFD");
  });
});
