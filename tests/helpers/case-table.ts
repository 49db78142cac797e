// Reads the classifier case tables (tests/sandbox/cases/*.tsv): one case a line,
// `VERDICT[:RULE] <TAB> COMMAND [<TAB> # comment]`; a COMMAND that is a whole JSON string is decoded.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface Case {
  file: string;
  line: number;
  verdict: "trusted" | "ask" | "dangerous" | "blocked";
  rule: string | null;
  command: string;
  comment: string;
}

const VERDICTS = new Set(["trusted", "ask", "dangerous", "blocked"]);

/** A field that is a whole JSON string (`"ls\\npwd"`) is decoded; anything else is the command as written. */
function asCommand(raw: string): string {
  if (!/^".*"$/.test(raw)) return raw;
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw;
  }
}

/** Every case in `dir`, in file and line order; throws on a malformed line so a typo cannot hide a case. */
export function readCases(dir: string): Case[] {
  const cases: Case[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".tsv"))
    .sort()) {
    readFileSync(join(dir, file), "utf8")
      .split("\n")
      .forEach((text, k) => {
        if (text.trim() === "" || text.startsWith("#")) return;
        const [head, raw, ...rest] = text.split("\t");
        const [verdict, rule] = (head ?? "").split(":");
        if (!VERDICTS.has(verdict ?? "") || raw === undefined)
          throw new Error(`${file}:${k + 1}: malformed case ${JSON.stringify(text)}`);
        const command = asCommand(raw);
        cases.push({
          file,
          line: k + 1,
          verdict: verdict as Case["verdict"],
          rule: rule ?? null,
          command,
          comment: rest.join("\t").replace(/^#\s*/, ""),
        });
      });
  }
  return cases;
}
