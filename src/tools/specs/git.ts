// The specs of git_status, git_diff, git_log and git_commit (the implementations are src/tools/git.ts).
import * as z from "../../protocol/zod.js";
import { defineSpec } from "../define.js";

export const LOG_DEFAULT = 20;
export const LOG_MAX = 200;
const diffParams = z.object({
  ref: z.optional(
    z
      .string()
      .check(
        z.minLength(1),
        z.describe('Compare against this commit, branch or range (e.g. "HEAD~3", "main", "main...HEAD").'),
      ),
  ),
  staged: z.optional(
    z.boolean().check(z.describe("Show staged changes (the index) instead of unstaged ones. Default false.")),
  ),
  path: z.optional(z.string().check(z.minLength(1), z.describe("Only this file or directory."))),
});

export const gitStatusSpec = defineSpec({
  name: "git_status",
  kind: "read",
  description:
    "Show the current branch (with upstream, ahead/behind) and the changed, staged and untracked files of the workspace's git repository.",
  params: z.object({}),
  summarize: () => "git status",
});

export const gitDiffSpec = defineSpec({
  name: "git_diff",
  kind: "read",
  description:
    "Show a unified diff of the workspace's git repository: unstaged changes by default, staged ones with staged: true, " +
    "or against a ref; optionally for one path. Long diffs are cut, with the list of changed files.",
  params: diffParams,
  truncate: "head",
  moreHint: "Pass path to see one file's diff.",
  summarize: (a) => ["git diff", a.staged ? "--staged" : "", a.ref ?? "", a.path ?? ""].filter(Boolean).join(" "),
});

export const gitLogSpec = defineSpec({
  name: "git_log",
  kind: "read",
  description: `List recent commits of the workspace's git repository, one per line: short hash, date, author and subject. Newest first.`,
  params: z.object({
    count: z.optional(
      z
        .int()
        .check(
          z.minimum(1),
          z.maximum(LOG_MAX),
          z.describe(`How many commits (default ${LOG_DEFAULT}, at most ${LOG_MAX}).`),
        ),
    ),
    path: z.optional(z.string().check(z.minLength(1), z.describe("Only commits that touched this file or directory."))),
  }),
  summarize: (a) => ["git log", a.count !== undefined ? `-n ${a.count}` : "", a.path ?? ""].filter(Boolean).join(" "),
});

export const gitCommitSpec = defineSpec({
  name: "git_commit",
  kind: "edit",
  description:
    "Commit to the workspace's git repository. With paths: stages exactly those files or directories (new, changed and deleted) " +
    "and commits only them; other staged changes stay staged. Without paths: commits what is already staged. " +
    "The repository's hooks run; a hook that fails refuses the commit. Returns the new commit's hash.",
  params: z.object({
    message: z
      .string()
      .check(
        z.minLength(1),
        z.describe("The commit message: a short subject line, optionally a blank line and a body."),
      ),
    paths: z.optional(
      z
        .array(z.string().check(z.minLength(1)))
        .check(
          z.minLength(1),
          z.maxLength(1000),
          z.describe("Files or directories to stage and commit (literal paths, no globs)."),
        ),
    ),
    skip_hooks: z.optional(
      z
        .boolean()
        .check(z.describe("Skip the pre-commit and commit-msg hooks (--no-verify). Only when the user asked for it.")),
    ),
  }),
  summarize: (a) => `git commit${a.paths ? ` ${a.paths.join(" ")}` : ""}: ${a.message.split("\n", 1)[0]}`,
});
