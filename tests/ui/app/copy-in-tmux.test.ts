// /copy tells the truth in a default tmux (issue 28, item 11): where tmux drops OSC 52 (no
// set-clipboard on, no passthrough) the text also goes to tmux's paste buffer and the status says
// so and how to reach the system clipboard; outside tmux, or where tmux forwards it, nothing extra.
import { describe, expect, it } from "vitest";
import { copyOut } from "../../../src/ui/app/copy.js";

function deps(route: { works: boolean | undefined; wrap: boolean } | null, inTmux: boolean) {
  const written: string[] = [];
  const buffers: string[] = [];
  return {
    written,
    buffers,
    d: {
      route: route ? { ...route, why: "" } : null,
      inTmux,
      write: (s: string) => void written.push(s),
      loadBuffer: async (t: string) => {
        buffers.push(t);
        return true;
      },
    },
  };
}

describe("copy inside tmux", () => {
  it("falls back to tmux load-buffer and says so where tmux drops the sequence", () => {
    const t = deps({ works: false, wrap: true }, true);
    const r = copyOut("hello", t.d);
    expect(r).toMatchObject({ ok: true, note: expect.stringMatching(/tmux's paste buffer .*set-clipboard on/) });
    expect(t.buffers).toEqual(["hello"]);
    expect(t.written).toHaveLength(1);
  });

  it("says it may not arrive while tmux's settings are unknown", () => {
    const t = deps(null, true);
    expect(copyOut("x", t.d)).toMatchObject({ ok: true, note: expect.stringMatching(/may not reach the clipboard/) });
    expect(t.buffers).toEqual(["x"]);
  });

  it("adds nothing outside tmux or where tmux forwards it", () => {
    for (const t of [deps(null, false), deps({ works: true, wrap: false }, true)]) {
      expect(copyOut("x", t.d)).toEqual({ ok: true });
      expect(t.buffers).toEqual([]);
    }
  });
});
