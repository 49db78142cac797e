// Git commands that lose work or rewrite shared history, with options read as git reads them
// (global options skipped in every spelling, abbreviated long options, flags after operands).
import type { Hit } from "./danger-rules.js";
import { hasOption, parseOptions, possibleOptions } from "./options.js";

/** Index of the subcommand: past `-C dir`, `-C.`, `-c k=v`, `--git-dir=x`, `--git-dir x`, flags. */
export function gitSubcommandIndex(args: readonly string[]): number {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) {
    const a = args[i]!;
    if (a === "--") return i + 1;
    i += [
      "-C",
      "-c",
      "--git-dir",
      "--work-tree",
      "--namespace",
      "--config-env",
      "--super-prefix",
      "--attr-source",
      "--list-cmds",
    ].includes(a)
      ? 2
      : 1;
  }
  return i;
}

const PUSH = [
  "force",
  "force-with-lease",
  "force-if-includes",
  "mirror",
  "delete",
  "prune",
  "all",
  "tags",
  "dry-run",
  "verbose",
  "quiet",
  "set-upstream",
  "no-verify",
  "verify",
  "atomic",
  "follow-tags",
  "porcelain",
  "repo=",
  "receive-pack=",
  "exec=",
  "push-option=",
  "signed",
  "no-signed",
  "ipv4",
  "ipv6",
  "progress",
  "recurse-submodules=",
];
const RESET = [
  "hard",
  "soft",
  "mixed",
  "merge",
  "keep",
  "quiet",
  "patch",
  "no-refresh",
  "refresh",
  "recurse-submodules",
  "no-recurse-submodules",
  "intent-to-add",
  "pathspec-from-file=",
  "pathspec-file-nul",
];
const CLEAN = ["force", "dry-run", "quiet", "interactive", "exclude="];
const BRANCH = [
  "delete",
  "force",
  "move",
  "copy",
  "list",
  "all",
  "remotes",
  "verbose",
  "quiet",
  "track",
  "no-track",
  "set-upstream-to=",
  "unset-upstream",
  "contains=",
  "merged=",
  "no-merged=",
  "sort=",
  "format=",
  "show-current",
  "color",
  "no-color",
  "column",
  "no-column",
  "points-at=",
  "create-reflog",
  "edit-description",
  "ignore-case",
  "abbrev=",
  "recurse-submodules",
];
const CHECKOUT = [
  "force",
  "quiet",
  "merge",
  "detach",
  "orphan=",
  "ours",
  "theirs",
  "patch",
  "track",
  "no-track",
  "conflict=",
  "discard-changes",
  "staged",
  "worktree",
  "source=",
  "overlay",
  "no-overlay",
  "create=",
  "force-create=",
  "guess",
  "no-guess",
  "progress",
  "pathspec-from-file=",
  "ignore-other-worktrees",
  "recurse-submodules",
];

/** Rules on `git <args>`; `part` is the command text for the hit. */
export function gitHits(args: readonly string[], part: string): Hit[] {
  const at = gitSubcommandIndex(args);
  const sub = args[at];
  const rest = args.slice(at + 1);
  const hit = (rule: string, reason: string): Hit[] => [{ rule, reason, part }];
  switch (sub) {
    case "push": {
      const o = parseOptions(rest, { valued: "o", long: PUSH });
      if (
        hasOption(o, "f", "force") ||
        o.long.has("force-with-lease") ||
        o.long.has("force-if-includes") ||
        o.operands.slice(1).some((r) => r.startsWith("+"))
      )
        return hit("git-force-push", "a forced push overwrites the remote branch's history");
      if (
        o.long.has("mirror") ||
        hasOption(o, "d", "delete") ||
        o.operands.slice(1).some((r) => r.startsWith(":")) ||
        (o.long.has("prune") && o.operands.length > 0)
      )
        return hit("git-force-push", "this push deletes branches on the remote");
      return [];
    }
    case "reset": {
      const o = parseOptions(rest, { long: RESET });
      // `--h` could only be --hard among reset's modes; an unknown prefix counts as every option it could be.
      if (o.long.has("hard") || o.unknown.some((u) => possibleOptions(u, ["hard"]).length > 0))
        return hit("git-discard-changes", "git reset --hard throws away uncommitted changes");
      return [];
    }
    case "clean": {
      const o = parseOptions(rest, { valued: "e", long: CLEAN });
      return hasOption(o, "f", "force") && !hasOption(o, "n", "dry-run")
        ? hit("git-discard-changes", "git clean -f deletes untracked files")
        : [];
    }
    case "branch": {
      const o = parseOptions(rest, { valued: "u", long: BRANCH });
      if (
        o.short.has("D") ||
        ((hasOption(o, "d", "delete") || o.short.has("M") || o.short.has("C") || hasOption(o, "m", "move")) &&
          hasOption(o, "f", "force"))
      )
        return hit("git-discard-changes", "a forced branch delete or overwrite loses commits no other branch has");
      return [];
    }
    case "checkout":
    case "restore":
    case "switch": {
      const o = parseOptions(rest, { valued: "bBs", long: CHECKOUT });
      const whole = o.operands.some((t) => t === "." || t === "*" || t === ":/" || t === "./");
      const staged = sub === "restore" && o.long.has("staged") && !o.long.has("worktree");
      if ((whole && !staged) || (sub !== "restore" && hasOption(o, "f", "force")) || o.long.has("discard-changes"))
        return hit(
          "git-discard-changes",
          `git ${sub} ${whole ? "of the whole tree" : "--force"} throws away uncommitted changes`,
        );
      return [];
    }
    case "rm": {
      const o = parseOptions(rest, {
        long: [
          "force",
          "cached",
          "dry-run",
          "quiet",
          "ignore-unmatch",
          "sparse",
          "pathspec-from-file=",
          "pathspec-file-nul",
        ],
      });
      const whole = o.operands.some((t) => /^(\.|\.\/|\*|:\/|:\/\*|\.\/\*|:\/:?)$/.test(t));
      return o.short.has("r") && whole && !o.long.has("cached") && !hasOption(o, "n", "dry-run")
        ? hit("git-discard-changes", "git rm -r of the whole tree deletes every tracked file")
        : [];
    }
    case "stash":
      return rest[0] === "clear" || rest[0] === "drop"
        ? hit("git-discard-changes", `git stash ${rest[0]} deletes ${rest[0] === "clear" ? "every stash" : "a stash"}`)
        : [];
    case "config": {
      const o = parseOptions(rest, {
        valued: "f",
        long: [
          "global",
          "system",
          "file=",
          "get",
          "get-all",
          "list",
          "unset",
          "unset-all",
          "add",
          "replace-all",
          "edit",
          "type=",
          "local",
          "worktree",
        ],
      });
      const reads =
        o.long.has("get") ||
        o.long.has("get-all") ||
        o.long.has("list") ||
        o.short.has("l") ||
        o.operands[0] === "get" ||
        o.operands[0] === "list" ||
        o.operands.length === 1;
      if ((o.long.has("global") || o.long.has("system")) && !reads)
        return hit(
          o.long.has("system") ? "system-file-write" : "credential-write",
          `git config --${o.long.has("system") ? "system" : "global"} changes configuration every repository on this machine runs with`,
        );
      return [];
    }
  }
  return [];
}
