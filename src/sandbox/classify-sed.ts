// sed read as GNU sed reads it: the options (`-e`, `--expression=`, `-f`, `-i`) and the whole
// script, every command of it, so `sed ':a;e CMD' f` is seen to run CMD and `sed -n 't;w F' f`
// to write F. Pure; used by the read-only check and the dangerous-command rules.
import { resolveLong } from "./classify-git.js";

const SED_FLAGS = "nrEsuzb";
const SED_LONG = [
  "expression",
  "file",
  "in-place",
  "line-length",
  "quiet",
  "silent",
  "regexp-extended",
  "separate",
  "unbuffered",
  "null-data",
  "zero-terminated",
  "posix",
  "debug",
  "sandbox",
  "follow-symlinks",
  "binary",
  "help",
  "version",
];

/** What a sed command line asks for, options read as getopt_long reads them. */
export interface SedArgs {
  /** The script texts: every `-e`/`--expression`, else the first operand. */
  scripts: string[];
  /** Why the command is not read-only before its script is read (`-i`, `-f`, an unknown option). */
  refused?: { reason: string; part: string };
}

/** Reads sed's arguments into its scripts; `-i` and `-f` refuse (an edit, a script we cannot see). */
export function sedArgs(args: readonly string[]): SedArgs {
  const scripts: string[] = [];
  const operands: string[] = [];
  let refused: SedArgs["refused"];
  const refuse = (reason: string, part: string) => {
    refused ??= { reason, part };
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const name = arg.slice(2).split("=")[0]!;
      // getopt_long accepts an exact name or any unambiguous abbreviation.
      const opt = resolveLong(name, SED_LONG);
      if (!opt) refuse(`unknown or ambiguous sed option \`${arg}\``, arg);
      else if (opt === "in-place") refuse("`sed --in-place` edits files in place", arg);
      else if (opt === "file") refuse("`sed --file` runs a script we cannot see", arg);
      const valued = opt === "expression" || opt === "file" || opt === "line-length";
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : valued ? args[++i] : undefined;
      if (opt === "expression") scripts.push(value ?? "");
    } else if (arg.startsWith("-") && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const c = arg[j]!;
        if (c === "i") refuse("`sed -i` edits files in place", arg);
        else if (c === "e" || c === "f" || c === "l") {
          const value = j + 1 < arg.length ? arg.slice(j + 1) : (args[++i] ?? "");
          if (c === "e") scripts.push(value);
          if (c === "f") refuse("`sed -f` runs a script we cannot see", arg);
          break;
        } else if (!SED_FLAGS.includes(c)) refuse(`unknown sed option \`-${c}\``, arg);
      }
    } else operands.push(arg);
  }
  if (scripts.length === 0 && operands.length > 0) scripts.push(operands[0]!);
  return { scripts, ...(refused ? { refused } : {}) };
}

/** sed reads unless `-i` edits in place, `-f` brings a script we cannot see, or the script writes or executes. */
export function sedReadOnly(args: string[]): { reason: string; part: string } | null {
  const { scripts, refused } = sedArgs(args);
  if (refused) return refused;
  // `-e a -e b` is one script of two lines.
  const why = sedScriptWrites(scripts.join("\n"));
  return why ? { reason: why, part: scripts.join(" ") } : null;
}

/** What a sed script does besides printing. */
export interface SedEffects {
  /** Files the `w`/`W` commands and the `w` flag of `s` write. */
  writes: string[];
  /** Commands the `e` command runs; `""` when it runs the pattern space (`e` alone, the `s///e` flag). */
  runs: string[];
  /** Files the `r`/`R` commands read. */
  reads: string[];
  /** Why this parser could not read the script; a caller must then assume the worst. */
  unreadable?: string;
}

/** Index past a `<d>...<d>` section whose delimiter is at `i`, or -1 when it never closes. */
function delimited(s: string, i: number): number {
  const d = s[i];
  if (d === undefined || d === "\n" || d === "\\") return -1;
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === d) return j + 1;
  }
  return -1;
}

/** Index of the end of the line at `i` (the newline, or the end of the script). */
const lineEnd = (s: string, i: number) => (s.indexOf("\n", i) < 0 ? s.length : s.indexOf("\n", i));

/**
 * Reads a whole sed script, command by command, as GNU sed does: `;` and newlines separate
 * commands; `a i c` take text and `r R w W e` a file name or command to the end of the line;
 * `b t T :` a label up to `;`; `{ }` group. Anything it does not know makes it `unreadable`.
 */
export function sedScript(script: string): SedEffects {
  const fx: SedEffects = { writes: [], runs: [], reads: [] };
  let i = 0;
  const at = () => script[i] ?? "";
  const blank = () => {
    while (at() === " " || at() === "\t") i++;
  };
  const fail = (why: string): SedEffects => ({ ...fx, unreadable: why });
  const restOfLine = () => {
    blank();
    const end = lineEnd(script, i);
    const text = script.slice(i, end);
    i = end;
    return text;
  };
  const address = (second: boolean): boolean => {
    if (/\d/.test(at())) while (/[\d~]/.test(at())) i++;
    else if (at() === "$") i++;
    else if (at() === "/" || at() === "\\") {
      if (at() === "\\") i++;
      i = delimited(script, i);
      if (i < 0) return false;
      while (at() === "I" || at() === "M") i++;
    } else if (second && (at() === "+" || at() === "~")) {
      i++;
      while (/\d/.test(at())) i++;
    }
    return true;
  };
  while (i < script.length) {
    while (/[\s;]/.test(at())) i++;
    if (i >= script.length) break;
    if (at() === "#") {
      i = lineEnd(script, i);
      continue;
    }
    if (!address(false)) return fail("a sed address this check cannot read");
    blank();
    if (at() === ",") {
      i++;
      blank();
      if (!address(true)) return fail("a sed address this check cannot read");
    }
    blank();
    while (at() === "!" || at() === " ") i++;
    const command = at();
    i++;
    switch (command) {
      case "{":
      case "}":
        continue;
      case "s":
      case "y": {
        const first = delimited(script, i);
        const second = first < 0 ? -1 : delimited(script, first - 1);
        if (second < 0) return fail(`a sed \`${command}\` command this check cannot read`);
        i = second;
        if (command === "y") break;
        while (/[gpiImMe0-9w]/.test(at())) {
          const flag = script[i++]!;
          if (flag === "e") fx.runs.push("");
          if (flag === "w") {
            fx.writes.push(restOfLine());
            break;
          }
        }
        break;
      }
      case "a":
      case "i":
      case "c": {
        // The text runs to the end of the line, and on while a line ends with a backslash.
        let end = lineEnd(script, i);
        while (end < script.length && script[end - 1] === "\\") end = lineEnd(script, end + 1);
        i = end;
        continue;
      }
      case "r":
      case "R":
        fx.reads.push(restOfLine());
        continue;
      case "w":
      case "W":
        fx.writes.push(restOfLine());
        continue;
      case "e":
        fx.runs.push(restOfLine());
        continue;
      case "b":
      case "t":
      case "T":
      case ":":
      case "v":
        blank();
        while (i < script.length && !/[;\n]/.test(at())) i++;
        continue;
      case "l":
      case "L":
      case "q":
      case "Q":
        blank();
        while (/\d/.test(at())) i++;
        break;
      default:
        if (!"=dDgGhHnNpPxzF".includes(command) || command === "")
          return fail(`the sed command \`${command}\` is not known to be read-only`);
    }
    blank();
    if (i < script.length && !/[;\n}#]/.test(at())) return fail("a sed command this check cannot read");
  }
  return fx;
}

/** Why a sed script writes, runs or cannot be read; null when it only reads and prints. */
export function sedScriptWrites(script: string): string | null {
  const fx = sedScript(script);
  if (fx.unreadable) return fx.unreadable;
  if (fx.runs.length > 0) return "the sed `e` command or `s///e` flag runs a shell command";
  if (fx.writes.length > 0) return "the sed `w` command or `s///w` flag writes a file";
  return null;
}
