// AGENTS.md: the user's standing instructions (global in the settings folder, then the workspace's),
// read once per session into a prompt section, with characters that can hide instructions removed.
import { join } from "node:path";
import { capChars, readTextPrefix, stripInvisible } from "../tools/instruction-text.js";
import { heldInstructions, releaseInstructions } from "../config/instruction-changes.js";

/** Characters per file; the rest is cut with a note. */
export const MAX_AGENTS_MD = 20_000;

export interface AgentsMd {
  /** The prompt section, or "" when there is no instruction file with content. */
  text: string;
  /** The files that went into `text`, global first. */
  files: string[];
  /** For the user: removed hidden characters, files skipped as unreadable or binary. */
  warnings: string[];
}

/**
 * Contract: synchronous, never throws; a missing file is not a warning. The workspace file comes
 * last so its more specific instructions have the final word.
 */
export function loadAgentsMd(opts: { workspace: string; home: string; trusted?: boolean }): AgentsMd {
  const candidates = [
    { path: join(opts.home, "AGENTS.md"), label: "global" },
    { path: join(opts.workspace, "AGENTS.md"), label: "workspace" },
  ];
  const files: string[] = [];
  const warnings: string[] = [];
  const parts: string[] = [];
  const seen = new Set<string>();
  // A workspace AGENTS.md still as a command left it (issue 26.3) waits until the user takes it back.
  const held = opts.workspace !== opts.home && heldInstructions(opts.home, opts.workspace).includes("AGENTS.md");
  if (held && opts.trusted) releaseInstructions(opts.home, opts.workspace);
  for (const { path, label } of candidates) {
    if (seen.has(path)) continue;
    seen.add(path);
    if (held && !opts.trusted && label === "workspace") {
      warnings.push(
        `${path} was changed by a command, not by you; it is left out of the system prompt until you read it and take it back: answer y to the trust question, rerun once with --trust, or edit it yourself`,
      );
      continue;
    }
    // 4 bytes per character at most, so this always holds more than the cap when the file does.
    const read = readTextPrefix(path, MAX_AGENTS_MD * 4 + 4);
    if (!read.ok) {
      if (!read.missing) warnings.push(`${path} ${read.reason}; skipped`);
      continue;
    }
    const stripped = stripInvisible(read.text);
    if (stripped.removed > 0) {
      warnings.push(
        `removed ${stripped.removed} invisible character${stripped.removed === 1 ? "" : "s"} (zero-width or bidi controls that can hide instructions) from ${path}`,
      );
    }
    const content = stripped.text.trim();
    if (content === "") continue;
    const note = `[${path} cut at ${MAX_AGENTS_MD} characters]`;
    let capped = capChars(content, MAX_AGENTS_MD, note);
    // Only possible when most of what was read were hidden characters: the file still goes on.
    if (!capped.cut && !read.complete) capped = { text: `${content}\n\n${note}`, cut: true };
    if (capped.cut) warnings.push(`${path} is longer than ${MAX_AGENTS_MD} characters; only the start is used`);
    files.push(path);
    parts.push(`## ${path} (${label})`, "", capped.text, "");
  }
  if (parts.length === 0) return { text: "", files, warnings };
  const intro =
    files.length > 1
      ? "Standing instructions from the user's AGENTS.md files. Follow them; where they disagree, the workspace file (last) wins."
      : "Standing instructions from the user's AGENTS.md file. Follow them.";
  return { text: ["# Project instructions (AGENTS.md)", intro, "", ...parts].join("\n").trimEnd(), files, warnings };
}
