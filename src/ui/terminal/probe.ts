// Asks the terminal what it supports (DA1, XTVERSION, DECRQM, OSC 11) and parses the replies.
// The parser is pure; createProbe lets the app feed reply bytes it reads itself.
import { StringDecoder } from "node:string_decoder";

const ESC = "\x1b";
const ST = `${ESC}\\`;

/** Private modes asked with DECRQM. */
export const MODE_SYNC_OUTPUT = 2026;
export const MODE_BRACKETED_PASTE = 2004;

export interface ParsedReplies {
  /** DA1 parameters, e.g. "62;22;52" (52 = clipboard access). */
  da1?: string;
  /** XTVERSION text, e.g. "xterm(390)", "tmux 3.4", "WezTerm 20240203". */
  version?: string;
  syncOutput?: boolean;
  bracketedPaste?: boolean;
  background?: { r: number; g: number; b: number };
  isDark?: boolean;
  /** The input with every recognised reply removed: keystrokes typed during the probe, to replay. */
  rest: string;
}

export interface Capabilities extends ParsedReplies {
  /** True when the sentinel DA1 reply arrived; false after a timeout (replies may be partial). */
  answered: boolean;
}

export interface ProbeOptions {
  /** How long to wait for the sentinel; default 200 ms (a round trip over a slow SSH link). */
  timeoutMs?: number;
  /** Leave out OSC 11: the Linux console does not parse it and prints part of it as text. */
  skipBackground?: boolean;
}

/**
 * The query string. DA1 goes last and only once: every terminal answers DA1 and answers in order,
 * so its reply means every earlier reply that will ever come has come, and it gives `da1` too.
 */
export function buildQueries(options: ProbeOptions = {}): string {
  return [
    `${ESC}[>0q`,
    `${ESC}[?${MODE_SYNC_OUTPUT}$p`,
    `${ESC}[?${MODE_BRACKETED_PASTE}$p`,
    options.skipBackground ? "" : `${ESC}]11;?${ST}`,
    `${ESC}[c`,
  ].join("");
}

// Replies, each with both string terminators terminals use (ST or BEL).
const da1Re = /\x1b\[\?([\d;]*)c/g;
const decrpmRe = /\x1b\[\?(\d+);(\d+)\$y/g;
const xtversionRe = /\x1bP>\|([^\x1b\x07]*)(?:\x1b\\|\x07)/g;
const osc11Re = /\x1b\]11;([^\x1b\x07]*)(?:\x1b\\|\x07)/g;

/** "rgb:RRRR/GGGG/BBBB" (1-4 hex digits each, as XParseColor), "rgba:…/…/…/…" or "#rrggbb". */
export function parseColorSpec(spec: string): { r: number; g: number; b: number } | undefined {
  const m = /^rgba?:([0-9a-f]{1,4})\/([0-9a-f]{1,4})\/([0-9a-f]{1,4})(?:\/[0-9a-f]{1,4})?$/i.exec(spec.trim());
  if (m) {
    const scale = (h: string) => Math.round((Number.parseInt(h, 16) / (16 ** h.length - 1)) * 255);
    return { r: scale(m[1] ?? "0"), g: scale(m[2] ?? "0"), b: scale(m[3] ?? "0") };
  }
  const hex = /^#([0-9a-f]{6})$/i.exec(spec.trim());
  if (hex) {
    const n = Number.parseInt(hex[1] ?? "0", 16);
    return { r: (n >> 16) & 0xff, g: (n >> 8) & 0xff, b: n & 0xff };
  }
  return undefined;
}

/** Perceived brightness (ITU-R BT.601 weights) below half means a dark background. */
export function isDarkColor({ r, g, b }: { r: number; g: number; b: number }): boolean {
  return (0.299 * r + 0.587 * g + 0.114 * b) / 255 < 0.5;
}

/** DECRPM: 1 set, 2 reset, 3 permanently set mean the mode exists; 0 unknown, 4 permanently reset do not. */
function modeSupported(value: number): boolean {
  return value === 1 || value === 2 || value === 3;
}

/**
 * Parses whatever the terminal sent, in any order, with keystrokes in between. An incomplete
 * reply at the end is left in `rest` and parsed once the caller has the rest of it.
 */
export function parseReplies(text: string): ParsedReplies {
  const out: ParsedReplies = { rest: "" };
  let rest = text.replace(xtversionRe, (_, v: string) => {
    out.version = v;
    return "";
  });
  rest = rest.replace(osc11Re, (_, spec: string) => {
    const bg = parseColorSpec(spec);
    if (bg) {
      out.background = bg;
      out.isDark = isDarkColor(bg);
    }
    return "";
  });
  rest = rest.replace(decrpmRe, (_, mode: string, value: string) => {
    const supported = modeSupported(Number(value));
    if (Number(mode) === MODE_SYNC_OUTPUT) out.syncOutput = supported;
    else if (Number(mode) === MODE_BRACKETED_PASTE) out.bracketedPaste = supported;
    return "";
  });
  rest = rest.replace(da1Re, (_, params: string) => {
    out.da1 = params;
    return "";
  });
  out.rest = rest;
  return out;
}

/** DA1 parameters as numbers; 52 among them means the terminal allows OSC 52 clipboard writes. */
export function da1Features(da1: string | undefined): number[] {
  if (!da1) return [];
  return da1
    .split(";")
    .filter((p) => p !== "")
    .map(Number);
}

export interface Probe {
  /** Write these to the terminal once. */
  queries: string;
  /** Hand over every string read from the terminal; kept until the sentinel, then ignored. */
  feed(reply: string): void;
  /** Settles on the sentinel DA1 reply or on the timeout, whichever is first; never rejects. */
  result: Promise<Capabilities>;
  /**
   * Settles only on the sentinel, however late (a slow link, a multiplexer that asks the outer
   * terminal first): what `result` would have said had it waited. Stays pending when the sentinel
   * never comes or after `cancel`.
   */
  answer: Promise<Capabilities>;
  /** Settle now with what has arrived (e.g. the app is exiting); later bytes are ignored. */
  cancel(): void;
}

/**
 * Contract: the caller writes `queries`, then feeds every chunk it reads (replies, and any keys
 * typed meanwhile, which come back in `rest`). The timeout starts here.
 */
export function createProbe(options: ProbeOptions = {}): Probe {
  const timeoutMs = options.timeoutMs ?? 200;
  let buffer = "";
  let settled = false;
  let closed = false;
  let resolve: (c: Capabilities) => void = () => {};
  let resolveAnswer: (c: Capabilities) => void = () => {};
  const result = new Promise<Capabilities>((r) => (resolve = r));
  const answer = new Promise<Capabilities>((r) => (resolveAnswer = r));
  const settle = (answered: boolean) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    resolve({ ...parseReplies(buffer), answered });
  };
  const timer = setTimeout(() => settle(false), timeoutMs);
  return {
    queries: buildQueries(options),
    feed(reply) {
      if (closed) return;
      buffer += reply;
      if (parseReplies(buffer).da1 === undefined) return;
      closed = true;
      settle(true);
      resolveAnswer({ ...parseReplies(buffer), answered: true });
    },
    result,
    answer,
    cancel: () => {
      closed = true;
      settle(false);
    },
  };
}

/** The parts of process.stdin the probe uses. */
export interface ProbeInput {
  on(event: "data", listener: (chunk: Buffer | string) => void): unknown;
  removeListener(event: "data", listener: (chunk: Buffer | string) => void): unknown;
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?(mode: boolean): unknown;
  readableFlowing?: boolean | null;
  pause?(): unknown;
}

export interface ProbeOutput {
  write(s: string): unknown;
}

/**
 * Probes a terminal the caller does not otherwise read from yet (before Ink starts, or for
 * `doctor`). Raw mode for the duration, because in cooked mode replies wait for Enter and are
 * echoed on screen; the input's raw and flowing states are restored afterwards.
 */
export async function probeTerminal(
  stdin: ProbeInput,
  stdout: ProbeOutput,
  timeoutMs = 200,
  options: Omit<ProbeOptions, "timeoutMs"> = {},
): Promise<Capabilities> {
  const probe = createProbe({ ...options, timeoutMs });
  const wasRaw = stdin.isRaw === true;
  const wasFlowing = stdin.readableFlowing === true;
  const decoder = new StringDecoder("utf8");
  const onData = (chunk: Buffer | string) => probe.feed(typeof chunk === "string" ? chunk : decoder.write(chunk));
  if (stdin.setRawMode && !wasRaw) stdin.setRawMode(true);
  stdin.on("data", onData);
  try {
    stdout.write(probe.queries);
    return await probe.result;
  } finally {
    stdin.removeListener("data", onData);
    if (stdin.setRawMode && !wasRaw) stdin.setRawMode(false);
    // A flowing stdin keeps the process alive; leave it as we found it.
    if (!wasFlowing) stdin.pause?.();
  }
}
