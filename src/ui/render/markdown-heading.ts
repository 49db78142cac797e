// A heading line, the same for the cheap and the full renderer.
import type { MarkdownStyles } from "./markdown.js";

/**
 * A heading is known by its style, not by the `##` it was written with. Where the style draws
 * nothing (NO_COLOR, a monochrome terminal) the `#` marks stay, or a heading would read as prose.
 */
export function headingLine(text: string, depth: number, styles: MarkdownStyles): string {
  const marks = "#".repeat(Math.min(6, Math.max(1, depth)));
  if (text === "") return styles.heading(marks);
  const styled = styles.heading(text);
  return styled === text ? `${marks} ${text}` : styled;
}
