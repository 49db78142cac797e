// A private copy of the built program (dist/ without its code cache) beside the repository's
// node_modules and native helper, so a test's code cache and files are its own.
import { cpSync, existsSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "./cli.js";

const root = resolve(import.meta.dirname, "../..");

/** The copy's dist/ folder. */
export function copyOfBuild(): string {
  const install = tempDir("nh-build-copy-");
  cpSync(join(root, "dist"), join(install, "dist"), {
    recursive: true,
    filter: (src) => !src.includes(".code-cache"),
  });
  symlinkSync(join(root, "node_modules"), join(install, "node_modules"));
  if (existsSync(join(root, "dist-native"))) symlinkSync(join(root, "dist-native"), join(install, "dist-native"));
  return join(install, "dist");
}
