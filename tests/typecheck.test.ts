// The strict compiler is part of the suite, so a type error fails CI like any other test.
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { expect, it } from "vitest";

it("the whole project type-checks under strict settings", () => {
  const root = resolve(import.meta.dirname, "..");
  let output = "";
  try {
    execFileSync(process.execPath, [resolve(root, "node_modules/typescript/bin/tsc"), "-p", root], {
      encoding: "utf8",
      stdio: "pipe",
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    output = `${e.stdout ?? ""}${e.stderr ?? ""}`;
  }
  expect(output).toBe("");
});
