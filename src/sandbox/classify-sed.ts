// Which sed invocations only read: no in-place edit, no script file we cannot see, and no script
// command or `s` flag that writes a file or runs a shell command.
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

/** sed reads unless `-i` edits in place, `-f` brings a script we cannot see, or the script writes or executes. */
export function sedReadOnly(args: string[]): { reason: string; part: string } | null {
  const scripts: string[] = [];
  const operands: string[] = [];
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
      if (!opt) return { reason: `unknown or ambiguous sed option \`${arg}\``, part: arg };
      if (opt === "in-place" || opt === "file")
        return { reason: `\`sed --${opt}\` edits files or runs a script we cannot see`, part: arg };
      if (opt === "expression") scripts.push(arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : (args[++i] ?? ""));
      if (opt === "line-length" && !arg.includes("=")) i++;
    } else if (arg.startsWith("-") && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const c = arg[j]!;
        if (c === "i" || c === "f")
          return {
            reason: c === "i" ? "`sed -i` edits files in place" : "`sed -f` runs a script we cannot see",
            part: arg,
          };
        if (c === "e" || c === "l") {
          const value = j + 1 < arg.length ? arg.slice(j + 1) : (args[++i] ?? "");
          if (c === "e") scripts.push(value);
          break;
        }
        if (!SED_FLAGS.includes(c)) return { reason: `unknown sed option \`-${c}\``, part: arg };
      }
    } else operands.push(arg);
  }
  if (scripts.length === 0 && operands.length > 0) scripts.push(operands[0]!);
  for (const script of scripts) {
    const why = sedScriptWrites(script);
    if (why) return { reason: why, part: script };
  }
  return null;
}

/** Skips a `<d>...<d>` section starting at the delimiter; returns the index past it or -1. */
function delimited(s: string, i: number): number {
  const d = s[i];
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === d) return j + 1;
  }
  return -1;
}

/**
 * Why one sed command (the metacharacter rule already ruled out `;` and newlines, so there is only
 * one) writes or executes: the `w`, `W` and `e` commands and the `w`/`e` flags of `s`. Anything
 * this small parser does not understand counts as writing.
 */
export function sedScriptWrites(script: string): string | null {
  let i = 0;
  const blank = () => {
    while (script[i] === " " || script[i] === "\t") i++;
  };
  const address = (): boolean => {
    if (/\d/.test(script[i] ?? "")) {
      while (/[\d~]/.test(script[i] ?? "")) i++;
    } else if (script[i] === "/" || script[i] === "\\") {
      if (script[i] === "\\") i++;
      i = delimited(script, i);
      if (i < 0) return false;
      while (script[i] === "I" || script[i] === "M") i++;
    } else if (script[i] === "+" || script[i] === "~") {
      i++;
      while (/\d/.test(script[i] ?? "")) i++;
    }
    return true;
  };
  blank();
  if (!address()) return "a sed address this check cannot read";
  if (script[i] === ",") {
    i++;
    if (!address()) return "a sed address this check cannot read";
  }
  blank();
  if (script[i] === "!") i++;
  blank();
  const command = script[i];
  const rest = script.slice(i + 1);
  if (command === undefined || command === "#") return null;
  if (command === "s" || command === "y") {
    const first = delimited(script, i + 1);
    const second = first < 0 ? -1 : delimited(script, first - 1);
    if (second < 0) return `a sed \`${command}\` command this check cannot read`;
    const flags = script.slice(second);
    if (command === "s" && !/^[gpiImM0-9]*\s*$/.test(flags))
      return "the sed `s` flags `w`/`e` write a file or run a command";
    if (command === "y" && flags.trim() !== "") return "a sed `y` command this check cannot read";
    return null;
  }
  if ("pPnNdDgGhHxzlLFqQ=".includes(command))
    return /^\s*\d*\s*$/.test(rest) ? null : "a sed command this check cannot read";
  if ("aicrRbtT:v".includes(command)) return null;
  if (command === "w" || command === "W") return "the sed `w` command writes a file";
  if (command === "e") return "the sed `e` command runs a shell command";
  return `the sed command \`${command}\` is not known to be read-only`;
}
