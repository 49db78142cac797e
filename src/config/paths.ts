// Where NanoHermes keeps its files: ~/.nanohermes (or $NANOHERMES_HOME) and <workspace>/.nanohermes.
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";

export function nanohermesHome(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.NANOHERMES_HOME;
  return override && override.length > 0 ? override : join(homedir(), ".nanohermes");
}

export const userConfigPath = (home: string) => join(home, "config.json");
export const workspaceConfigPath = (workspace: string) => join(workspace, ".nanohermes", "config.json");
export const defaultSessionDir = (home: string) => join(home, "sessions");
export const logPath = (home: string) => join(home, "logs", "nanohermes.log");
/** Where `--daemon` listens and `attach` and `cron` look by default. */
export const defaultSocketPath = (home: string): string => join(home, "daemon.sock");

/**
 * Why `dir` cannot hold NanoHermes files, or null. /proc and /sys are kernel views, not storage:
 * creating folders or renaming files there fails in odd ways or never finishes (the issue behind
 * this check: a session folder under /proc made every save spin). A symlink into them counts too.
 */
export function virtualFsProblem(dir: string): string | null {
  let probe = resolve(dir);
  // The nearest part of the path that exists, with its symlinks resolved.
  for (;;) {
    try {
      probe = join(realpathSync(probe), relative(probe, resolve(dir)));
      break;
    } catch {
      const parent = dirname(probe);
      if (parent === probe) break;
      probe = parent;
    }
  }
  for (const root of ["/proc", "/sys"]) {
    if (probe === root || probe.startsWith(`${root}/`))
      return `${dir} is under ${root}, a kernel file system that cannot hold files; choose a folder on a disk`;
  }
  return null;
}
