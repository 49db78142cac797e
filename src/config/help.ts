// `nanohermes --help`: the subcommands, the flags of the flag table (flag-table.ts) by group, the
// environment and the exit codes, laid out for 80 columns. Loaded only when help is asked for.
import { type FlagSpec, flagSpecs } from "./flag-table.js";

/** --help is laid out for this width: nothing in it is wider, whatever the terminal. */
export const HELP_WIDTH = 80;

/** Words of `text` in lines of at most `width` columns (a longer word stays whole on its own line). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * `left` in a column `at` wide and `right` wrapped beside it; a `left` that does not fit puts
 * `right` on the lines below, so the columns never run into each other.
 */
function columns(left: string, right: string, at: number): string[] {
  const body = wrapWords(right, HELP_WIDTH - at);
  const pad = " ".repeat(at);
  if (left.length + 2 > at) return [left, ...body.map((l) => pad + l)];
  return body.map((l, i) => (i === 0 ? left.padEnd(at) : pad) + l);
}

/** Subcommands, one row each: what to type, what it does. */
const subcommands: [string, string][] = [
  ['nanohermes -p "fix the failing test"', "run one turn and print the answer"],
  ['echo "explain src/" | nanohermes', "the prompt may come on stdin"],
  ["nanohermes tool [NAME 'JSON-ARGS']", "list the built-in tools, or run one (--schema: its JSON schema)"],
  [
    "nanohermes skills [list|show|proposals|accept|reject|curate|rollback]",
    "skills, proposals to accept or reject, the curator (--dry-run), undo",
  ],
  ["nanohermes mcp [--json]", "connect to the configured MCP servers and list them"],
  ["nanohermes models [--provider P]", "the provider's models with context window and prices"],
  ["nanohermes sessions [WORDS] [--all]", "this workspace's sessions, or those that mention WORDS"],
  ["nanohermes export --session ID|--all", "trajectories as ShareGPT JSONL (--output FILE, --split)"],
  ["nanohermes policy check -- COMMAND", "what the approval policy would do with COMMAND (--json, --approval P)"],
  [
    "nanohermes sandbox status|run",
    "what the command sandbox enforces here; run a command under it (sandbox run --help)",
  ],
  ["nanohermes doctor", "check the terminal: colours, keys, clipboard, tmux"],
  ["nanohermes --daemon [--daemon-port N]", "serve sessions over HTTP (docs/daemon.md)"],
  [
    "nanohermes cron add|update|list|runs|run|pause|resume|remove|inbox",
    "scheduled runs on the daemon (README: Scheduled runs)",
  ],
  ["nanohermes attach [URL]", "open the UI on a daemon's sessions (default: the local socket)"],
  ["nanohermes acp", "an Agent Client Protocol agent on stdin/stdout, for editors (Zed, JetBrains, Neovim)"],
  ["nanohermes mcp-server", "an MCP server on stdin/stdout: NanoHermes as a tool of another agent"],
];

export function helpText(version: string): string {
  const groups: [FlagSpec["group"], string][] = [
    ["run", "Running"],
    ["model", "Model"],
    ["safety", "Safety"],
    ["output", "Output (one-shot)"],
    ["session", "Session"],
    ["daemon", "Daemon"],
    ["other", "Other"],
  ];
  const lines = [
    `nanohermes ${version}: a coding agent for the terminal (alias nh)`,
    "",
    "Usage:",
    "  nanohermes                              the full-screen UI",
  ];
  for (const [cmd, doc] of subcommands) lines.push(...columns(`  ${cmd}`, doc, 42));
  for (const [group, title] of groups) {
    lines.push("", `${title}:`);
    for (const spec of flagSpecs.filter((s) => s.group === group)) {
      const names = `${spec.short ? `-${spec.short}, ` : "    "}--${spec.name}${spec.value ? ` ${spec.value}` : ""}`;
      lines.push(...columns(`  ${names}`, spec.doc, 28));
    }
  }
  lines.push("", "Environment:");
  for (const [name, doc] of [
    ["OPENAI_API_KEY", "API key (or the provider's variable, e.g. ANTHROPIC_API_KEY, or apiKeyEnv in config.json)"],
    ["NANOHERMES_PROVIDER", "provider preset, like --provider"],
    ["OPENAI_BASE_URL", "endpoint, like --base-url"],
    ["NANOHERMES_MODEL", "model, like --model"],
    ["NANOHERMES_FALLBACK_MODEL", "fallback model, like --fallback-model"],
    ["NANOHERMES_HOME", "settings folder (default ~/.nanohermes)"],
    ["NANOHERMES_NO_MEMORY", "1: like --no-memory"],
  ] as const)
    lines.push(...columns(`  ${name}`, doc, 28));
  lines.push(
    "",
    ...wrapWords(
      "Files: ~/.nanohermes/config.json, <workspace>/.nanohermes/config.json, ~/.nanohermes/sessions/, commands in .nanohermes/commands/ and ~/.nanohermes/commands/.",
      HELP_WIDTH,
    ),
    ...wrapWords(
      "Precedence: flags, then environment, then the workspace config, then the user config, then defaults.",
      HELP_WIDTH,
    ),
    "Exit codes: 0 done, 1 failed, 2 usage or config error, 130 stopped by Ctrl-C.",
  );
  return lines.join("\n");
}
