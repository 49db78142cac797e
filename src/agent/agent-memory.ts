// Long-term memory around a turn: the retrieved block placed next to each prompt, and the
// distillation after a completed turn, which runs after the turn (the user can go on) and which
// closing waits for a little, never long.
import type { ChatMessage } from "../protocol/messages.js";
import type { EventBody } from "./agent-core.js";
import type { MemoryHooks } from "./agent-types.js";
import { dropMemoryBlocks } from "./history-edit.js";

export class TurnMemory {
  private readonly hooks: MemoryHooks;
  private readonly emit: (body: EventBody) => void;
  /** End-of-turn distillations still running (one after another). */
  private distilling: Promise<void> = Promise.resolve();
  /** Aborted when closing stops waiting for the distillations: their model requests end too. */
  private readonly abort = new AbortController();
  private hurried = false;
  private hurry: () => void = () => {};

  constructor(hooks: MemoryHooks, emit: (body: EventBody) => void) {
    this.hooks = hooks;
    this.emit = emit;
  }

  /** Replaces the previous turn's memory block with this prompt's (never accumulated). */
  async place(messages: ChatMessage[], prompt: string): Promise<void> {
    dropMemoryBlocks(messages);
    const { block, ids } = await this.hooks.retrieve(prompt);
    if (!block) return;
    messages.push({ role: "user", content: block });
    this.emit({ type: "memory.retrieved", count: ids.length, ids });
  }

  /** Queues the distillation of a completed turn's messages (after the ones queued before). */
  learn(turn: ChatMessage[]): void {
    this.distilling = this.distilling.then(async () => {
      const saved = await this.hooks.distill(turn, this.abort.signal);
      if (saved.length > 0) this.emit({ type: "notice", level: "info", text: `remembered: ${saved.join("; ")}` });
    });
  }

  /** The program is ending (a signal): closing no longer waits for a distillation. */
  hurryUp(): void {
    this.hurried = true;
    this.hurry();
  }

  /** Waits up to `waitMs` for the distillations, then aborts what still runs. */
  async settle(waitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const hurried = new Promise<void>((resolve) => (this.hurry = resolve));
    if (this.hurried) this.hurry();
    await Promise.race([this.distilling, hurried, new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    this.abort.abort();
  }
}
