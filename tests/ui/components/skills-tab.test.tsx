// The Skills tab (skill proposals waiting for an answer) on its own at 40, 80 and 120 columns: the
// list, the selected proposal's reason and diff (a new skill as added lines, a patch as its hunk),
// its keys as bus commands (a accept, e edit through $EDITOR, d/x drop), Enter opening the diff;
// the tab bar shows it only while proposals wait; the status line names its keys.
import { afterEach, describe, expect, it } from "vitest";
import type { EventOf } from "../../../src/protocol/events.js";
import { ResultsPane } from "../../../src/ui/components/ResultsPane.js";
import { tabComponent } from "../../../src/ui/components/ResultsTab.js";
import { selectStatus, statusLine } from "../../../src/ui/panes/status.js";
import { visibleWidth } from "../../../src/ui/render/wrap.js";
import { mountPane } from "./mount.js";
import { waitFor } from "../../helpers/wait.js";

const SkillsTab = tabComponent("skills");

let mounted: ReturnType<typeof mountPane> | undefined;
afterEach(() => {
  mounted?.app.unmount();
  mounted = undefined;
});

type Proposals = EventOf<"proposals.updated">["proposals"];

const created = [
  "---",
  "name: run-unit-tests",
  "description: Run the unit tests with vitest in run mode",
  "origin: agent",
  "---",
  "",
  "Use `npx vitest run`; `npm test` waits in watch mode.",
  "",
].join("\n");

const proposals: Proposals = [
  {
    id: "p-aaaaaa",
    kind: "create",
    name: "run-unit-tests",
    reason: "the turn used several tools and recovered from an error",
    createdAt: "2026-12-05T10:00:00.000Z",
    diff: `--- /dev/null\n+++ b/run-unit-tests/SKILL.md\n@@ -0,0 +1,7 @@\n${created
      .trimEnd()
      .split("\n")
      .map((l) => `+${l}`)
      .join("\n")}`,
    text: created,
  },
  {
    id: "p-bbbbbb",
    kind: "patch",
    name: "deploy",
    reason: "a denied call was followed by one that worked",
    createdAt: "2026-12-05T10:05:00.000Z",
    diff: "--- a/deploy/SKILL.md\n+++ b/deploy/SKILL.md\n@@ -5,3 +5,3 @@\n \n-Run the deploy script.\n+Run the deploy script with --dry-run first.\n \n",
    text: "---\nname: deploy\ndescription: deploy it\n---\n\nRun the deploy script with --dry-run first.\n",
  },
];

const announce = (m: NonNullable<typeof mounted>, list: Proposals) =>
  m.bus.emit({ type: "proposals.updated", taskId: "", proposals: list });

describe.each([40, 80, 120])("at %i columns", (columns) => {
  // The pane's inner width at each size: 26 beside the transcript at 120, an overlay below.
  const width = columns === 120 ? 26 : Math.min(58, columns) - 2;
  const tab = { width, height: 16, focused: true };

  async function frame(): Promise<string[]> {
    const lines = (await mounted!.frame()).split("\n");
    expect(lines.length).toBeLessThanOrEqual(16);
    for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(width);
    return lines;
  }

  function mount(): NonNullable<typeof mounted> {
    mounted = mountPane(<SkillsTab {...tab} />, columns, 24);
    mounted.store.updateUi((ui) => ({ ...ui, resultsOpen: true, focus: "results", resultsTab: "skills" }));
    return mounted;
  }

  it("nothing waiting: says so", async () => {
    mount();
    expect((await frame()).join(" ")).toContain("no skill proposals");
  });

  it("lists each proposal; the selected one's reason and its SKILL.md as added lines", async () => {
    announce(mount(), proposals);
    const lines = await frame();
    // The selected row behind the marker a colourless terminal shows.
    expect(lines[0]).toMatch(/^› new run-unit-tests/);
    expect(lines[1]).toMatch(/^patch deploy/);
    // The id at the right edge where the row has room for it.
    if (width >= 38) expect(lines[0]!.trimEnd().endsWith("p-aaaaaa")).toBe(true);
    const text = lines.join("\n");
    expect(text).toContain("why: the turn used");
    // The file line as the Diff tab draws it (its path cut from the middle in a narrow pane).
    expect(text).toContain("SKILL.md");
    if (width >= 38) expect(text).toContain("run-unit-tests/SKILL.md (new file)");
    expect(text).toContain("+ name: run-unit-tests");
  });

  it("↓ selects the patch: its hunk, the old line removed and the new one added", async () => {
    const m = mount();
    announce(m, proposals);
    await frame();
    m.app.stdin.write("\x1b[B");
    const text = (await frame()).join("\n");
    expect(m.store.getState().ui.resultsIndex).toBe(1);
    expect(text).toContain("why: a denied call");
    expect(text).toContain("@@ -5,3 +5,3 @@");
    // Wrapped at words in a narrow pane: the line's words in order.
    const flat = text.replace(/\s+/g, " ");
    expect(flat).toContain("- Run the deploy script.");
    expect(flat).toMatch(/\+ Run the deploy script with --\s?dry-?\s?run first\./);
  });

  it("a accepts, d and x drop the selected proposal: bus commands for the engine, nothing more", async () => {
    const m = mount();
    announce(m, proposals);
    await frame();
    m.app.stdin.write("a");
    await frame();
    expect(m.sent.at(-1)).toEqual({ type: "proposal.accept", taskId: "t0", id: "p-aaaaaa" });
    expect(m.store.getState().ui.status?.text).toContain("accepting p-aaaaaa");
    // The list is the engine's: until it says otherwise, both still wait.
    expect(m.store.getState().proposals).toHaveLength(2);
    m.app.stdin.write("\x1b[B");
    await frame();
    m.app.stdin.write("d");
    await frame();
    expect(m.sent.at(-1)).toEqual({ type: "proposal.reject", taskId: "t0", id: "p-bbbbbb" });
    m.app.stdin.write("x");
    await frame();
    expect(m.sent.at(-1)).toEqual({ type: "proposal.reject", taskId: "t0", id: "p-bbbbbb" });
    // The engine answers with the list as it is now: the selection stays on a proposal that exists.
    announce(m, [proposals[0]!]);
    const text = (await frame()).join("\n");
    expect(text).toContain("new run-unit-tests");
    expect(text).not.toContain("patch deploy");
  });

  it("Enter opens the selected diff over the tab, Esc closes it", async () => {
    const m = mount();
    announce(m, proposals);
    await frame();
    m.app.stdin.write("\r");
    let lines = await frame();
    expect(m.store.getState().ui.proposalOpen).toEqual({ offset: 0 });
    expect(lines[0]).toMatch(/run-unit-tests\/SKILL\.md/);
    expect(lines.join("\n")).not.toContain("patch deploy");
    m.app.stdin.write("\x1b"); // a lone Esc is told from an Alt chord by a pause: wait for its effect
    await waitFor(() => m.store.getState().ui.proposalOpen === null, { what: "Esc closed the proposal" });
    lines = await frame();
    expect(lines.join("\n")).toContain("patch deploy");
  });
});

describe("e: the proposal's text in $EDITOR", () => {
  const mountWith = (openEditor: (text: string) => Promise<string | null>) => {
    mounted = mountPane(<SkillsTab width={60} height={16} focused />, 80, 24, { openEditor });
    mounted.store.updateUi((ui) => ({ ...ui, resultsOpen: true, focus: "results", resultsTab: "skills" }));
    announce(mounted, proposals);
    return mounted;
  };

  it("a changed text goes to the engine as proposal.edit, whole", async () => {
    const seen: string[] = [];
    const m = mountWith(async (text) => {
      seen.push(text);
      return `${text}\n2. Read the first failure first.\n`;
    });
    await m.frame();
    m.app.stdin.write("e");
    await m.frame();
    expect(seen).toEqual([created]);
    expect(m.sent.at(-1)).toEqual({
      type: "proposal.edit",
      taskId: "t0",
      id: "p-aaaaaa",
      content: `${created}\n2. Read the first failure first.\n`,
    });
  });

  it("the same text, or an editor closed without saving, sends nothing and says so", async () => {
    let m = mountWith(async (text) => text);
    await m.frame();
    m.app.stdin.write("e");
    await m.frame();
    expect(m.sent.some((c) => c.type === "proposal.edit")).toBe(false);
    expect(m.store.getState().ui.status?.text).toBe("p-aaaaaa is unchanged");
    m.app.unmount();
    m = mountWith(async () => null);
    await m.frame();
    m.app.stdin.write("e");
    await m.frame();
    expect(m.sent.some((c) => c.type === "proposal.edit")).toBe(false);
    expect(m.store.getState().ui.status?.text).toContain("closed without saving");
  });
});

describe("an archive proposal (from a consolidation)", () => {
  const archive: Proposals[number] = {
    id: "p-cccccc",
    kind: "archive",
    name: "vitest-no-watch",
    reason: "consolidation: both run vitest once (absorbed into vitest-run)",
    createdAt: "2026-12-05T11:00:00.000Z",
    diff: "--- a/vitest-no-watch/SKILL.md\n+++ /dev/null\n@@ -1,2 +0,0 @@\n----\n-Keep vitest out of watch mode.\n",
    text: "",
  };

  it("shows the skill's text going away; e says there is nothing to edit and sends nothing", async () => {
    let opened = 0;
    mounted = mountPane(<SkillsTab width={60} height={16} focused />, 80, 24, {
      openEditor: async () => {
        opened++;
        return "x";
      },
    });
    mounted.store.updateUi((ui) => ({ ...ui, resultsOpen: true, focus: "results", resultsTab: "skills" }));
    announce(mounted, [archive]);
    const text = await mounted.frame();
    expect(text).toMatch(/archive vitest-no-watch\s+p-cccccc/);
    expect(text).toContain("vitest-no-watch/SKILL.md (deleted)");
    expect(text).toContain("- Keep vitest out of watch mode.");
    mounted.app.stdin.write("e");
    await mounted.frame();
    expect(opened).toBe(0);
    expect(mounted.sent.some((c) => c.type === "proposal.edit")).toBe(false);
    expect(mounted.store.getState().ui.status?.text).toContain("nothing to edit");
    mounted.app.stdin.write("a");
    await mounted.frame();
    expect(mounted.sent.at(-1)).toEqual({ type: "proposal.accept", taskId: "t0", id: "p-cccccc" });
  });
});

describe("the tab bar and the status line", () => {
  it("the Skills tab shows, with its count, only while proposals wait (or while it is the current tab)", async () => {
    mounted = mountPane(<ResultsPane width={80} height={10} />, 120, 24);
    mounted.store.updateUi((ui) => ({ ...ui, resultsOpen: true, focus: "results", resultsTab: "changes" }));
    expect(await mounted.frame()).not.toContain("Skills");
    announce(mounted, proposals);
    expect(await mounted.frame()).toContain("Skills 2");
    // → from the last tab before it reaches it.
    mounted.store.updateUi((ui) => ({ ...ui, resultsTab: "agents" }));
    mounted.app.stdin.write("\x1b[C");
    expect(await mounted.frame()).toContain("[Skills 2]");
    announce(mounted, []);
    // The current tab stays while it is current, saying nothing waits; away from it, it is gone.
    expect(await mounted.frame()).toContain("no skill proposals waiting");
    mounted.app.stdin.write("\x1b[D");
    expect(await mounted.frame()).not.toContain("Skills");
  });

  it.each([120, 80, 50])("at %i columns the status line names the tab's keys, whole", async (columns) => {
    mounted = mountPane(<SkillsTab width={40} height={10} focused />, columns, 24);
    mounted.store.updateUi((ui) => ({ ...ui, resultsOpen: true, focus: "results", resultsTab: "skills" }));
    announce(mounted, proposals);
    await mounted.frame();
    const line = statusLine(selectStatus(mounted.store.getState()), mounted.services, columns);
    expect(visibleWidth(line)).toBe(columns);
    expect(line).toContain("a accept · e edit · d drop");
    if (columns >= 80) expect(line).toContain("Enter diff");
    mounted.store.updateUi((ui) => ({ ...ui, proposalOpen: { offset: 0 } }));
    expect(statusLine(selectStatus(mounted.store.getState()), mounted.services, columns)).toMatch(/a accept.*d drop/);
    if (columns >= 80)
      expect(statusLine(selectStatus(mounted.store.getState()), mounted.services, columns)).toContain("Esc list");
  });
});
