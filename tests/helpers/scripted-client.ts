// An in-process model client that replays a script: fast, deterministic engine tests.
import type { ChatMessage } from "../../src/protocol/messages.js";
import type { ModelClient, ModelOutcome, ModelRequest, StreamHandlers } from "../../src/agent/model-client.js";

export type Step = ModelOutcome | ((req: ModelRequest, h: StreamHandlers) => Promise<ModelOutcome>);

export class ScriptedClient implements ModelClient {
  requests: ModelRequest[] = [];
  snapshots: ChatMessage[][] = [];
  constructor(private readonly steps: Step[]) {}
  push(...steps: Step[]): void {
    this.steps.push(...steps);
  }
  async complete(req: ModelRequest, h: StreamHandlers): Promise<ModelOutcome> {
    this.requests.push(req);
    this.snapshots.push(structuredClone(req.messages));
    const step = this.steps.shift();
    if (!step) throw new Error("script exhausted");
    return typeof step === "function" ? step(req, h) : step;
  }
}

export const reply = (content: string, toolCalls: { name: string; args: unknown }[] = []): ModelOutcome => ({
  ok: true,
  reply: {
    content,
    reasoning: "",
    toolCalls: toolCalls.map((c, i) => ({ id: `c${i}`, name: c.name, arguments: JSON.stringify(c.args) })),
    finishReason: toolCalls.length ? "tool_calls" : "stop",
    usage: { prompt: 10, completion: 2 },
  },
});

export const fail = (status: number | undefined, message = "err"): ModelOutcome => ({
  ok: false,
  error: { status, message, aborted: false, retryAfterMs: undefined },
});
