// The relevant-skills line joins the prompt's own user message (issue 30, item 4): a line of its
// own after the text, or one more text part after a prompt with images.
import type { ContentPart } from "../protocol/messages.js";

export function withHint(input: string | ContentPart[], hint: string): string | ContentPart[] {
  return typeof input === "string" ? `${input}\n\n${hint}` : [...input, { type: "text", text: hint }];
}
