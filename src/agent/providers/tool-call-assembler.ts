// Tool calls assembled from chat-completions stream deltas, which providers fragment differently.
import type { AssembledToolCall } from "../model-client.js";

export interface DeltaToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

/** Assembles tool calls from stream deltas: keyed by index, or by id when a provider omits it. */
export class ToolCallAssembler {
  private readonly calls: AssembledToolCall[] = [];
  private readonly byIndex = new Map<number, AssembledToolCall>();

  add(delta: DeltaToolCall): void {
    let call = delta.index !== undefined ? this.byIndex.get(delta.index) : undefined;
    if (!call && delta.index === undefined && delta.id) call = this.calls.find((c) => c.id === delta.id);
    if (!call && delta.index === undefined && !delta.id) call = this.calls[this.calls.length - 1];
    if (!call) {
      call = { id: delta.id ?? "", name: "", arguments: "" };
      this.calls.push(call);
      if (delta.index !== undefined) this.byIndex.set(delta.index, call);
    }
    if (delta.id && !call.id) call.id = delta.id;
    const name = delta.function?.name;
    if (name) call.name = name.startsWith(call.name) ? name : call.name + name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
  }

  result(): AssembledToolCall[] {
    return this.calls.map((c, i) => ({ ...c, id: c.id || `call_${i + 1}` }));
  }
}
