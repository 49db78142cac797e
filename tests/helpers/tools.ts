// Runs one tool through a real registry, as the engine would, and returns its result and events.
import type { BusEvent } from "../../src/protocol/events.js";
import type { AnyTool } from "../../src/tools/define.js";
import { ToolRegistry, type ToolCallResult } from "../../src/tools/registry.js";

export async function callTool(
  tool: AnyTool,
  args: unknown,
  workspace: string,
  signal: AbortSignal = new AbortController().signal,
): Promise<ToolCallResult & { events: BusEvent[] }> {
  const events: BusEvent[] = [];
  const registry = new ToolRegistry([tool]);
  const result = await registry.execute(
    { id: "t", name: tool.name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
    { workspace, taskId: "test", signal, emit: (e) => events.push(e) },
  );
  return { ...result, events };
}
