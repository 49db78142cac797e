// /init and /review start model turns with long fixed prompts (fixed-prompts.ts): the
// transcript shows them as a one-line header, not as if the user had typed the whole prompt or
// diff. Enter in browse mode shows the full text.
import { INIT_PROMPT, REVIEW_LEAD } from "./fixed-prompts.js";

/** The header a fixed prompt shows as; null for any other prompt. */
export function fixedPromptHeader(text: string): { command: string; about: string } | null {
  if (text === INIT_PROMPT)
    return { command: "/init", about: "write or update AGENTS.md from a look at the repository" };
  if (!text.startsWith(REVIEW_LEAD)) return null;
  const focus = /^Focus on: (.*)$/m.exec(text)?.[1];
  let files = 0;
  let added = 0;
  let removed = 0;
  const diff = text.slice(text.indexOf("```diff"));
  for (const line of diff.split("\n")) {
    if (line.startsWith("+++ ")) files++;
    else if (line.startsWith("+")) added++;
    else if (line.startsWith("-") && !line.startsWith("--- ")) removed++;
  }
  return {
    command: `/review${focus ? ` ${focus}` : ""}`,
    about: `the uncommitted change: ${files} file${files === 1 ? "" : "s"}, +${added} −${removed}`,
  };
}
