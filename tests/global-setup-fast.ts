// Builds the sandbox helper once before the fast part of the suite: in-process commands run under
// it. The fast part does not run dist/ (vitest.config.ts), so it does not build it.
import { execFileSync } from "node:child_process";

export default function setup(): void {
  execFileSync(process.execPath, ["scripts/build-native.mjs"], { stdio: "inherit" });
}
