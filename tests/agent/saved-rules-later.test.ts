// The workspace's saved "always" rules are judged by the command classifier, which a new task no
// longer loads (issue 35: it stayed out of the UI's first frame): they join the task's rules once
// it has loaded, a task added later gets them at once, and a removal waits for them.
import { expect, it } from "vitest";
import { settleSaved, type GateState } from "../../src/agent/gate.js";
import { newRemembered } from "../../src/sandbox/remembered.js";

const state = (saved: GateState["saved"]): GateState => ({
  approval: "on-request",
  mode: "default",
  remembered: newRemembered(),
  ...(saved ? { saved } : {}),
});

it("adds saved rules as an answer would have (a prefix, a dangerous command exactly, a tool, edits)", async () => {
  const s = state([
    { command: "npm run build" },
    { command: "git reset --hard" },
    { tool: "mcp__db__query" },
    { edits: true },
  ]);
  expect(s.remembered.prefixes.size).toBe(0);
  await expect(settleSaved(s)).resolves.toBe(true);
  expect([...s.remembered.prefixes]).toEqual(["npm run build"]);
  expect([...s.remembered.commands]).toEqual(["git reset --hard"]);
  expect([...s.remembered.tools]).toEqual(["mcp__db__query"]);
  expect(s.remembered.allEdits).toBe(true);
  expect(s.saved).toBeUndefined();
  // Settled once: a second call adds nothing and says so.
  await expect(settleSaved(s)).resolves.toBe(false);
});

it("once the classifier is loaded, a later state is settled before the call returns", async () => {
  await settleSaved(state([{ command: "ls" }]));
  const s = state([{ command: "make test" }]);
  void settleSaved(s);
  expect([...s.remembered.prefixes]).toEqual(["make test"]);
});

it("a state with nothing saved needs no classifier", async () => {
  const s = state(undefined);
  await expect(settleSaved(s)).resolves.toBe(false);
  expect(s.remembered.prefixes.size + s.remembered.commands.size).toBe(0);
});
