// The in-process bus: synchronous fan-out of events to subscribers and of commands to handlers.
import type { BusCommand } from "./commands.js";
import type { BusEvent } from "./events.js";

export type EventHandler = (event: BusEvent) => void;
export type CommandHandler = (command: BusCommand) => void;

export interface BusOptions {
  /** Events kept for the first subscriber when none is attached yet. Default 1000; the oldest are dropped. */
  bufferCap?: number;
  /** Called when a handler throws; the throw is never re-raised into the emitter. Default: ignore. */
  onHandlerError?: (error: unknown, what: BusEvent | BusCommand) => void;
}

/**
 * Contract: `emit` and `send` never throw and call handlers synchronously in subscription order.
 * Events emitted before the first subscriber are buffered (capped) and replayed to it.
 */
export class Bus {
  private readonly eventHandlers = new Set<EventHandler>();
  private readonly commandHandlers = new Set<CommandHandler>();
  private buffer: BusEvent[] | null = [];
  private dropped = 0;
  private readonly bufferCap: number;
  private readonly onHandlerError: (error: unknown, what: BusEvent | BusCommand) => void;

  constructor(options: BusOptions = {}) {
    this.bufferCap = options.bufferCap ?? 1000;
    this.onHandlerError = options.onHandlerError ?? (() => {});
  }

  emit(event: BusEvent): void {
    if (this.buffer) {
      this.buffer.push(event);
      if (this.buffer.length > this.bufferCap) {
        this.buffer.shift();
        this.dropped++;
      }
      return;
    }
    for (const handler of this.eventHandlers) this.call(handler, event);
  }

  /** Subscribe to every event; returns the unsubscribe function. */
  subscribe(handler: EventHandler): () => void {
    this.eventHandlers.add(handler);
    const pending = this.buffer;
    if (pending) {
      this.buffer = null;
      for (const event of pending) this.call(handler, event);
    }
    return () => this.eventHandlers.delete(handler);
  }

  /** Events dropped from the pre-subscriber buffer because it was full. */
  get droppedBeforeSubscribe(): number {
    return this.dropped;
  }

  send(command: BusCommand): void {
    for (const handler of this.commandHandlers) this.call(handler, command);
  }

  onCommand(handler: CommandHandler): () => void {
    this.commandHandlers.add(handler);
    return () => this.commandHandlers.delete(handler);
  }

  private call<T extends BusEvent | BusCommand>(handler: (x: T) => void, value: T): void {
    try {
      handler(value);
    } catch (error) {
      try {
        this.onHandlerError(error, value);
      } catch {
        // An error reporter that throws must not reach the emitter either.
      }
    }
  }
}
