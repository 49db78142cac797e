// Resuming a turn whose daemon died (issue 34, item 2): the lost step is put back from the turn's
// events with every call answered, a running call as interrupted; nothing is run again.
import { describe, expect, it } from "vitest";
import { INTERRUPTED_RESULT, interruptedPrompt, resumeHistory } from "../../src/daemon/team/resume.js";
import type { BusEvent } from "../../src/protocol/events.js";

const t = "s";
const stored = (messages: object[]) => JSON.stringify({ version: 1, messages });
const started: BusEvent = { type: "turn.started", taskId: t, turnId: "u", prompt: "go" };
const saved: BusEvent = { type: "session.saved", taskId: t, sessionFile: "f", messages: 2 };
const step = (n: number): BusEvent => ({ type: "step.started", taskId: t, turnId: "u", step: n }) as BusEvent;
const call = (id: string, name = "run_command"): BusEvent =>
  ({ type: "tool.started", taskId: t, callId: id, name, kind: "exec", args: { command: id }, summary: id }) as BusEvent;
const done = (id: string, forModel: string): BusEvent =>
  ({
    type: "tool.completed",
    taskId: t,
    callId: id,
    name: "run_command",
    status: "ok",
    forModel,
    display: "",
  }) as BusEvent;
const said = (text: string): BusEvent => ({ type: "assistant.completed", taskId: t, text, toolCalls: 2 }) as BusEvent;

describe("resumeHistory", () => {
  it("puts the lost step back: a finished call keeps its result, a running one is answered as interrupted", () => {
    const text = stored([
      { role: "system", content: "s" },
      { role: "user", content: "go" },
    ]);
    const r = resumeHistory(text, [
      started,
      step(1),
      said("two calls"),
      saved,
      call("a"),
      call("b"),
      done("a", "A-OUT"),
    ]);
    expect(r.promptKept).toBe(true);
    expect(r.interrupted).toEqual(["run_command (b)"]);
    const messages = JSON.parse(r.text!).messages;
    expect(messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: "two calls",
        tool_calls: [
          { id: "a", type: "function", function: { name: "run_command", arguments: '{"command":"a"}' } },
          { id: "b", type: "function", function: { name: "run_command", arguments: '{"command":"b"}' } },
        ],
      },
      { role: "tool", tool_call_id: "a", content: "A-OUT" },
      { role: "tool", tool_call_id: "b", content: INTERRUPTED_RESULT },
    ]);
    expect(interruptedPrompt("go", r.interrupted, r.promptKept)).toMatch(/did not finish .*: run_command \(b\)\./);
  });

  it("changes nothing when the step was stored, and runs the prompt again when it never reached the store", () => {
    const text = stored([
      { role: "user", content: "go" },
      { role: "tool", tool_call_id: "a", content: "x" },
    ]);
    expect(resumeHistory(text, [started, saved, step(1), call("a"), done("a", "x"), saved])).toEqual({
      text: null,
      interrupted: [],
      promptKept: true,
    });
    // Only steps of the newest step.started count: an earlier step's calls are in the history.
    expect(resumeHistory(text, [started, saved, step(1), call("z"), step(2)]).text).toBeNull();
    expect(resumeHistory(null, [started, step(1), call("a")])).toEqual({
      text: null,
      interrupted: [],
      promptKept: false,
    });
    expect(resumeHistory(text, [started, step(1), call("a")]).promptKept).toBe(false);
    expect(interruptedPrompt("go", [], false)).toBe("go");
    // A subagent's calls are its own turn's business.
    const sub = { ...call("q"), agentId: "agent-1" } as BusEvent;
    expect(resumeHistory(text, [started, saved, step(1), sub]).text).toBeNull();
  });
});
