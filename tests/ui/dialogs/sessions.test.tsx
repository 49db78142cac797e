// The /resume picker on its own: the workspace's sessions newest first, ↓ with the preview of
// the selected one, typing searches after a pause, Tab lists every workspace, Enter opens the
// session in a new task.
import { afterEach, describe, expect, it } from "vitest";
import type { SessionRow, SessionSource } from "../../../src/ui/state/data-sources.js";
import { keys } from "../../helpers/pty.js";
import { mountDialog, type MountedDialog, widths } from "./mount-dialog.js";

let m: MountedDialog | undefined;
afterEach(() => {
  m?.app.unmount();
  m = undefined;
});

const NOW = Date.now();
const hoursAgo = (n: number) => new Date(NOW - n * 3_600_000).toISOString();
const sessions: SessionRow[] = [
  {
    file: "/s/parser.json",
    sessionId: "s-parser",
    title: "fix the flaky parser",
    workspace: "/work/demo",
    updatedAt: hoursAgo(2),
  },
  {
    file: "/s/retry.json",
    sessionId: "s-retry",
    title: "add retries",
    workspace: "/work/demo",
    updatedAt: hoursAgo(30),
  },
  {
    file: "/s/other.json",
    sessionId: "s-other",
    title: "release notes",
    workspace: "/work/other",
    updatedAt: hoursAgo(1),
  },
];
const source: SessionSource = {
  list: async (all) => sessions.filter((r) => all || r.workspace === "/work/demo"),
  search: async (q, all) =>
    sessions
      .filter((r) => (all || r.workspace === "/work/demo") && r.title.includes(q))
      .map((r) => ({ ...r, snippet: `user: ${r.title.replace(q, `[${q}]`)}` })),
  lastPrompt: async (file) => `prompt of ${file}`,
};

describe.each(widths)("the session picker at %i columns", (columns) => {
  it("lists, previews, and opens the selected session with Enter", async () => {
    m = mountDialog(columns, 16, { sessions: source, now: () => NOW });
    m.type("/resume\r");
    let frame = await m.until((f) => f.includes("fix the flaky"));
    let rows = frame.split("\n");
    expect(rows[0]).toMatch(/^Resume a session/);
    expect(rows.find((r) => r.includes("fix the flaky"))).toMatch(/^ › 2h ago {3}fix the flaky parser/);
    expect(rows.find((r) => r.includes("add retries"))).toMatch(/^ {3}1d ago {3}add retries/);
    expect(frame).not.toContain("release notes");
    m.type(keys.down);
    frame = await m.until((f) => f.includes("prompt of /s/retry.json"));
    expect(frame.split("\n").find((r) => r.includes("add retries"))).toMatch(/^ › /);
    m.type(keys.enter);
    await m.frame();
    expect(m.dialog()).toBeNull();
    expect(m.sent).toContainEqual(expect.objectContaining({ type: "task.create", sessionFile: "/s/retry.json" }));
    rows = (await m.rows()).filter((r) => r.trim());
    expect(rows).toEqual([]);
  });

  it("searches what is typed and lists every workspace with Tab", async () => {
    m = mountDialog(columns, 16, { sessions: source, now: () => NOW });
    m.type("/resume\r");
    await m.until((f) => f.includes("fix the flaky"));
    m.type(keys.tab);
    let frame = await m.until((f) => f.includes("release notes"));
    expect(m.dialog()).toMatchObject({ kind: "sessions", all: true });
    m.type("notes");
    frame = await m.until((f) => f.includes("[notes]") || f.includes("1 found"));
    expect(frame).toContain("› notes");
    expect(frame).not.toContain("fix the flaky");
    m.type(keys.esc);
    await m.frame();
    expect(m.dialog()).toBeNull();
  });
});
