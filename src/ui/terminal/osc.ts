// Escape strings for copying to the clipboard (OSC 52), desktop notifications (OSC 9 / OSC 777)
// and the bell, wrapped for tmux passthrough when asked.
const ESC = "\x1b";

export const BEL = "\x07";

/** Largest OSC 52 payload (base64 characters) we send; beyond it terminals and tmux truncate or drop it. */
export const OSC52_MAX_BYTES = 100_000;

/**
 * Wraps a sequence in tmux's DCS passthrough: `ESC Ptmux; <seq with each ESC doubled> ESC \`.
 * tmux 3.3+ forwards it only with `allow-passthrough on` (https://github.com/tmux/tmux/issues/3287).
 */
export function tmuxPassthrough(seq: string): string {
  return `${ESC}Ptmux;${seq.replaceAll(ESC, ESC + ESC)}${ESC}\\`;
}

export type Osc52Result = { ok: true; sequence: string; bytes: number } | { ok: false; reason: string; bytes: number };

/**
 * OSC 52 "set clipboard" for `text`, BEL-terminated (understood more widely than ST). Refuses
 * rather than truncates when too large, so a partial copy is never mistaken for the whole.
 */
export function osc52(text: string, options: { tmux: boolean; maxBytes?: number }): Osc52Result {
  const payload = Buffer.from(text, "utf8").toString("base64");
  const max = options.maxBytes ?? OSC52_MAX_BYTES;
  if (payload.length > max) {
    const size = Buffer.byteLength(text, "utf8");
    return {
      ok: false,
      bytes: payload.length,
      reason: `too large to copy through the terminal: ${size} bytes of text (${payload.length} encoded, limit ${max}); export it to a file instead`,
    };
  }
  const seq = `${ESC}]52;c;${payload}${BEL}`;
  return { ok: true, bytes: payload.length, sequence: options.tmux ? tmuxPassthrough(seq) : seq };
}

export type NotifyKind = "osc9" | "osc777" | "bell";

// Notification text may come from the model; strip C0/C1 controls so it cannot end the sequence
// early and inject escapes of its own.
function clean(s: string): string {
  return s.replace(/[\x00-\x1f\x7f-\x9f]+/g, " ").trim();
}

/**
 * A desktop notification. osc9: iTerm2, WezTerm, Ghostty, kitty (message only, so title and body
 * are joined); osc777: urxvt, foot, Ghostty, WezTerm (`notify;title;body`); bell: everyone. The
 * bell is never wrapped: tmux handles a bell itself (bell-action, monitor-bell).
 */
export function notify(title: string, body: string, options: { kind: NotifyKind; tmux: boolean }): string {
  let seq: string;
  switch (options.kind) {
    case "bell":
      return BEL;
    case "osc9": {
      // ConEmu and Windows Terminal read "OSC 9 ; <digits> ;" as their own commands (4 = progress).
      const message = [clean(title), clean(body)]
        .filter((s) => s !== "")
        .join(": ")
        .replace(/^(\d+);/, "$1:");
      seq = `${ESC}]9;${message}${BEL}`;
      break;
    }
    case "osc777":
      // ';' separates the fields, so it cannot appear in the title.
      seq = `${ESC}]777;notify;${clean(title).replaceAll(";", ",")};${clean(body)}${BEL}`;
      break;
    default:
      return options.kind satisfies never;
  }
  return options.tmux ? tmuxPassthrough(seq) : seq;
}
