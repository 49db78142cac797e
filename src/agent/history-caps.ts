// What a step leaves in the history: tool-call arguments are capped there (the call itself ran with
// all of them), so a session never outgrows what can be saved because of one huge write_file.

/** Characters of one call's arguments kept in the history. */
export const STORED_ARGUMENTS_CAP = 64_000;
/** A string argument longer than this keeps only its start in the history. */
const LONG_STRING = 4_000;
const KEEP = 1_000;

/**
 * Contract: returns `args` unchanged when it fits; otherwise valid JSON of the same object with its
 * long strings shortened and marked, or, when that is not enough (or it is not a JSON object), a
 * small JSON object that says what was dropped.
 */
export function capStoredArguments(args: string, cap = STORED_ARGUMENTS_CAP): string {
  if (args.length <= cap) return args;
  const dropped = JSON.stringify({
    _cut: `arguments of ${args.length.toLocaleString("en-US")} characters were not kept in the history`,
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return dropped;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return dropped;
  const shortened = Object.fromEntries(
    Object.entries(parsed as Record<string, unknown>).map(([k, v]) =>
      typeof v === "string" && v.length > LONG_STRING
        ? [k, `${v.slice(0, KEEP)}…[${(v.length - KEEP).toLocaleString("en-US")} more characters cut from the history]`]
        : [k, v],
    ),
  );
  const text = JSON.stringify(shortened);
  return text.length <= cap ? text : dropped;
}

/** Gives repeated (or empty) tool-call ids of one reply fresh ones, so every result pairs with one call. */
export function uniqueCallIds<T extends { id: string }>(calls: T[], fresh: (i: number) => string): T[] {
  const seen = new Set<string>();
  return calls.map((c, i) => {
    let id = c.id;
    if (!id || seen.has(id)) id = fresh(i);
    while (seen.has(id)) id = `${id}_`;
    seen.add(id);
    return id === c.id ? c : { ...c, id };
  });
}
