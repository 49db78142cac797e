// A heading line and a task item's box, the same for the cheap and the full renderer.
import type { MarkdownStyles } from "./markdown.js";

/**
 * A heading is known by its style, not by the `##` it was written with. Where the style draws
 * nothing (NO_COLOR, a monochrome terminal) the `#` marks stay, or a heading would read as prose.
 */
export function headingLine(text: string, depth: number, styles: MarkdownStyles): string {
  const marks = "#".repeat(Math.min(6, Math.max(1, depth)));
  // A title over its sections: H1 has its own style, so it never reads as one of them.
  const style = depth <= 1 ? (styles.heading1 ?? styles.heading) : styles.heading;
  if (text === "") return style(marks);
  const styled = style(text);
  return styled === text ? `${marks} ${text}` : styled;
}

/** The box of a task-list item: the styles' own, or ASCII. */
export const taskBoxOf = (styles: MarkdownStyles, checked: boolean): string =>
  styles.taskBox ? styles.taskBox(checked) : checked ? "[x]" : "[ ]";
