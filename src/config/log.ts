// The log file: where bugs and server stderr go, never the screen. Appends synchronously, lazily.
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

let file: string | null = null;
let dirReady = false;
const secrets = new Set<string>();

/** Set once at start-up; until then log lines are dropped. */
export function setLogFile(path: string | null): void {
  file = path;
  dirReady = false;
}

/** Values that must never reach the log (API keys, tokens); they are replaced by [redacted]. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 8) secrets.add(value);
}

const secretEnv = new Set<string>(["OPENAI_API_KEY", "NANOHERMES_DAEMON_TOKEN"]);

/** Environment variables that hold secrets: commands the agent runs do not inherit them. */
export function registerSecretEnv(name: string): void {
  secretEnv.add(name);
}

export function secretEnvNames(): ReadonlySet<string> {
  return secretEnv;
}

export function redact(text: string): string {
  if (secrets.size === 0) return text;
  let out = text;
  for (const s of secrets) out = out.split(s).join("[redacted]");
  return out;
}

export function log(level: "debug" | "info" | "warn" | "error", message: string, error?: unknown): void {
  if (!file) return;
  const detail =
    error instanceof Error ? ` ${error.stack ?? error.message}` : error === undefined ? "" : ` ${String(error)}`;
  const line = `${new Date().toISOString()} ${level} [${process.pid}] ${redact(message + detail)}\n`;
  try {
    if (!dirReady) {
      mkdirSync(dirname(file), { recursive: true });
      dirReady = true;
    }
    appendFileSync(file, line);
  } catch {
    // Logging must never break the program (disk full, read-only home).
  }
}
