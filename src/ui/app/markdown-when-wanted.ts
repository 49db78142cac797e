// When the full Markdown renderer (marked, marked-terminal, the highlighter: ~1.5 MB of code and
// ~11 MB resident) loads: once the screen may show Markdown soon, not at start-up. Until then, and
// while it loads, the cheap renderer draws replies; they are redrawn in full once it is there.
import { log } from "../../config/log.js";
import { loadMarkdown } from "../render/markdown.js";
import type { AppState, Store } from "../state/store.js";

/**
 * Whether Markdown may be drawn soon: a reply is in a transcript (a resumed session, an attached
 * daemon's), a turn runs (its reply is on the way), or a prompt is being written (a reply follows
 * it; writing one takes longer than loading), not a slash command.
 */
export function markdownWanted(state: AppState): boolean {
  for (const transcript of Object.values(state.transcripts)) {
    if (transcript.running) return true;
    for (const block of transcript.blocks) if (block.kind === "assistant") return true;
  }
  // A slash command is not a prompt (its own turn, if it has one, counts when it runs): the load,
  // ~100-200 ms of compiling, would land on the next keys (an Esc after /mcp, say).
  const { lines } = state.ui.composer;
  const first = lines[0] ?? "";
  return (lines.length > 1 || first !== "") && !first.startsWith("/");
}

/**
 * Contract: calls `loaded` once, after the full renderer has loaded, which happens the first time
 * the store's state is {@link markdownWanted} (at once when it already is). An idle UI never loads it.
 */
export function loadMarkdownWhenWanted(store: Pick<Store, "getState" | "subscribe">, loaded: () => void): void {
  let started = false;
  const check = (): void => {
    if (started || !markdownWanted(store.getState())) return;
    started = true;
    unsubscribe();
    void loadMarkdown().then(loaded, (error: unknown) => log("warn", "loading the Markdown renderer", error));
  };
  const unsubscribe = store.subscribe(check);
  check();
}
