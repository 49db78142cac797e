// Programs the user's hooks and MCP servers launch run outside the command sandbox, so none may
// come from where a sandboxed command can write: they start in a folder outside every writable
// root, with a PATH that leads into none, and one whose program resolves beneath a root is refused.
import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, isAbsolute, join, resolve, sep } from "node:path";

const inside = (root: string, path: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
const beneath = (roots: string[], path: string) => roots.some((root) => inside(resolve(root), path));

/** Where launchers start: the home folder, or `/` when the home folder lies in a writable root. */
export function launcherCwd(roots: string[], home = homedir()): string {
  return beneath(roots, resolve(home)) || roots.some((root) => inside(resolve(home), resolve(root))) ? "/" : home;
}

/** `PATH` without relative entries and entries beneath a writable root (a project's `.bin` folder of its dependencies, `.`). */
export function launcherPath(path: string | undefined, roots: string[]): string {
  return (path ?? "")
    .split(delimiter)
    .filter((dir) => dir !== "" && isAbsolute(dir) && !beneath(roots, resolve(dir)))
    .join(delimiter);
}

/** Interpreters whose first operand is the program that really runs. */
const INTERPRETERS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "node",
  "python",
  "python3",
  "ruby",
  "perl",
  "deno",
  "bun",
  "tsx",
]);

/** Words of a simple command line, quotes removed (enough to find its program; not a shell). */
const words = (line: string) => [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");

function lookup(program: string, path: string): string | null {
  for (const dir of path.split(delimiter)) {
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** Options after which an interpreter runs the next word as code, not a file. */
const INLINE_CODE = new Set(["-e", "--eval", "-c", "-E", "-r"]);

/**
 * Contract: why a hook (`argv` null: a shell command line) or an MCP server (`program` and `argv`)
 * must not start, or null. The program, and for an interpreter its script, are resolved as the
 * user most likely meant them (relative to the workspace, `$NANOHERMES_WORKSPACE` expanded, the
 * PATH searched); one beneath a writable root is refused, since a sandboxed command could have
 * changed it and it would run with the user's full rights.
 */
export function launcherProblem(
  program: string,
  argv: string[] | null,
  opts: { workspace: string; roots: string[]; env: NodeJS.ProcessEnv },
): string | null {
  const parts = argv === null ? words(program) : [program, ...argv];
  while (parts.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(parts[0]!)) parts.shift();
  const expand = (word: string) =>
    word.replace(/\$\{?NANOHERMES_WORKSPACE\}?/g, opts.workspace).replace(/^~(?=\/)/, homedir());
  const path = launcherPath(opts.env.PATH, opts.roots);
  const where = (word: string): string | null => {
    const w = expand(word);
    if (w.includes("/")) return resolve(opts.workspace, w);
    return lookup(w, path);
  };
  const candidates = [parts[0] ?? ""];
  const base = (parts[0] ?? "").split("/").pop() ?? "";
  if (INTERPRETERS.has(base)) {
    // The first word that is no option is the script, unless inline code came first (`node -e
    // CODE`, `python -c CODE`, `sh -c CODE`): then there is no script file to check.
    const rest = parts.slice(1);
    for (const [i, word] of rest.entries()) {
      if (INLINE_CODE.has(word)) {
        // Files the code names by path (`require('/ws/x.js')`, `import('./x.mjs')`) are what it runs.
        for (const named of (rest[i + 1] ?? "").match(/(?:\.{0,2}\/|~\/)[^\s'"`),;]+/g) ?? []) candidates.push(named);
        break;
      }
      if (word.startsWith("-")) continue;
      candidates.push(word);
      break;
    }
  }
  for (const word of candidates) {
    const real = where(word);
    if (real !== null && beneath(opts.roots, real))
      return `${word} resolves to ${real}, inside a folder sandboxed commands can write, and would run outside the sandbox with your rights; move it outside the workspace (for example to ~/.nanohermes/hooks/) and name it by its absolute path`;
  }
  return runnerProblem(base, parts.slice(1), where(parts[0] ?? ""), opts);
}

/** Package runners: they run a package found in a project folder, the global prefix or their cache. */
const RUNNERS = new Set(["npx", "pnpx", "bunx"]);
const RUNNER_SUBCOMMANDS = new Set(["exec", "x", "dlx"]);

/** `key=value` of an npmrc file (the last one wins, as npm reads it), or null. */
function npmrcValue(file: string, key: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  let found: string | null = null;
  for (const line of text.split("\n")) {
    const m = /^\s*([^=;#\s]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (m?.[1]?.toLowerCase() === key) found = m[2]!.replace(/^["']|["']$/g, "");
  }
  return found;
}

/**
 * Contract: for a package runner (`npx`, `npm exec`, `pnpm dlx`, `bunx`, ...) why it must not start,
 * or null. It runs the first package it finds for the name: in the project around its working
 * folder (node_modules), in the global prefix, in its cache, or from the registry its user config
 * names. When any of these, or the user config itself, lies beneath a writable root, a sandboxed
 * command could have planted what it runs (a `~/.npmrc` naming another registry, a package in the
 * prefix or the `_npx` cache), so it is refused. Read from the launch environment as npm reads it.
 */
export function runnerProblem(
  base: string,
  rest: string[],
  program: string | null,
  opts: { roots: string[]; env: NodeJS.ProcessEnv },
): string | null {
  const runner =
    RUNNERS.has(base) || (["npm", "pnpm", "yarn", "bun"].includes(base) && RUNNER_SUBCOMMANDS.has(rest[0] ?? ""));
  if (!runner) return null;
  const env = opts.env;
  const home = env.HOME ?? homedir();
  const setting = (key: string, file: string | null) =>
    env[`npm_config_${key}`] ?? env[`NPM_CONFIG_${key.toUpperCase()}`] ?? (file ? npmrcValue(file, key) : null);
  const tilde = (path: string) => (path.startsWith("~/") ? join(home, path.slice(2)) : resolve(path));
  const userconfig = tilde(setting("userconfig", null) ?? join(home, ".npmrc"));
  // npm's default global prefix is the folder its node lives in, one up from bin/.
  const prefix = tilde(setting("prefix", userconfig) ?? (program ? dirname(dirname(program)) : "/usr"));
  const cache = tilde(setting("cache", userconfig) ?? join(home, ".npm"));
  const places: [string, string][] = [
    [userconfig, "its npm user config, which names the registry and the folders below"],
    [prefix, "its global prefix, where it looks for the package first"],
    [join(prefix, "etc", "npmrc"), "its global npm config"],
    [join(cache, "_npx"), "its cache of packages it ran before"],
  ];
  // The project around the folder it starts in (launcherCwd), as npm finds its local prefix.
  for (let dir = launcherCwd(opts.roots, home); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules")) || existsSync(join(dir, "package.json")))
      places.push([dir, "the project around the folder it starts in"]);
    if (dirname(dir) === dir) break;
  }
  const hit = places.find(([path]) => beneath(opts.roots, path));
  if (!hit) return null;
  return `${base} would run a package from ${hit[0]} (${hit[1]}), inside a folder sandboxed commands can write, with your rights, and a command could have planted it there; install the server outside the workspace and name its program by an absolute path, or point npm_config_userconfig, npm_config_prefix and npm_config_cache in the server's env outside every writable root`;
}
