// The fixed prompts behind /init and /review: model turns the user starts with one word.

/** Caps the diff a review prompt carries: the model can read more with git_diff itself. */
export const REVIEW_DIFF_MAX_CHARS = 40_000;

export const INIT_PROMPT = [
  "Look at this repository and write AGENTS.md at its root: the instructions a coding agent needs to work here.",
  "Read what is there first (README, build and test configuration, the source layout, CI files, an existing AGENTS.md or CLAUDE.md) with the read-only tools; do not guess.",
  "Cover, briefly: what the project is; how to build, run, lint and test it (exact commands, how to run one test); the layout (where things live); the code style and conventions the code actually follows; anything surprising or easy to get wrong.",
  "If AGENTS.md exists, update it: keep what is still true, fix what is not, add what is missing. Keep it short (under about 150 lines), in plain Markdown.",
  "When done, say in two or three sentences what you wrote or changed.",
].join("\n");

/** How every review prompt starts (view/fixed-prompt-view.ts shows such a prompt as a header). */
export const REVIEW_LEAD =
  "Review the uncommitted change in this repository (the working tree against HEAD, new files not yet added to git included, below).";

export function reviewPrompt(diff: string, focus: string | null): string {
  const cut =
    diff.length > REVIEW_DIFF_MAX_CHARS
      ? `${diff.slice(0, REVIEW_DIFF_MAX_CHARS)}\n[... the diff goes on; use git_diff with a path to read the rest]`
      : diff;
  return [
    REVIEW_LEAD,
    "Look for bugs, missed cases, security problems, unclear or dead code, and missing tests; read the surrounding code where the diff alone does not tell. Do not change any file.",
    "Answer with a list of findings, most important first, each with the file and line and a concrete suggestion; then one line with your overall verdict. Say so plainly if you find nothing worth changing.",
    ...(focus ? [`Focus on: ${focus}`] : []),
    "",
    "```diff",
    cut.trimEnd(),
    "```",
  ].join("\n");
}
