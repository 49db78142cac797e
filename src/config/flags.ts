// The command-line parser: argv -> flags and positionals by the flag table (flag-table.ts), a
// usage error for anything it does not know, and the checked reading of integer flags.
import { parseArgs } from "node:util";
import { flagSpecs } from "./flag-table.js";
import { thinkingLevels } from "./levels.js";

export type Flags = {
  positionals: string[];
  values: Record<string, string | boolean | string[] | undefined>;
};

export class UsageError extends Error {}

/**
 * `--thinking` may stand alone (meaning high) and so may `--resume` (meaning: choose); parseArgs
 * wants a value, so supply it.
 */
function normaliseThinking(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--resume" || arg === "-r") {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith("-")) {
        out.push(`--resume=${next}`);
        i++;
      } else out.push("--resume=");
    } else if (arg === "--thinking") {
      const next = argv[i + 1];
      if (next !== undefined && (thinkingLevels as readonly string[]).includes(next)) {
        out.push(`--thinking=${next}`);
        i++;
      } else out.push("--thinking=high");
    } else out.push(arg);
  }
  return out;
}

export function parseFlags(argv: string[]): Flags {
  const options: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }> = {};
  for (const spec of flagSpecs) {
    options[spec.name] = {
      type: spec.type,
      ...(spec.short ? { short: spec.short } : {}),
      ...(spec.multiple ? { multiple: true } : {}),
    };
  }
  try {
    const parsed = parseArgs({ args: normaliseThinking(argv), options, allowPositionals: true, strict: true });
    return { positionals: parsed.positionals, values: parsed.values as Flags["values"] };
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new UsageError(`${message} (see nanohermes --help)`);
  }
}

/** Parses an integer flag; a clear usage error otherwise. */
export function intFlag(flags: Flags, name: string, min: number, max: number): number | undefined {
  const raw = flags.values[name];
  if (raw === undefined) return undefined;
  const value = typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`--${name} expects an integer from ${min} to ${max}, got "${String(raw)}"`);
  }
  return value;
}
