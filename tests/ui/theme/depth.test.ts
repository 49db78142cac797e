// Colour depth and box-drawing decisions from the environment, as tables.
import { describe, expect, it } from "vitest";
import {
  asciiBorder,
  borderChars,
  detectColorDepth,
  explainColorDepth,
  unicodeBoxes,
  unicodeBorder,
} from "../../../src/ui/theme/depth.js";

type Env = Record<string, string | undefined>;

describe("detectColorDepth", () => {
  it.each<[string, Env, boolean, 0 | 4 | 8 | 24]>([
    ["NO_COLOR=1 on a true-colour TTY", { NO_COLOR: "1", COLORTERM: "truecolor", TERM: "xterm-256color" }, true, 0],
    ["NO_COLOR wins over FORCE_COLOR", { NO_COLOR: "yes", FORCE_COLOR: "3" }, true, 0],
    ["empty NO_COLOR is ignored (no-color.org)", { NO_COLOR: "", TERM: "xterm-256color" }, true, 8],
    ["FORCE_COLOR=0 on a TTY", { FORCE_COLOR: "0", COLORTERM: "truecolor" }, true, 0],
    ["FORCE_COLOR=false", { FORCE_COLOR: "false", TERM: "xterm" }, true, 0],
    ["FORCE_COLOR=1 when piped", { FORCE_COLOR: "1" }, false, 4],
    ["FORCE_COLOR empty when piped", { FORCE_COLOR: "" }, false, 4],
    ["FORCE_COLOR=true", { FORCE_COLOR: "true" }, false, 4],
    ["FORCE_COLOR=2 when piped", { FORCE_COLOR: "2" }, false, 8],
    ["FORCE_COLOR=3 when piped", { FORCE_COLOR: "3" }, false, 24],
    ["FORCE_COLOR=1 caps a true-colour TTY", { FORCE_COLOR: "1", COLORTERM: "truecolor" }, true, 4],
    ["not a TTY", { TERM: "xterm-256color", COLORTERM: "truecolor" }, false, 0],
    ["TERM=dumb", { TERM: "dumb", COLORTERM: "truecolor" }, true, 0],
    ["COLORTERM=truecolor", { TERM: "xterm-256color", COLORTERM: "truecolor" }, true, 24],
    ["COLORTERM=24bit", { TERM: "xterm", COLORTERM: "24bit" }, true, 24],
    ["TERM=xterm-direct", { TERM: "xterm-direct" }, true, 24],
    ["TERM=xterm-256color", { TERM: "xterm-256color" }, true, 8],
    ["TERM=xterm", { TERM: "xterm" }, true, 4],
    ["TERM=linux (console)", { TERM: "linux" }, true, 4],
    ["COLORTERM=1 without truecolor", { TERM: "xterm", COLORTERM: "1" }, true, 4],
    ["tmux: screen-256color", { TERM: "screen-256color", TMUX: "/tmp/tmux-1/default,1,0" }, true, 8],
    ["tmux: tmux-256color", { TERM: "tmux-256color", TMUX: "/tmp/tmux-1/default,1,0", TERM_PROGRAM: "tmux" }, true, 8],
    ["tmux with COLORTERM=truecolor", { TERM: "tmux-256color", TMUX: "/t,1,0", COLORTERM: "truecolor" }, true, 24],
    ["tmux: plain screen", { TERM: "screen", TMUX: "/t,1,0" }, true, 4],
    ["iTerm2 without COLORTERM", { TERM: "xterm", TERM_PROGRAM: "iTerm.app" }, true, 24],
    ["iTerm2's TERM_PROGRAM leaked into tmux", { TERM: "screen", TERM_PROGRAM: "iTerm.app", TMUX: "/t,1,0" }, true, 4],
    ["Apple Terminal", { TERM: "xterm", TERM_PROGRAM: "Apple_Terminal" }, true, 8],
    ["a TTY with no TERM", {}, true, 0],
  ])("%s", (_label, env, isTTY, depth) => {
    expect(detectColorDepth(env, isTTY)).toBe(depth);
  });

  it("names the variable that decided", () => {
    expect(explainColorDepth({ NO_COLOR: "1" }, true).reason).toBe("NO_COLOR is set");
    expect(explainColorDepth({ TERM: "xterm-256color" }, true).reason).toBe("TERM=xterm-256color");
    expect(explainColorDepth({ TERM: "xterm-256color" }, false).reason).toBe("output is not a terminal");
  });
});

describe("unicodeBoxes", () => {
  it.each<[Env, boolean]>([
    [{ LANG: "en_US.UTF-8" }, true],
    [{ LANG: "de_DE.utf8" }, true],
    [{ LC_CTYPE: "UTF-8" }, true],
    [{ LC_ALL: "C", LANG: "en_US.UTF-8" }, false],
    [{ LC_ALL: "POSIX" }, false],
    [{ LC_ALL: "", LC_CTYPE: "C.UTF-8", LANG: "C" }, true],
    [{ LC_CTYPE: "C", LANG: "en_US.UTF-8" }, false],
    [{ LANG: "en_US.ISO-8859-1" }, false],
    [{}, true],
    [{ LANG: "C", NANOHERMES_ASCII: "0" }, true],
    [{ LANG: "en_US.UTF-8", NANOHERMES_ASCII: "1" }, false],
    [{ LANG: "C", NANOHERMES_ASCII: "" }, false],
  ])("%j -> %s", (env, expected) => {
    expect(unicodeBoxes(env)).toBe(expected);
  });

  it("gives Ink a full border set either way, the ASCII one printable everywhere", () => {
    expect(borderChars(false)).toBe(asciiBorder);
    expect(borderChars(true)).toBe(unicodeBorder);
    const keys = ["topLeft", "top", "topRight", "right", "bottomRight", "bottom", "bottomLeft", "left"];
    expect(Object.keys(asciiBorder).sort()).toEqual([...keys].sort());
    expect(Object.keys(unicodeBorder).sort()).toEqual([...keys].sort());
    for (const ch of Object.values(asciiBorder)) expect(ch).toMatch(/^[\x20-\x7e]$/);
    for (const ch of Object.values(unicodeBorder)) expect(ch).toMatch(/^[\u2500-\u257f]$/);
  });
});
