// Our chat history as Responses API input: the same internal messages as chat completions, so
// sessions, compaction, export and subagents do not care which wire ran. Pure, table-tested.
import type { ChatMessage, ContentPart } from "../../protocol/messages.js";
import type { OpenAITool } from "../../tools/registry.js";

/** One Responses input item, as it goes on the wire (the SDK's input union, narrowed to what we send). */
export type InputItem =
  | {
      type: "message";
      role: "user" | "developer";
      content: (
        | { type: "input_text"; text: string }
        | { type: "input_image"; image_url: string; detail: "auto" | "low" | "high" }
      )[];
    }
  /** An earlier answer, sent back as the output message it was (no id: `store: false` keeps none). */
  | {
      type: "message";
      role: "assistant";
      status: "completed";
      content: { type: "output_text"; text: string; annotations: [] }[];
    }
  | { type: "function_call"; call_id: string; name: string; arguments: string }
  | { type: "function_call_output"; call_id: string; output: string }
  /** Encrypted reasoning of an earlier step, sent back unchanged so the model keeps its thread. */
  | { type: "reasoning"; id: string; encrypted_content: string; summary: { type: "summary_text"; text: string }[] };

export interface ResponsesFunctionTool {
  type: "function";
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** Our schemas allow optional keys, which strict mode refuses. */
  strict: false;
}

function userContent(content: string | ContentPart[]): Extract<InputItem, { role: "user" | "developer" }>["content"] {
  if (typeof content === "string") return [{ type: "input_text", text: content }];
  return content.map((p) =>
    p.type === "text"
      ? { type: "input_text", text: p.text }
      : { type: "input_image", image_url: p.image_url.url, detail: p.image_url.detail ?? "auto" },
  );
}

/**
 * Contract: the leading system messages become `instructions`; a later one (a compaction note)
 * a developer message. Reasoning items of other wires (Anthropic thinking) are dropped, and
 * `reasoning_content` kept for the transcript is never sent back.
 */
export function responsesInput(messages: ChatMessage[]): { instructions: string | undefined; input: InputItem[] } {
  const system: string[] = [];
  const input: InputItem[] = [];
  for (const m of messages) {
    switch (m.role) {
      case "system":
        if (input.length === 0) system.push(m.content);
        else input.push({ type: "message", role: "developer", content: [{ type: "input_text", text: m.content }] });
        break;
      case "user":
        input.push({ type: "message", role: "user", content: userContent(m.content) });
        break;
      case "assistant":
        for (const r of m.reasoning_items ?? []) {
          if (r.type !== "openai.reasoning") continue;
          input.push({
            type: "reasoning",
            id: r.id,
            encrypted_content: r.encrypted_content,
            summary: (r.summary ?? []).map((text) => ({ type: "summary_text", text })),
          });
        }
        if (m.content)
          input.push({
            type: "message",
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: m.content, annotations: [] }],
          });
        for (const c of m.tool_calls ?? [])
          input.push({ type: "function_call", call_id: c.id, name: c.function.name, arguments: c.function.arguments });
        break;
      case "tool":
        input.push({ type: "function_call_output", call_id: m.tool_call_id, output: m.content });
        break;
      default:
        m satisfies never;
    }
  }
  return { instructions: system.length ? system.join("\n\n") : undefined, input };
}

export function responsesTools(tools: OpenAITool[]): ResponsesFunctionTool[] {
  return tools.map((t) => ({
    type: "function",
    name: t.function.name,
    description: t.function.description,
    parameters: t.function.parameters,
    strict: false,
  }));
}
