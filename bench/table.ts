// The bench's tables: the first column left-aligned, the others right-aligned.
export function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const row of rows)
    console.log(row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  "));
}
