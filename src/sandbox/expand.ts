// Command names and flags built at run time. `rm${IFS}-rf${IFS}/`, `$(echo rm) -rf /` and
// `r""m` spell a command the reader cannot see; such a name is dangerous on its own, and the
// likely expansion (IFS as a space, `$(echo x)` as x) is checked against the blocklist as well.
import type { Word } from "./shell-parse.js";

/** Why `word`, in the program position, is built rather than written, or null. */
export function builtName(word: Word): string | null {
  if (word.dynamic) return `the program name \`${word.raw}\` is produced by an expansion when it runs`;
  if (word.expands && /[{*?[]/.test(word.raw))
    return `the program name \`${word.raw}\` is produced by brace or glob expansion`;
  if (word.quoted && !/^(\/[\w.+-]+)+$/.test(word.text))
    return `the program name \`${word.raw}\` is spelled with quotes or escapes`;
  return null;
}

/** Why `word`, in an argument position, is a flag built at run time, or null. */
export function builtFlag(word: Word): string | null {
  if (word.dynamic && /\$\{?IFS\b/.test(word.raw)) return `\`${word.raw}\` uses $IFS to hide word boundaries`;
  if (!word.text.startsWith("-") || word.text === "-" || word.text === "--") return null;
  // Only the option's name matters: `--format="%h %s"` quotes a value, which is ordinary.
  const eq = word.raw.indexOf("=");
  const name = eq < 0 ? word.raw : word.raw.slice(0, eq);
  if (/[$`]/.test(name)) return `the option \`${word.raw}\` is produced by an expansion when it runs`;
  // A wholly quoted word (`"-n"`) reads as written; quotes inside one (`-r""f`, `$'-rf'`) hide it.
  const whole = /^'[^']*'$|^"[^"$`\\]*"$/.test(word.raw);
  if (!whole && /['"\\]/.test(name)) return `the option \`${word.raw}\` is spelled with quotes or escapes`;
  return null;
}

/** Substitutions that only print their argument: `$(echo rm)`, `` `printf rm` ``. */
const ECHO_SUB =
  /\$\(\s*(?:echo|printf)\s+(?:-[neE]+\s+)?(['"]?)([^'"()`$;|&]*)\1\s*\)|`\s*(?:echo|printf)\s+(?:-[neE]+\s+)?(['"]?)([^'"()`$;|&]*)\3\s*`/g;

/**
 * The command as the shell would most likely run it: `$IFS` forms as a space, `$(echo x)` and
 * backtick echo as x, `${X:-y}` as y. A guess for the blocklist, never a promise.
 */
export function likelyExpansion(command: string): string {
  // `a=r; b=m; $a$b -rf /`: plain assignments earlier in the line stand for their values.
  const values = new Map<string, string>();
  for (const m of command.matchAll(
    /(?:^|[;&|\n\s])([A-Za-z_]\w*)=(?:'([^']*)'|"([^"$`]*)"|([^\s;&|'"$`]*))(?=[;&|\n\s]|$)/g,
  ))
    values.set(m[1]!, m[2] ?? m[3] ?? m[4] ?? "");
  let text = command
    .replace(/\$\{IFS[^}]*\}|\$IFS\b/g, " ")
    .replace(ECHO_SUB, (_m, _q1, a: string | undefined, _q3, b: string | undefined) => printfEscapes(a ?? b ?? ""))
    .replace(/\$\{(PATH|HOME|PWD|OLDPWD|SHELL):0:1\}/g, "/")
    .replace(/\$\{[A-Za-z_][A-Za-z0-9_]*:?[-=]([^}]*)\}/g, "$1")
    .replace(/\$\(\s*\)|``|\$[0-9@*]|\$\{[0-9@*]\}/g, "");
  if (values.size > 0)
    text = text.replace(
      /\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/g,
      (m, a: string | undefined, b: string | undefined) => values.get(a ?? b ?? "") ?? m,
    );
  // `{rm,-rf,/}` in the program position is brace expansion into words.
  return text.replace(
    /(^|[;&|\n]\s*)\{([^{}\s]+,[^{}\s]+)\}(?=\s|$)/g,
    (_m, lead: string, list: string) => `${lead}${list.split(",").join(" ")}`,
  );
}

/** `\x72\x6d` and `\162\155` as printf writes them. */
const printfEscapes = (s: string) =>
  s.replace(/\\x([0-9a-fA-F]{1,2})|\\([0-7]{1,3})/g, (_m, hex: string | undefined, oct: string | undefined) =>
    String.fromCharCode(hex !== undefined ? parseInt(hex, 16) : parseInt(oct!, 8)),
  );
