// Where NanoHermes keeps its files: ~/.nanohermes (or $NANOHERMES_HOME) and <workspace>/.nanohermes.
import { homedir } from "node:os";
import { join } from "node:path";

export function nanohermesHome(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.NANOHERMES_HOME;
  return override && override.length > 0 ? override : join(homedir(), ".nanohermes");
}

export const userConfigPath = (home: string) => join(home, "config.json");
export const workspaceConfigPath = (workspace: string) => join(workspace, ".nanohermes", "config.json");
export const defaultSessionDir = (home: string) => join(home, "sessions");
export const logPath = (home: string) => join(home, "logs", "nanohermes.log");
