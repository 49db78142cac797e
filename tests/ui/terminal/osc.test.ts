// OSC 52 copy (plain and tmux-wrapped, decoded back), its size limit, notifications and the bell.
import { describe, expect, it } from "vitest";
import { BEL, notify, OSC52_MAX_BYTES, osc52, tmuxPassthrough } from "../../../src/ui/terminal/osc.js";

const ESC = "\x1b";

function decodePlain(seq: string): string {
  const m = /^\x1b\]52;c;([A-Za-z0-9+/=]*)\x07$/.exec(seq);
  if (!m) throw new Error(`not an OSC 52 sequence: ${JSON.stringify(seq)}`);
  return Buffer.from(m[1] ?? "", "base64").toString("utf8");
}

function unwrapTmux(seq: string): string {
  const m = /^\x1bPtmux;([\s\S]*)\x1b\\$/.exec(seq);
  if (!m) throw new Error("not a tmux passthrough");
  const inner = m[1] ?? "";
  // Inside the wrapper every ESC must be doubled, or tmux would end the DCS early.
  expect(inner.replace(/\x1b\x1b/g, "")).not.toContain(ESC);
  return inner.replace(/\x1b\x1b/g, ESC);
}

describe("osc52", () => {
  it.each(["hello", "", "line 1\nline 2\ttab", "héllo wörld — ✓ 日本語 🙂", "\x1b[31mred\x1b[0m"])(
    "round-trips %j outside tmux",
    (text) => {
      const r = osc52(text, { tmux: false });
      if (!r.ok) throw new Error(r.reason);
      expect(r.sequence.startsWith(`${ESC}]52;c;`)).toBe(true);
      expect(r.sequence.endsWith(BEL)).toBe(true);
      expect(decodePlain(r.sequence)).toBe(text);
    },
  );

  it("wraps for tmux passthrough with inner ESCs doubled, and still decodes", () => {
    const r = osc52("copy me ✓", { tmux: true });
    if (!r.ok) throw new Error(r.reason);
    expect(r.sequence.startsWith(`${ESC}Ptmux;${ESC}${ESC}]52;c;`)).toBe(true);
    expect(r.sequence.endsWith(`${BEL}${ESC}\\`)).toBe(true);
    expect(decodePlain(unwrapTmux(r.sequence))).toBe("copy me ✓");
  });

  it("refuses text whose encoding is over the limit, with a reason and no sequence", () => {
    const big = "x".repeat(Math.ceil((OSC52_MAX_BYTES / 4) * 3) + 3);
    const r = osc52(big, { tmux: false });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toMatch(/too large/);
    expect(r.reason).toContain(String(big.length));
    expect(r.bytes).toBeGreaterThan(OSC52_MAX_BYTES);
    expect("sequence" in r).toBe(false);
  });

  it("accepts text right at the limit", () => {
    const atLimit = "x".repeat((OSC52_MAX_BYTES / 4) * 3);
    const r = osc52(atLimit, { tmux: false });
    expect(r.ok).toBe(true);
    expect(r.bytes).toBe(OSC52_MAX_BYTES);
  });

  it("honours a smaller limit", () => {
    expect(osc52("abcdef", { tmux: false, maxBytes: 4 }).ok).toBe(false);
    expect(osc52("abc", { tmux: false, maxBytes: 4 }).ok).toBe(true);
  });
});

describe("notify", () => {
  it("builds OSC 9 with title and body joined", () => {
    expect(notify("NanoHermes", "task done", { kind: "osc9", tmux: false })).toBe(
      `${ESC}]9;NanoHermes: task done${BEL}`,
    );
  });

  it("builds OSC 777 with title and body as fields, no ';' in the title", () => {
    expect(notify("a;b", "body; with semicolon", { kind: "osc777", tmux: false })).toBe(
      `${ESC}]777;notify;a,b;body; with semicolon${BEL}`,
    );
  });

  it("strips control characters so the text cannot end the sequence or inject escapes", () => {
    const out = notify("ti\x07tle", `evil${ESC}]52;c;Zm9v${BEL}\x9c text`, { kind: "osc9", tmux: false });
    expect(out.startsWith(`${ESC}]9;`)).toBe(true);
    expect(out.endsWith(BEL)).toBe(true);
    expect(out.slice(4, -1)).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    expect(out).toContain("evil ]52;c;Zm9v");
  });

  it("keeps OSC 9 text from reading as a ConEmu/Windows Terminal command", () => {
    expect(notify("4;3", "", { kind: "osc9", tmux: false })).toBe(`${ESC}]9;4:3${BEL}`);
  });

  it("wraps notifications for tmux but never the bell", () => {
    const wrapped = notify("t", "b", { kind: "osc777", tmux: true });
    expect(wrapped).toBe(tmuxPassthrough(`${ESC}]777;notify;t;b${BEL}`));
    expect(unwrapTmux(wrapped)).toBe(`${ESC}]777;notify;t;b${BEL}`);
    expect(notify("t", "b", { kind: "bell", tmux: true })).toBe(BEL);
    expect(BEL).toBe("\x07");
  });
});
