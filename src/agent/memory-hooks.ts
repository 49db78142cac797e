// The engine's side of long-term memory: the block retrieved for each prompt, and the
// distillation model call after a completed turn, both silent on failure.
import { log } from "../config/log.js";
import { distillRequest, parseDistilled } from "../memory/distill.js";
import type { MemoryStore } from "../memory/store.js";
import { memoryBlock } from "../memory/tools.js";
import type { BusEvent } from "../protocol/events.js";
import type { ModelClient } from "./model-client.js";
import type { MemoryHooks } from "./agent.js";

export interface MemoryHookOptions {
  store: MemoryStore;
  client: ModelClient;
  /** The model to distill with: the task's current one. */
  model: () => string;
  topK: number;
  distill: boolean;
  workspace: string;
  emit(event: BusEvent): void;
}

export function memoryHooks(opts: MemoryHookOptions): MemoryHooks {
  let warned = false;
  const warnOnce = () => {
    if (warned || !opts.store.lastWarning) return;
    warned = true;
    opts.emit({ type: "notice", taskId: "", level: "warn", text: opts.store.lastWarning });
  };
  return {
    async retrieve(prompt) {
      try {
        const results = await opts.store.search(prompt, opts.topK);
        warnOnce();
        return { block: memoryBlock(results), ids: results.map((r) => r.entry.id) };
      } catch (error) {
        log("warn", "memory retrieval failed", error);
        return { block: "", ids: [] };
      }
    },
    async distill(turn, signal) {
      if (!opts.distill) return [];
      try {
        const existing = await opts.store.list();
        const outcome = await opts.client.complete(
          {
            model: opts.model(),
            messages: distillRequest(turn, existing),
            tools: [],
            stream: false,
            thinking: "off",
            signal: signal ? AbortSignal.any([AbortSignal.timeout(120_000), signal]) : AbortSignal.timeout(120_000),
          },
          { onText: () => {}, onReasoning: () => {} },
        );
        if (!outcome.ok) return [];
        const saved: string[] = [];
        for (const item of parseDistilled(outcome.reply.content)) {
          const { duplicate } = await opts.store.save(item.kind, item.text, opts.workspace);
          if (!duplicate) saved.push(`${item.kind}: ${item.text}`);
        }
        return saved;
      } catch (error) {
        log("warn", "memory distillation failed", error);
        return [];
      }
    },
  };
}
