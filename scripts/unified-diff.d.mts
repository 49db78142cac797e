// Types of scripts/unified-diff.mjs for the TypeScript that imports it (tests).
export interface Hunk {
  /** The hunk's header, `@@ -l,n +l,n @@`. */
  at: string;
  oldStart: number;
  oldLines: string[];
  newLines: string[];
  oldNoEol: boolean;
  newNoEol: boolean;
}
export interface ParsedDiff {
  file: string;
  header: string;
  hunks: Hunk[];
}
export function parseDiff(text: string, name: string): ParsedDiff;
export function applyDiff(text: string, diff: ParsedDiff, where: string): string;
export function hunkLine(hunk: Hunk): number;
export function hunkMismatch(lines: string[], finalNewline: boolean, hunk: Hunk, from: number): string | null;
