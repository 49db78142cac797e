// The word lists and small predicates the dangerous-command rules (danger-command.ts) read:
// SQL clients and destructive SQL, find's tests, package managers, metadata hosts, decoders,
// chmod modes, kill's targets and brace expansion.
import type { Unwrapped } from "./unwrap.js";

export const SQL_CLIENTS = new Set([
  "psql",
  "mysql",
  "mariadb",
  "sqlite3",
  "sqlite",
  "duckdb",
  "sqlcmd",
  "clickhouse-client",
  "pgcli",
  "mycli",
  "litecli",
  "usql",
  "cockroach",
]);
export const FIND_TESTS = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-newer",
  "-mtime",
  "-mmin",
  "-atime",
  "-amin",
  "-ctime",
  "-cmin",
  "-size",
  "-empty",
  "-user",
  "-group",
  "-perm",
  "-lname",
  "-ilname",
  "-links",
  "-inum",
  "-samefile",
  "-type",
]);
export const METADATA_HOSTS =
  /(^|[/@[])(169\.254\.169\.254|\[?fd00:ec2::254\]?|metadata\.google\.internal|100\.100\.100\.200|169\.254\.170\.2)([:/\]]|$)/;
export const UNINSTALL = /^(uninstall|remove|rm|r|un|unlink|purge|autoremove|erase)$/;
export const PACKAGE_MANAGERS = new Set([
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "pip",
  "pip3",
  "pipx",
  "uv",
  "brew",
  "apt",
  "apt-get",
  "dnf",
  "yum",
  "pacman",
  "zypper",
  "apk",
  "port",
  "gem",
  "conda",
  "mamba",
  "snap",
  "flatpak",
]);

/** Why SQL in `text` destroys data, or null. */
export function destructiveSql(text: string): string | null {
  const drop = /\bdrop\s+(table|database|schema)\b/i.exec(text);
  if (drop) return `${drop[0].toUpperCase()} deletes it with all its data`;
  if (/\btruncate\s+(table\s+)?[\w"`.]/i.test(text)) return "TRUNCATE empties a table";
  for (const statement of text.split(";")) {
    if (/\bdelete\s+from\s+\S+/i.test(statement) && !/\bwhere\b/i.test(statement))
      return "DELETE FROM without WHERE empties a table";
  }
  return null;
}

/** A shell reads its script from stdin when given no script operand (or `-s` / `-`). */
export function readsStdin(args: string[]): boolean {
  for (const a of args) {
    if (a === "-" || a === "-s") return true;
    if (!a.startsWith("-")) return false;
  }
  return true;
}

export function isDecoder(u: Unwrapped): boolean {
  const decode = u.args.some((a) => a === "-d" || a === "--decode" || a === "-D" || /^-[a-z]*d/.test(a));
  if (["base64", "base32", "basenc", "base58"].includes(u.program)) return decode;
  if (u.program === "xxd") return u.args.some((a) => /^-[a-z]*r/.test(a));
  if (u.program === "openssl") return u.args.includes("-d") || u.args.includes("-base64");
  return ["uudecode", "gunzip", "zcat", "xzcat", "bzcat", "rev", "tr"].includes(u.program);
}

export function worldWritable(spec: string): boolean {
  if (/^[0-7]{3,4}$/.test(spec)) return "2367".includes(spec.at(-1)!);
  return spec.split(",").some((clause) => {
    const m = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    return m !== null && m[2] !== "-" && m[3]!.includes("w") && (/[oa]/.test(m[1]!) || m[1] === "");
  });
}

/** The pids `kill` is given: the first `-SIG`/`-N` is the signal, later ones are (group) pids. */
export function killTargets(args: string[]): string[] {
  const targets: string[] = [];
  let signal = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") targets.push(...args.slice(i + 1)), (i = args.length);
    else if (a === "-s" || a === "-n" || a === "--signal") i++, (signal = true);
    else if (a.startsWith("-") && !signal && !/^-(l|L|-list|-table)$/.test(a)) signal = true;
    else targets.push(a);
  }
  return targets;
}

/** `/{bin,etc}` -> `/bin`, `/etc`: the words bash's brace expansion makes (one level). */
export function braceWords(t: string): string[] {
  const m = /^([^{]*)\{([^{}]*,[^{}]*)\}(.*)$/.exec(t);
  return m ? m[2]!.split(",").map((part) => `${m[1]}${part}${m[3]}`) : [t];
}
