// Download-then-run: a file fetched by one part of a command list and run by a later part is
// pipe-to-shell spread over two commands. Apart from danger-command.ts, whose rules look at one
// simple command at a time; this one looks across the list.
import type { Hit } from "./danger-rules.js";
import { parseOptions } from "./options.js";
import type { SimpleCommand } from "./shell-parse.js";
import { INTERPRETERS, PRIVILEGED, SHELLS, unwrap } from "./unwrap.js";

/** Programs that fetch a URL (their output may be a script run later, or piped into a shell). */
export const DOWNLOADERS = new Set(["curl", "wget", "fetch", "aria2c", "http", "https", "lwp-request", "xh", "curlie"]);

/** Files a download writes: `curl -o F`, `curl ... > F`, `wget -O F`, `wget URL` (its last path part). */
function downloads(cmd: SimpleCommand): string[] {
  const u = unwrap(cmd.words.map((w) => w.text));
  if (!DOWNLOADERS.has(u.program)) return [];
  const out = cmd.redirects.filter((r) => /^(>|>>|>\||&>)$/.test(r.op) && r.target).map((r) => r.target!.text);
  const wget = u.program === "wget";
  // curl: -o FILE, -O (name from the URL); wget: -O FILE, otherwise the name from the URL.
  const o = parseOptions(u.args, {
    valued: wget ? "OoaPeTtUiBw" : "oHdXuAeEFKTwxzbcCmrQY",
    long: ["output=", "output-document=", "directory-prefix=", "header=", "data=", "remote-name"],
  });
  out.push(
    ...(o.values.get(wget ? "O" : "o") ?? []),
    ...(o.values.get("output") ?? []),
    ...(o.values.get("output-document") ?? []),
  );
  const remoteName = wget
    ? !o.values.has("O") && !o.values.has("output-document")
    : o.short.has("O") || o.long.has("remote-name");
  if (remoteName)
    out.push(
      ...o.operands
        .filter((a) => /^[a-z]+:\/\//i.test(a))
        .map(
          (url) =>
            url
              .replace(/[?#].*$/, "")
              .split("/")
              .pop() ?? "",
        )
        .filter(Boolean),
    );
  return out.filter((f) => f !== "-" && f !== "/dev/null");
}

const sameFile = (a: string, b: string) => a.replace(/^\.\//, "") === b.replace(/^\.\//, "");

/**
 * A file downloaded by one part of a list and run by a later part (`curl -o i.sh x && sh i.sh`,
 * `wget x/a && chmod +x a && ./a`) is pipe-to-shell spread over two commands.
 */
export function downloadThenRun(commands: readonly SimpleCommand[]): Hit[] {
  const fetched: string[] = [];
  const hits: Hit[] = [];
  for (const cmd of commands) {
    const u = unwrap(cmd.words.map((w) => w.text));
    const program = cmd.words[cmd.words.length - u.args.length - 1]?.text ?? "";
    const runs =
      SHELLS.has(u.program) || INTERPRETERS.has(u.program) || u.program === "source" || u.program === "."
        ? u.args.find((a) => !a.startsWith("-"))
        : program;
    if (runs !== undefined && fetched.some((f) => sameFile(f, runs))) {
      const root = u.wrappers.some((w) => PRIVILEGED.has(w));
      hits.push({
        rule: root ? "pipe-to-root-shell" : "pipe-to-shell",
        reason: `\`${runs}\` was just downloaded and is run${root ? " as root" : ""} unseen`,
        part: cmd.raw,
      });
    }
    fetched.push(...downloads(cmd));
  }
  return hits;
}
