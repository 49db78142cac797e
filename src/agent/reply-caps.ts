// How much of one model reply is kept: an answer, its reasoning and each tool call's arguments are
// capped, so an endless stream ends with a clear error instead of exhausting memory.

export interface ReplyCaps {
  /** Characters of assistant text (128k output tokens are ~500k characters: twice that is a runaway). */
  answerChars: number;
  reasoningChars: number;
  /** Characters of one tool call's arguments (name included). */
  argumentsChars: number;
}

export const REPLY_CAPS: ReplyCaps = { answerChars: 1_000_000, reasoningChars: 1_000_000, argumentsChars: 1_000_000 };

/** What a capped reply lost: the stream was cut there and the rest never read. */
export interface ReplyCut {
  what: "answer" | "reasoning" | "arguments";
  limit: number;
}

export function describeCut(cut: ReplyCut): string {
  const what =
    cut.what === "arguments" ? "a tool call's arguments" : cut.what === "answer" ? "the answer" : "the reasoning";
  return `${what} passed the cap of ${cut.limit.toLocaleString("en-US")} characters and the reply was cut there`;
}

interface WholeReply {
  content: string;
  reasoning: string;
  toolCalls: { name: string; arguments: string }[];
  finishReason: string | undefined;
  cut?: ReplyCut;
}

/** A whole (non-streamed) reply held to the same caps as a stream: one that passes a cap is cut there, its calls incomplete. */
export function capWholeReply<R extends WholeReply>(reply: R, caps: ReplyCaps): R {
  if (reply.content.length > caps.answerChars) {
    reply.content = reply.content.slice(0, caps.answerChars);
    reply.cut = { what: "answer", limit: caps.answerChars };
  } else if (reply.reasoning.length > caps.reasoningChars) {
    reply.reasoning = reply.reasoning.slice(0, caps.reasoningChars);
    reply.cut = { what: "reasoning", limit: caps.reasoningChars };
  } else if (reply.toolCalls.some((c) => c.arguments.length + c.name.length > caps.argumentsChars)) {
    for (const c of reply.toolCalls) c.arguments = c.arguments.slice(0, caps.argumentsChars);
    reply.cut = { what: "arguments", limit: caps.argumentsChars };
  }
  if (reply.cut) reply.finishReason = "length";
  return reply;
}
