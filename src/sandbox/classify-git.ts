// Which git invocations only read, and how to run them so the repository's own config cannot make
// them run a program (fsmonitor, pagers, external diff, textconv, hooks, gpg, transports).

/** Why a git command is not read-only, and the word that made it so. */
export interface GitVerdict {
  ok: boolean;
  reason: string;
  part?: string;
}

/**
 * Global options that point git at another repository, work tree or ref namespace, in any
 * spelling (`-C dir`, `-C.`, `--git-dir=x`, `--git-dir x`, abbreviated). A repository the attacker
 * committed (`.evil-git` with `core.fsmonitor` set) runs its programs even on `status`, and the
 * neutralising `-c` overrides do not reach every config-driven program, so none is trusted.
 */
const REDIRECTING = ["git-dir", "work-tree", "namespace", "super-prefix", "exec-path", "attr-source"];
/** Global flags that change nothing but how git reads. */
const GLOBAL_FLAGS = new Set([
  "--no-pager",
  "-P",
  "--no-replace-objects",
  "--literal-pathspecs",
  "--glob-pathspecs",
  "--noglob-pathspecs",
  "--icase-pathspecs",
  "--no-optional-locks",
  "--version",
  "--exec-path",
  "--html-path",
  "--man-path",
  "--info-path",
]);

/**
 * Long options that write or run a program, for every subcommand. An abbreviation counts too:
 * git's option parser accepts any unambiguous prefix (`--outp=x` is `--output=x`).
 */
const ALWAYS_FORBIDDEN = ["output", "ext-diff", "textconv", "show-signature", "exec"];

interface SubRule {
  /** Extra long options that write or run something. */
  long?: string[];
  /** Short option letters that write or run something (checked in every cluster). */
  short?: string;
  /** A custom check over the subcommand's arguments; returns why it is not read-only. */
  check?: (args: string[]) => GitVerdict | null;
}

const fail = (reason: string, part?: string): GitVerdict => ({
  ok: false,
  reason,
  ...(part !== undefined ? { part } : {}),
});

/** Long option name without dashes and value: `--format=%h` -> `format`. */
const longName = (arg: string) => arg.slice(2).split("=")[0]!;
/** True when `name` is `forbidden` or an abbreviation of it. */
const abbreviates = (name: string, forbidden: string) => name.length > 0 && forbidden.startsWith(name);
/** The option `name` stands for: an exact name, else a unique abbreviation (as git's parser does). */
export function resolveLong(name: string, options: string[]): string | undefined {
  if (options.includes(name)) return name;
  const match = options.filter((o) => abbreviates(name, o));
  return match.length === 1 ? match[0] : undefined;
}

/**
 * Listing-only forms of `branch` and `tag`: any operand outside `--list` would create a branch or
 * tag, and every letter outside `allowedShort` deletes, moves, copies, signs or verifies.
 */
function listingOnly(what: string, allowedShort: string, allowedLong: string[]): (args: string[]) => GitVerdict | null {
  const valued = ["contains", "no-contains", "merged", "no-merged", "points-at", "sort", "format"];
  return (args) => {
    let listing = false;
    const operands: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (arg.startsWith("--")) {
        const known = resolveLong(longName(arg), [...allowedLong, ...valued]);
        if (known === undefined) return fail(`\`git ${what} ${arg}\` can create, delete or change a ${what}`, arg);
        if (known === "list") listing = true;
        if (!arg.includes("=") && valued.includes(known)) i++;
      } else if (arg.startsWith("-") && arg.length > 1) {
        const cluster = arg.slice(1).replace(/^n\d*$/, "n");
        const bad = [...cluster].find((c) => !allowedShort.includes(c));
        if (bad !== undefined) return fail(`\`git ${what} -${bad}\` can create, delete or change a ${what}`, arg);
        if (cluster.includes("l")) listing = true;
      } else operands.push(arg);
    }
    if (operands.length > 0 && !listing)
      return fail(`\`git ${what} ${operands[0]}\` creates a ${what} (only listing is read-only)`, operands[0]);
    return null;
  };
}

const CONFIG_READ = ["get", "get-all", "get-regexp", "get-urlmatch", "get-color", "get-colorbool", "list"];
const CONFIG_FLAGS = [
  "show-origin",
  "show-scope",
  "null",
  "name-only",
  "global",
  "system",
  "local",
  "worktree",
  "includes",
  "no-includes",
  "bool",
  "int",
  "bool-or-int",
  "path",
  "expiry-date",
];
const CONFIG_VALUED = ["file", "blob", "type", "default"];

/** `git config` only reads when it is a get/list form: no write, unset, rename or edit. */
function configReadOnly(args: string[]): GitVerdict | null {
  let action = false;
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith("--")) {
      const known = resolveLong(longName(arg), [...CONFIG_READ, ...CONFIG_FLAGS, ...CONFIG_VALUED]);
      if (known === undefined) return fail(`\`git config ${arg}\` can change configuration`, arg);
      if (CONFIG_READ.includes(known)) action = true;
      if (CONFIG_VALUED.includes(known) && !arg.includes("=")) i++;
    } else if (arg === "-l") action = true;
    else if (arg === "-z") continue;
    else if (arg === "-f") i++;
    else if (arg.startsWith("-")) return fail(`\`git config ${arg}\` can change configuration`, arg);
    else operands.push(arg);
  }
  // Subcommand syntax (git >= 2.46): `git config get NAME`, `git config list`.
  if (operands[0] === "get" || operands[0] === "list")
    return operands.length <= 3 ? null : fail("`git config` with extra operands writes", operands[3]);
  if (action) return operands.length <= 2 ? null : fail("`git config` with extra operands writes", operands[2]);
  // `git config NAME` reads; `git config NAME VALUE` writes; any other verb (set, unset, edit...) changes it.
  if (operands.length === 1 && operands[0]!.includes(".")) return null;
  return fail(
    "`git config` that is not a get or list form changes configuration",
    operands[1] ?? operands[0] ?? "config",
  );
}

const onlyVerb = (what: string, verbs: string[]) => (args: string[]) => {
  const verb = args.find((a) => !a.startsWith("-"));
  if (args.length === 0 && verbs.includes("")) return null;
  return verb !== undefined && verbs.includes(verb) && args.indexOf(verb) === 0
    ? null
    : fail(`only \`git ${what} ${verbs.filter(Boolean).join("|")}\` is read-only`, verb ?? what);
};

const SUBCOMMANDS: Record<string, SubRule> = {
  status: {},
  log: {},
  show: {},
  diff: {},
  whatchanged: {},
  "diff-tree": {},
  "diff-index": {},
  "diff-files": {},
  shortlog: {},
  blame: {},
  annotate: {},
  "ls-files": {},
  "ls-tree": {},
  "rev-parse": {},
  "rev-list": {},
  describe: {},
  "show-ref": {},
  "for-each-ref": {},
  "merge-base": {},
  "name-rev": {},
  "count-objects": {},
  cherry: {},
  "check-ignore": {},
  "check-attr": {},
  var: {},
  version: {},
  // `-O`/`--open-files-in-pager` opens the matches in a program of the caller's choosing.
  grep: { short: "O", long: ["open-files-in-pager"] },
  // `--filters` runs the repository's clean/smudge filter programs.
  "cat-file": { long: ["filters"] },
  reflog: {
    check: (args) => {
      const verb = args.find((a) => !a.startsWith("-"));
      return verb === "expire" || verb === "delete" || verb === "drop"
        ? fail(`\`git reflog ${verb}\` rewrites the reflog`, verb)
        : null;
    },
  },
  branch: {
    check: listingOnly("branch", "arlvqi", [
      "list",
      "all",
      "remotes",
      "verbose",
      "quiet",
      "show-current",
      "ignore-case",
      "color",
      "no-color",
      "column",
      "no-column",
      "abbrev",
      "no-abbrev",
      "omit-empty",
    ]),
  },
  tag: { check: listingOnly("tag", "lni", ["list", "ignore-case", "color", "column", "no-column", "omit-empty"]) },
  remote: {
    check: (args) => {
      if (args.every((a) => a === "-v" || a === "--verbose")) return null;
      if (args[0] === "get-url")
        return args.slice(1).filter((a) => !a.startsWith("-")).length <= 1 &&
          args.slice(1).every((a) => !a.startsWith("-") || a === "--push" || a === "--all")
          ? null
          : fail("`git remote get-url` with unexpected arguments", args[1]);
      // `git remote show` contacts the remote (and so may run core.sshCommand); the rest write.
      return fail(`\`git remote ${args[0]}\` changes remotes or contacts the network`, args[0]);
    },
  },
  config: { check: configReadOnly },
  stash: { check: onlyVerb("stash", ["list"]) },
  worktree: { check: onlyVerb("worktree", ["list"]) },
};

/** Index of the subcommand in `args` (after the global options), or a reason it cannot be trusted. */
function skipGlobals(args: string[]): { index: number } | GitVerdict {
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) {
    const opt = args[i]!;
    // `-c key=value` and `--config-env` can set core.pager, an alias or core.sshCommand to any program.
    if (opt.startsWith("-c") || opt.startsWith("--config-env"))
      return fail("`git -c`/`--config-env` can point git at any program", opt);
    if (opt.startsWith("-C")) return fail("`git -C` points git at a repository whose config may run programs", opt);
    if (
      opt.startsWith("--") &&
      opt.length > 2 &&
      REDIRECTING.some((r) => abbreviates(longName(opt), r)) &&
      !(opt === "--exec-path" && args.length === 1)
    )
      return fail(
        `\`git ${opt}\` points git at another repository, work tree or helper directory whose config may run programs`,
        opt,
      );
    if (GLOBAL_FLAGS.has(opt)) i++;
    else return fail(`the git option \`${opt}\` is not known to be read-only`, opt);
  }
  return { index: i };
}

/** Decides whether `git <args>` only reads. */
export function gitReadOnly(args: string[]): GitVerdict {
  const globals = skipGlobals(args);
  if ("ok" in globals) return globals;
  const sub = args[globals.index];
  if (sub === undefined)
    return args.includes("--version") || args.includes("--exec-path")
      ? { ok: true, reason: "git only prints its version or paths" }
      : fail("`git` without a subcommand");
  const rule = SUBCOMMANDS[sub];
  if (!rule) return fail(`\`git ${sub}\` is not a read-only git subcommand`, sub);
  const rest = args.slice(globals.index + 1);
  const long = [...ALWAYS_FORBIDDEN, ...(rule.long ?? [])];
  for (const arg of rest) {
    if (arg.startsWith("--")) {
      const hit = long.find((f) => abbreviates(longName(arg), f));
      if (hit) return fail(`\`git ${sub} --${hit}\` writes a file or runs a program`, arg);
    } else if (arg.startsWith("-") && rule.short && [...arg.slice(1)].some((c) => rule.short!.includes(c))) {
      return fail(`\`git ${sub} ${arg}\` runs a program`, arg);
    }
    // Signature placeholders make log/show/for-each-ref run gpg.program, which the repository can set.
    if (/%G|%\(signature/.test(arg)) return fail("a signature format runs gpg.program", arg);
  }
  const custom = rule.check?.(rest);
  if (custom) return custom;
  return { ok: true, reason: `\`git ${sub}\` only reads` };
}

/** Config that stops a read-only command from running anything the repository configured. */
const NEUTRAL_CONFIG = [
  "core.fsmonitor=false",
  "core.pager=cat",
  "diff.external=",
  "core.hooksPath=/dev/null",
  "log.showSignature=false",
  "protocol.allow=never",
];
const NO_EXT_DIFF = new Set(["diff", "log", "show", "whatchanged"]);
const NO_TEXTCONV = new Set(["diff", "log", "show", "whatchanged", "blame", "annotate", "grep"]);

/**
 * The argv to run for a trusted git command: `argv[0]` is git itself. Adds, in front of the
 * user's options, `--no-pager`, `--no-optional-locks` (so status does not rewrite the index and
 * fire post-index-change) and `-c` overrides for fsmonitor, the pager, external diff, hooks,
 * signature display and every transport (a lazy fetch could run core.sshCommand); after diff,
 * log and show `--no-ext-diff` and `--no-textconv` (blame and grep: `--no-textconv`).
 * `diff.external=` makes a forgotten external diff fail instead of running. Contract: the command
 * was accepted by `gitReadOnly`; clean/smudge filters from the repository's config are NOT
 * neutralised here (no switch turns them all off), which is why trusted git also belongs under
 * the read-only sandbox where one is available.
 */
export function neutraliseGit(argv: string[]): string[] {
  const [git, ...args] = argv;
  if (git === undefined) return [];
  const globals = skipGlobals(args);
  const index = "index" in globals ? globals.index : -1;
  const sub = index >= 0 ? args[index] : undefined;
  const after = [
    ...(sub && NO_EXT_DIFF.has(sub) ? ["--no-ext-diff"] : []),
    ...(sub && NO_TEXTCONV.has(sub) ? ["--no-textconv"] : []),
  ];
  const head = ["--no-pager", "--no-optional-locks", ...NEUTRAL_CONFIG.flatMap((c) => ["-c", c])];
  if (index < 0 || sub === undefined) return [git, ...head, ...args];
  return [git, ...head, ...args.slice(0, index + 1), ...after, ...args.slice(index + 1)];
}
