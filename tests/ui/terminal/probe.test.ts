// Parsing terminal replies (split, interleaved with keys, missing) and the probe's sentinel and timeout.
import { PassThrough } from "node:stream";
import { Terminal } from "@xterm/headless";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  buildQueries,
  createProbe,
  da1Features,
  parseColorSpec,
  parseReplies,
  probeTerminal,
} from "../../../src/ui/terminal/probe.js";

const ESC = "\x1b";
const DA1 = `${ESC}[?62;22;52c`;
const XTVERSION = `${ESC}P>|xterm(390)${ESC}\\`;
const SYNC = `${ESC}[?2026;2$y`;
const PASTE = `${ESC}[?2004;1$y`;
const BG_DARK = `${ESC}]11;rgb:1e1e/1e1e/2e2e${ESC}\\`;
const ALL = XTVERSION + SYNC + PASTE + BG_DARK + DA1;

describe("buildQueries", () => {
  it("asks XTVERSION, both modes and the background, with DA1 last as the sentinel", () => {
    const q = buildQueries();
    expect(q).toBe(`${ESC}[>0q${ESC}[?2026$p${ESC}[?2004$p${ESC}]11;?${ESC}\\${ESC}[c`);
    expect(q.endsWith(`${ESC}[c`)).toBe(true);
    expect(q.split(`${ESC}[c`)).toHaveLength(2);
  });

  it("can leave out OSC 11 for the Linux console", () => {
    expect(buildQueries({ skipBackground: true })).not.toContain("]11;");
  });
});

describe("parseReplies", () => {
  it.each<[string, string, Record<string, unknown>]>([
    [
      "everything",
      ALL,
      {
        da1: "62;22;52",
        version: "xterm(390)",
        syncOutput: true,
        bracketedPaste: true,
        background: { r: 30, g: 30, b: 46 },
        isDark: true,
        rest: "",
      },
    ],
    ["nothing", "", { rest: "" }],
    ["only DA1 (a terminal that ignores the rest)", `${ESC}[?1;2c`, { da1: "1;2", rest: "" }],
    ["DECRPM 0: mode unknown", `${ESC}[?2026;0$y`, { syncOutput: false, rest: "" }],
    ["DECRPM 4: permanently reset", `${ESC}[?2004;4$y`, { bracketedPaste: false, rest: "" }],
    ["DECRPM 3: permanently set", `${ESC}[?2026;3$y`, { syncOutput: true, rest: "" }],
    [
      "BEL-terminated OSC 11, light",
      `${ESC}]11;rgb:ffff/ffff/ffff\x07`,
      { background: { r: 255, g: 255, b: 255 }, isDark: false, rest: "" },
    ],
    [
      "two-digit components",
      `${ESC}]11;rgb:fd/f6/e3${ESC}\\`,
      { background: { r: 253, g: 246, b: 227 }, isDark: false, rest: "" },
    ],
    [
      "rgba form",
      `${ESC}]11;rgba:0000/2b2b/3636/ffff${ESC}\\`,
      { background: { r: 0, g: 43, b: 54 }, isDark: true, rest: "" },
    ],
    ["XTVERSION with BEL", `${ESC}P>|tmux 3.4\x07`, { version: "tmux 3.4", rest: "" }],
    ["an unrelated DECRPM", `${ESC}[?1049;1$y`, { rest: "" }],
  ])("%s", (_label, text, expected) => {
    expect(parseReplies(text)).toEqual(expected);
  });

  it("keeps keystrokes typed during the probe, in order, for the app to replay", () => {
    const text = `ab${XTVERSION}c${ESC}[A${SYNC}\r${DA1}q`;
    const r = parseReplies(text);
    expect(r.version).toBe("xterm(390)");
    expect(r.syncOutput).toBe(true);
    expect(r.da1).toBe("62;22;52");
    expect(r.rest).toBe(`abc${ESC}[A\rq`);
  });

  it("leaves a reply cut in half unparsed until the rest arrives", () => {
    const cut = ALL.indexOf("1e1e/2e2e");
    const first = parseReplies(ALL.slice(0, cut));
    expect(first.background).toBeUndefined();
    expect(first.da1).toBeUndefined();
    expect(first.rest).toContain("]11;rgb:1e1e/");
    expect(parseReplies(ALL).background).toEqual({ r: 30, g: 30, b: 46 });
  });

  it("does not take a lone Esc keypress for part of a reply", () => {
    const r = parseReplies(`${ESC}${DA1}`);
    expect(r.da1).toBe("62;22;52");
    expect(r.rest).toBe(ESC);
  });

  it("reads colour specs and DA1 features", () => {
    expect(parseColorSpec("rgb:f/0/8")).toEqual({ r: 255, g: 0, b: 136 });
    expect(parseColorSpec("#102030")).toEqual({ r: 16, g: 32, b: 48 });
    expect(parseColorSpec("cmyk:1/2/3/4")).toBeUndefined();
    expect(da1Features("62;22;52")).toEqual([62, 22, 52]);
    expect(da1Features(undefined)).toEqual([]);
  });
});

describe("createProbe", () => {
  afterEach(() => vi.useRealTimers());

  it("settles on the sentinel even when replies arrive a byte at a time", async () => {
    const probe = createProbe({ timeoutMs: 10_000 });
    let settled = false;
    void probe.result.then(() => (settled = true));
    for (const ch of `x${ALL.slice(0, -1)}`) probe.feed(ch);
    await Promise.resolve();
    expect(settled).toBe(false);
    probe.feed(ALL.slice(-1));
    const caps = await probe.result;
    expect(caps).toMatchObject({
      answered: true,
      version: "xterm(390)",
      syncOutput: true,
      bracketedPaste: true,
      isDark: true,
      rest: "x",
    });
  });

  it("settles on the timeout with what came when the terminal never sends the sentinel", async () => {
    vi.useFakeTimers();
    const probe = createProbe({ timeoutMs: 200 });
    probe.feed(SYNC);
    let settled = false;
    void probe.result.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(199);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await probe.result).toEqual({ answered: false, syncOutput: true, rest: "" });
  });

  it("ignores bytes fed after it settled, and cancel settles at once", async () => {
    const probe = createProbe({ timeoutMs: 10_000 });
    probe.feed(PASTE);
    probe.cancel();
    probe.feed(DA1);
    expect(await probe.result).toEqual({ answered: false, bracketedPaste: true, rest: "" });
  });

  it("still gives the answer when the sentinel comes after the timeout (issue 35: nothing waits for it)", async () => {
    vi.useFakeTimers();
    const probe = createProbe({ timeoutMs: 200 });
    let answered = false;
    void probe.answer.then(() => (answered = true));
    await vi.advanceTimersByTimeAsync(200);
    expect(await probe.result).toEqual({ answered: false, rest: "" });
    expect(answered).toBe(false);
    probe.feed(ALL);
    expect(await probe.answer).toMatchObject({ answered: true, version: "xterm(390)", syncOutput: true, isDark: true });
    // The timed-out result stays what it was.
    expect(await probe.result).toEqual({ answered: false, rest: "" });
  });

  it("answers with the same capabilities as the result when the sentinel is in time", async () => {
    const probe = createProbe({ timeoutMs: 10_000 });
    probe.feed(ALL);
    expect(await probe.answer).toEqual(await probe.result);
  });

  it("never answers after cancel, whatever comes later", async () => {
    vi.useFakeTimers();
    const probe = createProbe({ timeoutMs: 200 });
    let answered = false;
    void probe.answer.then(() => (answered = true));
    probe.cancel();
    probe.feed(ALL);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(answered).toBe(false);
  });
});

type FakeStdin = PassThrough & { isTTY: boolean; isRaw: boolean; setRawMode(mode: boolean): FakeStdin };

function fakeStdin(): FakeStdin {
  const s = new PassThrough() as FakeStdin;
  s.isTTY = true;
  s.isRaw = false;
  s.setRawMode = (mode) => {
    s.isRaw = mode;
    return s;
  };
  return s;
}

describe("probeTerminal", () => {
  it("writes the queries in raw mode, reads the replies and restores the input", async () => {
    const stdin = fakeStdin();
    const rawDuring: boolean[] = [];
    const written: string[] = [];
    const stdout = {
      write(s: string) {
        written.push(s);
        rawDuring.push(stdin.isRaw);
        // Replies come back split, as bytes, like a real slow link.
        setTimeout(() => stdin.write(Buffer.from(ALL.slice(0, 7))), 1);
        setTimeout(() => stdin.write(Buffer.from(ALL.slice(7))), 2);
        return true;
      },
    };
    const caps = await probeTerminal(stdin, stdout, 2_000);
    expect(written).toEqual([buildQueries()]);
    expect(rawDuring).toEqual([true]);
    expect(caps).toMatchObject({ answered: true, da1: "62;22;52", version: "xterm(390)", isDark: true });
    expect(stdin.isRaw).toBe(false);
    expect(stdin.listenerCount("data")).toBe(0);
    expect(stdin.readableFlowing).toBe(false);
  });

  it("gives up after the timeout when nothing answers", async () => {
    const stdin = fakeStdin();
    // Nothing ever answers: only the 50 ms timeout can settle it.
    const caps = await probeTerminal(stdin, { write: () => true }, 50);
    expect(caps).toEqual({ answered: false, rest: "" });
    expect(stdin.listenerCount("data")).toBe(0);
  });

  it("reads a real terminal emulator's answers (xterm.js headless)", async () => {
    const term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true });
    const probe = createProbe({ timeoutMs: 2_000 });
    term.onData((d) => probe.feed(d));
    term.write(probe.queries);
    const caps = await probe.result;
    term.dispose();
    // xterm.js answers DA1 and DECRQM; it has no XTVERSION and, headless, no background to report.
    expect(caps.answered).toBe(true);
    expect(caps.da1).toMatch(/^\d/);
    expect(caps.syncOutput).toBe(true);
    expect(caps.bracketedPaste).toBe(true);
    expect(caps.rest).toBe("");
  });
});
