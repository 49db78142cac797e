// Runs one tool through a real registry, as the engine would, and returns its result and events.
import type { BusEvent } from "../../src/protocol/events.js";
import type { AnyTool, SessionTools, ToolReport } from "../../src/tools/define.js";
import { ToolRegistry, type ExecuteEnv, type ToolCallResult } from "../../src/tools/registry.js";
import { testGate } from "./gate.js";

/** What a call may carry besides the workspace and signal: session state, sandbox, boundary, the editor's files. */
/** `emit` sees each event as it happens (they are also returned, all at the end). */
export type CallExtras = Partial<
  Pick<ExecuteEnv, "session" | "sandbox" | "boundary" | "gate" | "editorFiles" | "emit">
>;

export async function callTool(
  tool: AnyTool,
  args: unknown,
  workspace: string,
  signal: AbortSignal = new AbortController().signal,
  extras: CallExtras = {},
): Promise<ToolCallResult & { events: BusEvent[] }> {
  const events: BusEvent[] = [];
  const registry = new ToolRegistry([tool]);
  const { emit, ...rest } = extras;
  const result = await registry.execute(
    { id: "t", name: tool.name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
    {
      workspace,
      taskId: "test",
      signal,
      emit: (e) => {
        events.push(e);
        emit?.(e);
      },
      gate: testGate({ workspace }),
      ...rest,
    },
  );
  return { ...result, events };
}

/** A session as the engine makes one, recording reports; `close()` runs the cleanups as the engine does. */
export function testSession(): { session: SessionTools; reports: ToolReport[]; close(): Promise<void> } {
  const reports: ToolReport[] = [];
  const cleanups: (() => void | Promise<void>)[] = [];
  return {
    session: { store: new Map(), report: (r) => void reports.push(r), onClose: (c) => void cleanups.push(c) },
    reports,
    close: async () => {
      for (const cleanup of cleanups.splice(0)) await cleanup();
    },
  };
}
