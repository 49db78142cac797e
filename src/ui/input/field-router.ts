// Single-line fields are ink-text-input components (components/TextField.tsx). The terminal has one
// reader, ours (app/input.ts → KeyParser → Controller), and Ink is given an inert stdin, so a
// field receives only the keys the controller routes to it, as the raw sequences Ink's `useInput`
// parses. The keys of one terminal read go to the field together, just after the read: a run of
// typed text as one insertion (one render, not one per character), in order, at most `perTurn` keys
// per turn of the event loop. Keys that arrive before the field has mounted (typed in the read
// that opened its dialog) wait until it does. A dialog key that depends on the field's text asks
// whether keys are still `pending` for it.
import type { InputEvent } from "./keys.js";

/** Not a key ink-text-input knows: Ctrl-U, which empties the field (TextField does it). */
export const CLEAR_FIELD = "\x15";

/** Takes one raw input sequence (or CLEAR_FIELD) for the mounted field. */
export type FieldSink = (sequence: string) => void;

/** More keys than a burst holds before a field mounts; past it the oldest are dropped. */
const maxPending = 4096;
/**
 * Keys given to the field in one turn of the event loop. Each renders at once; React counts
 * renders that follow one another without a pause and stops at 50.
 */
const perTurn = 16;

interface Queued {
  sequence: string;
  event: InputEvent;
}

export class FieldRouter {
  private sink: FieldSink | null = null;
  private queue: Queued[] = [];
  private scheduled = false;

  /** @param redispatch gives a key typed after Enter back to the controller. */
  constructor(private readonly redispatch: (event: InputEvent) => void) {}

  /** The focused field takes the keys from now on (and any that waited); returns its detach. */
  attach(sink: FieldSink): () => void {
    this.sink = sink;
    // A field attaches from a React effect, where its keys could not render: they go just after.
    this.schedule();
    return () => {
      if (this.sink === sink) this.sink = null;
    };
  }

  /** True when `event` edits or submits a line, and so went (or waits to go) to the field. */
  route(event: InputEvent): boolean {
    const sequence = fieldSequence(event);
    if (sequence === null) return false;
    this.queue.push({ sequence, event });
    if (this.queue.length > maxPending) this.queue.shift();
    this.schedule();
    return true;
  }

  /** Whether keys are in line for the field (its text is not yet what they will make it). */
  get pending(): boolean {
    return this.queue.length > 0;
  }

  /** Forgets keys meant for a field that will not mount now (its dialog closed first). */
  drop(): void {
    this.queue = [];
  }

  private schedule(): void {
    if (this.scheduled || !this.sink) return;
    this.scheduled = true;
    queueMicrotask(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    let given = 0;
    while (this.queue.length > 0 && this.sink && given < perTurn) {
      let sequence = this.queue.shift()!.sequence;
      while (isText(sequence) && this.queue[0] && isText(this.queue[0].sequence))
        sequence += this.queue.shift()!.sequence;
      // Enter may close the field's dialog: what followed goes where the focus is then.
      const after = sequence === "\r" ? this.queue.splice(0) : [];
      this.sink(sequence);
      given++;
      for (const rest of after) this.redispatch(rest.event);
    }
    if (this.queue.length > 0 && this.sink) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }
}

/** Typed or pasted text, as opposed to Enter, Backspace, the arrows and Ctrl-U. */
const isText = (sequence: string) =>
  sequence !== "\r" && sequence !== "\b" && sequence !== CLEAR_FIELD && !sequence.startsWith("\x1b");

/**
 * The sequence ink-text-input understands for `event`, or null for keys it would get wrong: it
 * inserts the letter of a Ctrl or Alt chord, and it treats Delete as Backspace, so those stay with
 * the dialog (Ctrl-U, which clears the field, excepted). A paste becomes one line without control
 * characters.
 */
export function fieldSequence(event: InputEvent): string | null {
  if (event.kind === "paste") {
    const line = event.text.replace(/\r?\n/g, " ").replace(/[\x00-\x1f\x7f]/g, "");
    return line || null;
  }
  const { key } = event;
  if (key.ctrl && !key.alt && key.name === "u") return CLEAR_FIELD;
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
