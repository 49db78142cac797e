// Single-line fields are ink-text-input components (components/TextField.tsx). The terminal has one
// reader, ours (app/input.ts → KeyParser → Controller), and Ink is given an inert stdin, so a
// field receives only the keys the controller routes to it, as the raw sequences Ink's `useInput`
// parses. Keys that arrive before the field has mounted (typed in the burst that opened its
// dialog) wait here until it does.
import type { InputEvent } from "./keys.js";

/** Takes one raw input sequence for the mounted field. */
export type FieldSink = (sequence: string) => void;

/** More keys than a burst holds before a field mounts; past it the oldest are dropped. */
const maxPending = 4096;

export class FieldRouter {
  private sink: FieldSink | null = null;
  private pending: InputEvent[] = [];

  /** @param redispatch where keys typed after an Enter that waited go: to the controller again. */
  constructor(private readonly redispatch: (event: InputEvent) => void) {}

  /** The focused field takes the keys from now on (and any that waited); returns its detach. */
  attach(sink: FieldSink): () => void {
    this.sink = sink;
    const waiting = this.pending;
    this.pending = [];
    for (const [i, event] of waiting.entries()) {
      const sequence = fieldSequence(event) ?? "";
      sink(sequence);
      // Enter may have closed the field's dialog: what followed goes where the focus is now.
      if (sequence === "\r") {
        for (const rest of waiting.slice(i + 1)) this.redispatch(rest);
        break;
      }
    }
    return () => {
      if (this.sink === sink) this.sink = null;
    };
  }

  /** True when `event` edits or submits a line, and so went (or waits to go) to the field. */
  route(event: InputEvent): boolean {
    const sequence = fieldSequence(event);
    if (sequence === null) return false;
    if (this.sink) this.sink(sequence);
    else {
      this.pending.push(event);
      if (this.pending.length > maxPending) this.pending.shift();
    }
    return true;
  }

  /** Forgets keys meant for a field that will not mount now (its dialog closed first). */
  drop(): void {
    this.pending = [];
  }
}

/**
 * The sequence ink-text-input understands for `event`, or null for keys it would get wrong: it
 * inserts the letter of a Ctrl or Alt chord, and it treats Delete as Backspace, so those stay with
 * the dialog. A paste becomes one line without control characters.
 */
export function fieldSequence(event: InputEvent): string | null {
  if (event.kind === "paste") {
    const line = event.text.replace(/\r?\n/g, " ").replace(/[\x00-\x1f\x7f]/g, "");
    return line || null;
  }
  const { key } = event;
  if (key.ctrl || key.alt) return null;
  if (key.text !== undefined) return key.text;
  switch (key.name) {
    case "backspace":
      return "\b";
    case "left":
      return "\x1b[D";
    case "right":
      return "\x1b[C";
    case "enter":
      return "\r";
    default:
      return null;
  }
}
