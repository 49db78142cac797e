// `nanohermes doctor`: what the terminal (and tmux, if any) can do for NanoHermes, and the exact
// tmux.conf lines that would help. Probes only when stdin and stdout are both terminals.
import { explainColorDepth, explainUnicode, type ColorDepth } from "../theme/depth.js";
import { defaultThemeName } from "../theme/load.js";
import { da1Features, probeTerminal, type Capabilities, type ProbeInput, type ProbeOutput } from "./probe.js";
import { clipboardRoute, readTmux, tmuxRecommendations, type RunFile, type TmuxInfo } from "./tmux.js";

type Env = Record<string, string | undefined>;

export interface DoctorOptions {
  env: Env;
  stdin: ProbeInput & { isTTY?: boolean };
  stdout: ProbeOutput & { isTTY?: boolean };
  /** How long to wait for the terminal's replies; default 200 ms. */
  timeoutMs?: number;
  /** Runs tmux; injected in tests. */
  run?: RunFile;
}

const depthNames: Record<ColorDepth, string> = {
  0: "none",
  4: "16 colours",
  8: "256 colours",
  24: "24-bit (true colour)",
};

function row(label: string, value: string): string {
  return `  ${label.padEnd(21)}${value}`;
}

function yesNo(value: boolean | undefined, probed: boolean): string {
  if (!probed) return "unknown (probe skipped)";
  return value === undefined ? "unknown (no reply)" : value ? "yes" : "no";
}

function hex({ r, g, b }: { r: number; g: number; b: number }): string {
  return `#${[r, g, b].map((n) => n.toString(16).padStart(2, "0")).join("")}`;
}

function osc52Line(caps: Capabilities | undefined, tmux: TmuxInfo): string {
  const reported = da1Features(caps?.da1).includes(52);
  // Inside tmux, DA1 comes from tmux, not the terminal, so it says nothing about the terminal.
  const terminal =
    reported && !tmux.inside
      ? "supported (DA1 reports 52)"
      : "unknown (few terminals report it; most current ones support it)";
  if (!tmux.inside) return terminal;
  const route = clipboardRoute(tmux);
  const through = route.works === true ? "yes" : route.works === false ? "no" : "unknown";
  return `${terminal}; through tmux: ${through} (${route.why})`;
}

function backgroundLine(caps: Capabilities | undefined): string {
  const theme = defaultThemeName(caps?.isDark);
  if (!caps?.background) return `unknown: default theme "${theme}"`;
  return `${caps.isDark ? "dark" : "light"} (${hex(caps.background)}): default theme "${theme}"`;
}

function tmuxSection(tmux: TmuxInfo): string[] {
  if (!tmux.inside) return ["tmux", row("tmux", "not inside tmux (TMUX is not set)")];
  const o = tmux.options;
  const lines = [
    "tmux",
    row("version", tmux.version ?? "unknown"),
    row("set-clipboard", o.setClipboard ?? "unknown"),
    row("allow-passthrough", o.allowPassthrough ?? "unknown (option absent before tmux 3.3)"),
    row("extended-keys", o.extendedKeys ?? "unknown"),
    row("escape-time", o.escapeTime === undefined ? "unknown" : `${o.escapeTime} ms`),
  ];
  for (const p of tmux.problems) lines.push(row("problem", p));
  return lines;
}

/** Contract: never throws and never waits longer than the probe timeout plus tmux's own (1 s). */
export async function runDoctor({ env, stdin, stdout, timeoutMs = 200, run }: DoctorOptions): Promise<string> {
  const interactive = stdin.isTTY === true && stdout.isTTY === true;
  const [caps, tmux] = await Promise.all([
    interactive
      ? probeTerminal(stdin, stdout, timeoutMs, { skipBackground: env.TERM === "linux" })
      : Promise.resolve(undefined),
    readTmux(run ? { env, run } : { env }),
  ]);

  const color = explainColorDepth(env, stdout.isTTY === true);
  let colorValue = `${depthNames[color.depth]} (${color.reason})`;
  if (!stdout.isTTY && color.reason === "output is not a terminal") {
    const onTty = explainColorDepth(env, true);
    colorValue += `; on a terminal: ${depthNames[onTty.depth]} (${onTty.reason})`;
  }
  const unicode = explainUnicode(env);
  const version = !caps ? "unknown (probe skipped)" : (caps.version ?? "unknown (no XTVERSION reply)");

  const lines = [
    "NanoHermes doctor",
    "",
    "Terminal",
    row("TERM", env.TERM || "(not set)"),
    row("COLORTERM", env.COLORTERM || "(not set)"),
    row("TERM_PROGRAM", env.TERM_PROGRAM || "(not set)"),
    row("version", version),
    row("colour depth", colorValue),
    row("unicode", `${unicode.unicode ? "yes: rounded borders, glyphs" : "no: ASCII only"} (${unicode.reason})`),
    row("synchronized output", yesNo(caps?.syncOutput, caps !== undefined)),
    row("bracketed paste", yesNo(caps?.bracketedPaste, caps !== undefined)),
    row("OSC 52 copy", osc52Line(caps, tmux)),
    row("background", backgroundLine(caps)),
    row("ssh", env.SSH_CONNECTION || env.SSH_TTY ? "yes (SSH_CONNECTION or SSH_TTY is set)" : "no"),
    "",
    ...tmuxSection(tmux),
  ];

  const recs = tmuxRecommendations(tmux);
  if (recs.length > 0) {
    lines.push("", "Add to ~/.tmux.conf (then run: tmux source-file ~/.tmux.conf):");
    const width = Math.max(...recs.map((r) => r.line.length));
    for (const r of recs) lines.push(`  ${r.line.padEnd(width)}  # ${r.reason}`);
  }

  lines.push("");
  if (!caps) {
    lines.push("Probe skipped: stdin and stdout are not both terminals, so only the environment was read.");
  } else if (!caps.answered) {
    lines.push(
      `Probe: the terminal did not finish answering within ${timeoutMs} ms; values marked unknown may still be supported.`,
    );
  } else {
    lines.push("Probe: the terminal answered.");
  }
  return `${lines.join("\n")}\n`;
}
