// Ordering strings by their UTF-16 code units: ISO-8601 times then sort by time, and names by
// their characters, the same on every machine. String.prototype.localeCompare builds an ICU
// collator on its first call (~10 ms here), which every one-shot run and every UI start paid to
// order the task index by timestamps.

/** Ascending by code unit; for descending, swap the arguments. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
