// Terminal input: stdin through our key parser into the controller (a lone Esc is known only when
// nothing follows it), and resizes into the UI state.
import { log } from "../../config/log.js";
import { KeyParser } from "../input/keys.js";
import type { Probe } from "../terminal/probe.js";
import type { UiRuntime } from "./runtime.js";

/** How long a lone Esc waits for the rest of a sequence (an Alt chord, an arrow) before it is one. */
const ESC_WAIT_MS = 25;

export function wireInput(rt: UiRuntime, probe: Pick<Probe, "feed">): void {
  const { ctl, store } = rt;
  const { stdin, stdout } = rt.opts;
  const parser = new KeyParser();
  let flushTimer: NodeJS.Timeout | null = null;
  const deliver = (events: ReturnType<KeyParser["feed"]>) => {
    for (const event of events) {
      if (event.kind === "key" && event.key.name === "focusin") rt.focused = true;
      if (event.kind === "key" && event.key.name === "focusout") rt.focused = false;
      // The terminal handshake's replies arrive as "reply" keys.
      if (event.kind === "key" && event.key.name === "reply") probe.feed(event.key.sequence);
      try {
        ctl.handle(event);
      } catch (error) {
        log("error", "key handler threw", error);
        ctl.status(`internal error: ${(error as Error).message}`, "error");
      }
    }
  };
  // When an Esc (or the start of a sequence) came in, for the lone-Esc rule below.
  let pendingSince = 0;
  stdin.on("data", (chunk: Buffer) => {
    // A lone Esc is known when nothing follows it for 25 ms. The timer may not have run if the
    // event loop was busy (a first render, a chunk loading): by the clock, what waited that long
    // stands alone, and does not join what came after into an Alt chord.
    if (parser.pending && Date.now() - pendingSince >= ESC_WAIT_MS) deliver(parser.flush());
    deliver(parser.feed(chunk));
    if (flushTimer) clearTimeout(flushTimer);
    if (parser.pending) {
      pendingSince = Date.now();
      flushTimer = setTimeout(() => deliver(parser.flush()), ESC_WAIT_MS);
    }
  });
  stdout.on("resize", () => {
    // The terminal reflows what it shows when it resizes; only a clean screen and a full frame
    // are sure to look right afterwards.
    stdout.write("\x1b[2J\x1b[H");
    rt.ink?.clear();
    store.updateUi((ui) => {
      const columns = stdout.columns || ui.columns;
      const rows = stdout.rows || ui.rows;
      const size = (c: number) => (c >= 120 ? 2 : c >= 80 ? 1 : 0);
      // Crossing a layout breakpoint resets the side panes to what suits the new width.
      if (size(columns) === size(ui.columns)) return { ...ui, columns, rows };
      return {
        ...ui,
        columns,
        rows,
        taskListOpen: columns >= 80,
        resultsOpen: columns >= 120,
        focus: ui.focus === "browse" ? "browse" : "composer",
      };
    });
  });
}
