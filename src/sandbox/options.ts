// Command-line options read the way GNU getopt_long reads them, so a check sees what the program
// will see: flags after operands (`rm -v dir -rf`), combined short flags (`-rfv`), a value glued to
// its letter (`-C.`) or in the next word, `--` ending options, and unique prefixes of long options
// (`--recur` is `--recursive`, `--har` is `--hard`).

/** What one program accepts. */
export interface OptionSpec {
  /** Short letters that take a value: the rest of the cluster, else the next word. */
  valued?: string;
  /** Long option names without dashes; a trailing `=` marks one that takes a value. */
  long?: string[];
  /** Options end at the first operand (POSIX order, as sudo, env and git's global options do). */
  posix?: boolean;
}

/** The options a command line sets, and its operands. */
export interface Options {
  /** Short letters given, each once. */
  short: Set<string>;
  /** Long options given, by their full name (an abbreviation resolved). */
  long: Set<string>;
  /** Values, by letter or full long name, in order. */
  values: Map<string, string[]>;
  operands: string[];
  /** Long options that are unknown or an ambiguous prefix, as typed (without dashes). */
  unknown: string[];
}

/** The full name `typed` stands for among `names`: exact, else a unique prefix (as getopt_long). */
export function resolveOption(typed: string, names: readonly string[]): string | undefined {
  if (names.includes(typed)) return typed;
  const hits = names.filter((n) => typed.length > 0 && n.startsWith(typed));
  return hits.length === 1 ? hits[0] : undefined;
}

/** Every long name `typed` could abbreviate: a check that must not miss one treats them all as given. */
export function possibleOptions(typed: string, names: readonly string[]): string[] {
  return typed.length === 0 ? [] : names.filter((n) => n === typed || n.startsWith(typed));
}

/** Reads `args` (the words after the program name) against `spec`. Pure; never throws. */
export function parseOptions(args: readonly string[], spec: OptionSpec = {}): Options {
  const out: Options = { short: new Set(), long: new Set(), values: new Map(), operands: [], unknown: [] };
  const longNames = (spec.long ?? []).map((n) => n.replace(/=$/, ""));
  const longValued = new Set((spec.long ?? []).filter((n) => n.endsWith("=")).map((n) => n.slice(0, -1)));
  const valued = spec.valued ?? "";
  const add = (key: string, value: string) => out.values.set(key, [...(out.values.get(key) ?? []), value]);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      out.operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const typed = arg.slice(2, eq < 0 ? undefined : eq);
      const name = resolveOption(typed, longNames);
      if (name === undefined) {
        out.unknown.push(typed);
        // An unknown option is conservatively given as every option it could abbreviate.
        for (const n of possibleOptions(typed, longNames)) out.long.add(n);
        continue;
      }
      out.long.add(name);
      if (eq >= 0) add(name, arg.slice(eq + 1));
      else if (longValued.has(name) && i + 1 < args.length) add(name, args[++i]!);
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const c = arg[j]!;
        out.short.add(c);
        if (valued.includes(c)) {
          const value = j + 1 < arg.length ? arg.slice(j + 1) : args[++i];
          if (value !== undefined) add(c, value);
          break;
        }
      }
      continue;
    }
    out.operands.push(arg);
    if (spec.posix) {
      out.operands.push(...args.slice(i + 1));
      break;
    }
  }
  return out;
}

/** True when the short letter or the long option was given. */
export const hasOption = (o: Options, short: string | null, long: string | null): boolean =>
  (short !== null && o.short.has(short)) || (long !== null && o.long.has(long));
