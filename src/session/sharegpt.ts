// Sessions as training trajectories in the ShareGPT layout Hermes uses: one JSON object per line,
// tool calls and results inside the text as <tool_call> / <tool_response> blocks.
import { createWriteStream, promises as fs } from "node:fs";
import { once } from "node:events";
import { basename, dirname, join } from "node:path";
import { randomId } from "../protocol/ids.js";
import { redact } from "../config/log.js";
import type { ChatMessage, ContentPart } from "../protocol/messages.js";
import { readSessionFile } from "./search.js";
import type { SessionData } from "./store.js";

export type ShareGptFrom = "system" | "human" | "gpt" | "tool";

export interface ShareGptRecord {
  conversations: { from: ShareGptFrom; value: string }[];
  /** When the session was last saved. */
  timestamp: string;
  model: string;
  /** Whether the last turn in the record ended with an assistant reply that calls no tools. */
  completed: boolean;
  /** The session id. */
  session: string;
}

export interface ShareGptOptions {
  /**
   * "session" (default): one record per session. "turn": one record per user turn, each with the
   * system messages before the first turn (prompt, compaction summary) and that turn alone, so
   * completed and failed turns can be kept apart.
   */
  split?: "session" | "turn";
}

type Assistant = Extract<ChatMessage, { role: "assistant" }>;
type Tool = Extract<ChatMessage, { role: "tool" }>;

function userText(content: string | ContentPart[]): string {
  if (typeof content === "string") return content;
  return content.map((p) => (p.type === "text" ? p.text : "[image]")).join("\n");
}

/** Arguments as JSON when they parse (as Hermes writes them), else the string the model sent. */
function parsedArguments(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function gptValue(m: Assistant): string {
  const parts: string[] = [];
  if (m.reasoning_content?.trim()) parts.push(`<think>\n${m.reasoning_content}\n</think>`);
  if (m.content?.trim()) parts.push(m.content);
  for (const call of m.tool_calls ?? []) {
    parts.push(
      `<tool_call>\n${JSON.stringify({ name: call.function.name, arguments: parsedArguments(call.function.arguments) })}\n</tool_call>`,
    );
  }
  return parts.join("\n");
}

function toolValue(results: Tool[], names: Map<string, string>): string {
  return results
    .map(
      (r) =>
        `<tool_response>\n${JSON.stringify({ tool_call_id: r.tool_call_id, name: names.get(r.tool_call_id) ?? "unknown", content: r.content })}\n</tool_response>`,
    )
    .join("\n");
}

/** The conversation in ShareGPT turns; consecutive tool results become one "tool" turn. */
function conversations(messages: ChatMessage[]): ShareGptRecord["conversations"] {
  const out: ShareGptRecord["conversations"] = [];
  const names = new Map<string, string>();
  let pending: Tool[] = [];
  const flush = () => {
    if (pending.length > 0) out.push({ from: "tool", value: redact(toolValue(pending, names)) });
    pending = [];
  };
  for (const m of messages) {
    if (m.role === "tool") {
      pending.push(m);
      continue;
    }
    flush();
    switch (m.role) {
      case "system":
        out.push({ from: "system", value: redact(m.content) });
        break;
      case "user":
        out.push({ from: "human", value: redact(userText(m.content)) });
        break;
      case "assistant":
        for (const call of m.tool_calls ?? []) names.set(call.id, call.function.name);
        out.push({ from: "gpt", value: redact(gptValue(m)) });
        break;
      default:
        m satisfies never;
    }
  }
  flush();
  return out;
}

const endsCompleted = (turn: ChatMessage[]) => {
  const last = turn[turn.length - 1];
  return last?.role === "assistant" && (last.tool_calls ?? []).length === 0;
};

/**
 * Contract: pure. A session without a user message gives no record. Messages before the first
 * user message other than system ones (the tail of a turn cut by compaction) are kept in a
 * "session" record and dropped from "turn" records, which must start with the human.
 */
export function toShareGpt(data: SessionData, opts: ShareGptOptions = {}): ShareGptRecord[] {
  const firstUser = data.messages.findIndex((m) => m.role === "user");
  if (firstUser < 0) return [];
  const record = (messages: ChatMessage[], completed: boolean): ShareGptRecord => ({
    conversations: conversations(messages),
    timestamp: data.updatedAt,
    model: data.model,
    completed,
    session: data.id,
  });
  if ((opts.split ?? "session") === "session") return [record(data.messages, endsCompleted(data.messages))];
  const preamble = data.messages.slice(0, firstUser).filter((m) => m.role === "system");
  const records: ShareGptRecord[] = [];
  let start = firstUser;
  for (let i = firstUser + 1; i <= data.messages.length; i++) {
    if (i < data.messages.length && data.messages[i]!.role !== "user") continue;
    const turn = data.messages.slice(start, i);
    records.push(record([...preamble, ...turn], endsCompleted(turn)));
    start = i;
  }
  return records;
}

export interface ExportSummary {
  records: number;
  completed: number;
  failed: number;
  /** Files that could not be read as sessions; nothing was written for them. */
  skipped: string[];
}

/**
 * Writes the sessions in `files` as ShareGPT JSONL to `out` (a path, replaced; or a stream, left
 * open). A path is written as a new temporary file beside it, renamed over it at the end: a link
 * at `out` is replaced, never written through, and a failed export leaves what was there.
 * Contract: a missing or invalid file is listed in `skipped`, never thrown.
 */
export async function exportSessions(
  files: string[],
  out: NodeJS.WritableStream | string,
  opts: ShareGptOptions = {},
): Promise<ExportSummary> {
  const temp = typeof out === "string" ? join(dirname(out), `.${basename(out)}.${randomId(8)}.tmp`) : null;
  // "wx": made new, so not through a link planted at the temporary name either.
  const sink = temp ? createWriteStream(temp, { mode: 0o600, flags: "wx" }) : null;
  const stream: NodeJS.WritableStream = sink ?? (out as NodeJS.WritableStream);
  // An error between our awaits would otherwise be an unhandled 'error' event.
  let failure: unknown = null;
  const onError = (error: unknown) => void (failure ??= error);
  stream.on("error", onError);
  const check = () => {
    if (failure) throw failure;
  };
  const summary: ExportSummary = { records: 0, completed: 0, failed: 0, skipped: [] };
  try {
    if (sink) await once(sink, "open");
    for (const file of files) {
      const data = await readSessionFile(file);
      if (!data) {
        summary.skipped.push(file);
        continue;
      }
      for (const record of toShareGpt(data, opts)) {
        summary.records++;
        if (record.completed) summary.completed++;
        else summary.failed++;
        if (!stream.write(`${JSON.stringify(record)}\n`)) await once(stream, "drain");
        check();
      }
    }
    if (sink) {
      sink.end();
      await once(sink, "finish");
    }
    check();
    if (temp) await fs.rename(temp, out as string);
  } catch (error) {
    sink?.destroy();
    if (temp) await fs.unlink(temp).catch(() => {});
    throw error;
  } finally {
    stream.off("error", onError);
    if (sink && failure) sink.destroy();
  }
  return summary;
}
