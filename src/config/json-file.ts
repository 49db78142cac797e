// Reading a JSON file named by a flag (--mcp, --subagents) against a zod schema, with one-line
// errors that name the file and the key, as config.json's errors do.
import { readFileSync } from "node:fs";
import type * as z from "../protocol/zod.js";

/** The parsed JSON of `file`; throws "cannot read WHAT FILE: ..." or "invalid WHAT FILE: not valid JSON (...)". */
export function readJson(file: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(
      code
        ? `cannot read ${what} ${file}: ${(error as Error).message}`
        : `invalid ${what} ${file}: not valid JSON (${(error as Error).message})`,
    );
  }
}

/** `data` checked against `schema`; throws "invalid WHAT FILE: "key": message" for the first problem. */
export function checked<T extends z.ZodMiniType>(schema: T, data: unknown, what: string, file: string): z.infer<T> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new Error(`invalid ${what} ${file}: "${issue.path.join(".") || "(top level)"}": ${issue.message}`);
}
