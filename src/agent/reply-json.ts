// The auxiliary model's structured answers (the skill review, the consolidation pass): the first
// JSON object in its reply, which a model may wrap in prose or a code fence.

/** Contract: never throws; the first-to-last-brace span parsed as an object, or null. */
export function firstJsonObject(text: string): Record<string, unknown> | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  try {
    const value: unknown = JSON.parse(text.slice(start, end + 1));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
