// The one key dispatcher: every input event goes to the layers (overlays, dialogs, the focused
// pane, global shortcuts) in priority order until one consumes it.
import type { InputEvent } from "./keys.js";

export interface KeyLayer {
  /** Shown in error reports and `layers`. */
  name: string;
  /** Higher runs first; among equal priorities the most recently pushed runs first. */
  priority: number;
  /** Return true to consume the event; anything else passes it on. */
  handle(event: InputEvent): boolean;
}

export interface KeyDispatcherOptions {
  /** Called when a layer throws; the event then goes on to the next layer. Default: ignore. */
  onError?: (error: unknown, layer: string, event: InputEvent) => void;
}

interface Entry {
  layer: KeyLayer;
  seq: number;
}

/**
 * Contract: `dispatch` never throws, calls layers synchronously, and sees the layer set as it
 * was when the dispatch began (a layer pushed or removed by a handler affects the next event).
 */
export class KeyDispatcher {
  private entries: Entry[] = [];
  private seq = 0;
  private readonly onError: (error: unknown, layer: string, event: InputEvent) => void;

  constructor(options: KeyDispatcherOptions = {}) {
    this.onError = options.onError ?? (() => {});
  }

  /** Adds a layer; returns its remover (safe to call more than once). */
  push(layer: KeyLayer): () => void {
    const entry: Entry = { layer, seq: this.seq++ };
    // Kept sorted so dispatch is a plain walk: priority descending, then newest first.
    this.entries = [...this.entries, entry].sort((a, b) => b.layer.priority - a.layer.priority || b.seq - a.seq);
    return () => {
      this.entries = this.entries.filter((e) => e !== entry);
    };
  }

  /** True when a layer consumed the event. */
  dispatch(event: InputEvent): boolean {
    for (const { layer } of this.entries) {
      try {
        if (layer.handle(event) === true) return true;
      } catch (error) {
        try {
          this.onError(error, layer.name, event);
        } catch {
          // An error reporter that throws must not take input down with it.
        }
      }
    }
    return false;
  }

  /** Layer names in dispatch order, for debugging and tests. */
  get layers(): readonly string[] {
    return this.entries.map((e) => e.layer.name);
  }
}
