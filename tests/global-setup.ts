// Builds dist/ and the sandbox helper once before the suite, so end-to-end tests always run the
// current source.
import { execFileSync } from "node:child_process";

export default function setup(): void {
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
  execFileSync(process.execPath, ["scripts/build-native.mjs"], { stdio: "inherit" });
}
