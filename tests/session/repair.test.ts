// A loaded history whose tool calls and results do not pair up is repaired before it is sent.
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { MISSING_RESULT, repairToolPairs } from "../../src/session/repair.js";

const call = (...ids: string[]): ChatMessage => ({
  role: "assistant",
  content: null,
  tool_calls: ids.map((id) => ({ id, type: "function" as const, function: { name: "x", arguments: "{}" } })),
});
const result = (id: string, content = `r ${id}`): ChatMessage => ({ role: "tool", tool_call_id: id, content });

describe("repairToolPairs", () => {
  it("leaves a valid history exactly as it was", () => {
    const messages: ChatMessage[] = [
      { role: "system", content: "s" },
      { role: "user", content: "u" },
      call("a", "b"),
      result("a"),
      result("b"),
      { role: "assistant", content: "done" },
    ];
    const copy = structuredClone(messages);
    expect(repairToolPairs(messages)).toEqual({ added: 0, dropped: 0 });
    expect(messages).toEqual(copy);
  });

  it("gives a dangling call (the session ended mid-step) an [interrupted] result, in call order", () => {
    const messages: ChatMessage[] = [{ role: "user", content: "u" }, call("a", "b", "c"), result("b")];
    expect(repairToolPairs(messages)).toEqual({ added: 2, dropped: 0 });
    expect(messages.slice(1)).toEqual([
      call("a", "b", "c"),
      { role: "tool", tool_call_id: "a", content: MISSING_RESULT },
      result("b"),
      { role: "tool", tool_call_id: "c", content: MISSING_RESULT },
    ]);
  });

  it("drops results without a call and repeated results", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "u" },
      result("z"),
      call("a"),
      result("a"),
      result("a", "again"),
      { role: "user", content: "next" },
      result("a"),
    ];
    expect(repairToolPairs(messages)).toEqual({ added: 0, dropped: 3 });
    expect(messages).toEqual([
      { role: "user", content: "u" },
      call("a"),
      result("a"),
      { role: "user", content: "next" },
    ]);
  });
});
