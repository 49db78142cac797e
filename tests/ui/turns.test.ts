// The turns /rewind lists: transcript prompts numbered as the engine numbers user turns (a steer
// is part of its turn; a transcript rebuilt after compaction is anchored by the checkpointed prompts), merged
// with each turn's file changes; what a reload keeps; the marks of the Turns tab.
import { describe, expect, it } from "vitest";
import type { Block } from "../../src/ui/state/transcript.js";
import {
  changeMark,
  displayPath,
  filesFrom,
  keepExistingTurns,
  mergeTurns,
  withPrompts,
  type CheckpointTurn,
  type FileChange,
} from "../../src/ui/state/turns.js";

let n = 0;
const user = (text: string): Block => ({ kind: "user", id: `b${++n}`, text });
const steer = (text: string): Block => ({ kind: "steer", id: `b${++n}`, text });
const reply = (text: string): Block => ({ kind: "assistant", id: `b${++n}`, text, done: true });
const summary = (): Block => ({
  kind: "compaction",
  id: `b${++n}`,
  folded: null,
  summaryChars: 10,
  failed: false,
  beforeChars: null,
  afterChars: null,
  summary: "the summary",
});
const change = (path: string, over: Partial<FileChange> = {}): FileChange => ({
  path,
  before: "kept",
  after: "present",
  by: "write_file",
  ...over,
});
const cp = (turn: number, prompt: string, paths: string[] = ["/ws/a.ts"]): CheckpointTurn => ({
  turn,
  prompt,
  changes: paths.map((p) => change(p)),
});

const shape = (blocks: Block[], turns: CheckpointTurn[]) => {
  const r = mergeTurns(blocks, turns);
  return { rows: r.rows.map((x) => [x.turn, x.prompt, x.changes.length, x.folded]), partial: r.partial };
};

describe("mergeTurns", () => {
  it.each<[string, Block[], CheckpointTurn[], ReturnType<typeof shape>]>([
    ["no turns", [], [], { rows: [], partial: false }],
    [
      "every prompt, newest first, with the files of those that changed some",
      [user("one"), reply("ok"), user("two\nsecond line"), user("three")],
      [cp(1, "one"), cp(3, "three", ["/ws/a.ts", "/ws/b.ts"])],
      {
        rows: [
          [3, "three", 2, false],
          [2, "two", 0, false],
          [1, "one", 1, false],
        ],
        partial: false,
      },
    ],
    [
      "a steer is part of the turn it steered, as the engine counts",
      [user("one"), steer("also this"), user("two")],
      [cp(2, "two")],
      {
        rows: [
          [2, "two", 1, false],
          [1, "one", 0, false],
        ],
        partial: false,
      },
    ],
    [
      "a transcript rebuilt after compaction is numbered from the checkpointed prompts; earlier turns are folded",
      [summary(), user("four"), user("five")],
      [cp(2, "two"), cp(5, "five")],
      {
        rows: [
          [5, "five", 1, false],
          [4, "four", 0, false],
          [2, "two", 1, true],
        ],
        partial: false,
      },
    ],
    [
      "without an anchor, a rebuilt transcript lists only the checkpointed turns",
      [summary(), user("four")],
      [cp(2, "two")],
      { rows: [[2, "two", 1, false]], partial: true },
    ],
    [
      "a live compaction keeps the earlier prompts: numbered from 1",
      [user("one"), summary(), user("two")],
      [],
      {
        rows: [
          [2, "two", 0, false],
          [1, "one", 0, false],
        ],
        partial: false,
      },
    ],
    [
      "a checkpointed turn without a prompt in the transcript keeps the engine's",
      [user("one")],
      [cp(2, "from the engine")],
      {
        rows: [
          [2, "from the engine", 1, false],
          [1, "one", 0, false],
        ],
        partial: false,
      },
    ],
  ])("%s", (_name, blocks, turns, expected) => {
    expect(shape(blocks, turns)).toEqual(expected);
  });

  it("compares prompts by their first line, cut at 80 characters as the engine cuts them", () => {
    const long = "x".repeat(100);
    const r = mergeTurns([summary(), user(`${long}\nmore`)], [cp(7, `${"x".repeat(79)}…`)]);
    expect(r.partial).toBe(false);
    expect(r.rows.map((x) => x.turn)).toEqual([7]);
  });
});

describe("keepExistingTurns", () => {
  const turns = [cp(1, "one"), cp(2, "two"), cp(3, "three")];
  it.each<[string, Block[], number[]]>([
    ["all prompts still there", [user("one"), user("two"), user("three")], [1, 2, 3]],
    ["the conversation back to before turn 2", [user("one")], [1]],
    ["cleared", [], []],
    ["rebuilt after compaction without an anchor: unknown, all kept", [summary(), user("nine")], [1, 2, 3]],
  ])("%s", (_name, blocks, kept) => {
    expect(keepExistingTurns(blocks, turns).map((t) => t.turn)).toEqual(kept);
  });

  it("returns the same list when nothing is dropped (the view caches by identity)", () => {
    expect(keepExistingTurns([user("one"), user("two"), user("three")], turns)).toBe(turns);
  });
});

describe("helpers", () => {
  it("withPrompts keeps the known prompts of a list read from the store", () => {
    expect(withPrompts([cp(1, ""), cp(4, "")], [cp(1, "one")]).map((t) => t.prompt)).toEqual(["one", ""]);
  });

  it.each<[Partial<FileChange>, string]>([
    [{ before: "kept", after: "present" }, "M"],
    [{ before: "too-large", after: "present" }, "M"],
    [{ before: "absent", after: "present" }, "A"],
    [{ before: "kept", after: "absent" }, "D"],
    [{ before: "absent", after: "absent" }, "~"],
  ])("changeMark %o is %s", (over, mark) => {
    expect(changeMark(change("/ws/a", over))).toBe(mark);
  });

  it("displayPath is relative inside the workspace", () => {
    expect(displayPath("/ws/src/a.ts", "/ws")).toBe("src/a.ts");
    expect(displayPath("/ws/src/a.ts", "/ws/")).toBe("src/a.ts");
    expect(displayPath("/wsx/a.ts", "/ws")).toBe("/wsx/a.ts");
    expect(displayPath("/tmp/a.ts", null)).toBe("/tmp/a.ts");
  });

  it("filesFrom lists the files of a turn and the later ones once, with the state they go back to", () => {
    const large: CheckpointTurn = {
      turn: 3,
      prompt: "3",
      changes: [change("/ws/c"), change("/ws/b", { before: "too-large" })],
    };
    const rows = mergeTurns(
      [user("1"), user("2"), user("3")],
      [
        cp(1, "1", ["/ws/a"]),
        { turn: 2, prompt: "2", changes: [change("/ws/b", { before: "absent" }), change("/ws/a")] },
        large,
      ],
    ).rows;
    expect(filesFrom(rows, 2).map((c) => [c.path, c.before])).toEqual([
      ["/ws/b", "absent"],
      ["/ws/a", "kept"],
      ["/ws/c", "kept"],
    ]);
    expect(filesFrom(rows, 3).map((c) => [c.path, c.before])).toEqual([
      ["/ws/c", "kept"],
      ["/ws/b", "too-large"],
    ]);
    expect(filesFrom(rows, 4)).toEqual([]);
  });
});
