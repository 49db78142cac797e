// The maintainer's tool for patches/ (scripts/patches.mjs), run as a maintainer runs it, on a temp
// checkout holding a fake package and two diffs of one of its files: `check` reports what the build
// would hit, `edit` + `save` round-trip to a diff the build's applier takes, headers are kept, and
// an upgrade is remade diff by diff with the hunks that did not move over reported.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { dependencyPatches } from "../../scripts/dep-patches.mjs";

const repo = resolve(import.meta.dirname, "../..");
const script = join(repo, "scripts/patches.mjs");
const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`);
const PRISTINE = `${lines(1, 30).join("\n")}\n`;
const HEADER1 = 'Why: line 4 must say four.\nMeasured: one bug fewer.\nTest: tests/x.test.ts ("four").';
const HEADER2 = "Why: two more lines after line 20.\nMeasured: none.\nTest: tests/y.test.ts.";
const DIFF1 = `${HEADER1}\n\n--- a/lib/a.js\n+++ b/lib/a.js\n@@ -2,5 +2,5 @@\n line 2\n line 3\n-line 4\n+line four\n line 5\n line 6\n`;
const DIFF2 = `${HEADER2}\n\n--- a/lib/a.js\n+++ b/lib/a.js\n@@ -3,3 +3,4 @@\n line 3\n line four\n+after four\n line 5\n@@ -19,3 +20,4 @@\n line 19\n line 20\n+after twenty\n line 21\n`;

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "nh-patches-tool-"));
  put("node_modules/fake/package.json", JSON.stringify({ name: "fake", version: "1.0.0" }));
  put("node_modules/fake/lib/a.js", PRISTINE);
  put("patches/fake@1.0.0/1-first.diff", DIFF1);
  put("patches/fake@1.0.0/2-second.diff", DIFF2);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function put(path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}
const read = (path: string) => readFileSync(join(root, path), "utf8");

function tool(...args: string[]): { status: number | null; out: string; err: string } {
  const run = spawnSync(process.execPath, [script, "--root", root, ...args], { encoding: "utf8", timeout: 60_000 });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

/** What the build makes of the installed file (the strict applier, as `npm run build` runs it). */
const built = () => dependencyPatches(root).patchedText(join(root, "node_modules/fake/lib/a.js"));
const copy = (version = "1.0.0") => `.patches-edit/fake@${version}/lib/a.js`;

describe("check", () => {
  it("passes with one line per diff when every hunk applies", () => {
    const r = tool("check");
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/^ok +patches\/fake@1\.0\.0\/1-first\.diff: lib\/a\.js, 1 hunk$/m);
    expect(r.out).toMatch(/^ok +patches\/fake@1\.0\.0\/2-second\.diff: lib\/a\.js, 2 hunks$/m);
  });

  it("fails on a stale hunk, naming it and the line, and does not check the diff above it", () => {
    put("node_modules/fake/lib/a.js", PRISTINE.replace("line 5\n", "line five\n"));
    const r = tool("check");
    expect(r.status).toBe(1);
    expect(r.out).toMatch(
      /^FAIL +patches\/fake@1\.0\.0\/1-first\.diff: lib\/a\.js: hunk 1 of 1 \(@@ -2,5 \+2,5 @@\) no longer applies: line 5 reads "line five" where the diff expects "line 5"$/m,
    );
    expect(r.out).toMatch(
      /^AFTER +patches\/fake@1\.0\.0\/2-second\.diff: not checked: it applies on top of 1-first\.diff/m,
    );
  });

  it("lists every failing hunk of a diff, not only the first", () => {
    put(
      "patches/fake@1.0.0/1-first.diff",
      `${DIFF1}@@ -10,1 +10,1 @@\n-line 10\n+line ten\n@@ -12,1 +12,1 @@\n-line 12\n+line twelve\n`,
    );
    put("node_modules/fake/lib/a.js", PRISTINE.replace("line 10\n", "x\n").replace("line 12\n", "y\n"));
    const r = tool("check");
    expect(r.status).toBe(1);
    expect(r.out).toMatch(
      /hunk 2 of 3 \(@@ -10,1 \+10,1 @@\) no longer applies: line 10 reads "x".*; hunk 3 of 3 \(@@ -12,1 \+12,1 @@\) no longer applies: line 12 reads "y"/,
    );
  });

  it("fails when the folder's version is not installed, naming the one that is", () => {
    put("node_modules/fake/package.json", JSON.stringify({ name: "fake", version: "1.1.0" }));
    const r = tool("check");
    expect(r.status).toBe(1);
    expect(r.out).toMatch(
      /^STALE +patches\/fake@1\.0\.0\/1-first\.diff: fake@1\.0\.0 is not installed \(installed: 1\.1\.0 at node_modules\/fake\); .*edit fake --from 1\.0\.0$/m,
    );
  });
});

describe("edit and save", () => {
  it("round-trips an edited diff to one the build applies, keeping its header", () => {
    const e = tool("edit", "fake", "2-second");
    expect(e.status).toBe(0);
    expect(e.out).toContain(join(root, ".patches-edit/fake@1.0.0"));
    expect(e.out).toContain("lib/a.js = installed + 1-first + 2-second (2 hunks in place)");
    const before = read(copy());
    expect(before).toBe(built());
    put(copy(), before.replace("after twenty\n", "after twenty\nand more\n"));
    const s = tool("save", "fake", "2-second");
    expect(s.err).toBe("");
    expect(s.out).toContain("wrote patches/fake@1.0.0/2-second.diff (lib/a.js, 2 hunks; its header kept)");
    expect(
      read("patches/fake@1.0.0/2-second.diff").startsWith(`${HEADER2}\n\n--- a/lib/a.js\n+++ b/lib/a.js\n@@ `),
    ).toBe(true);
    expect(read("patches/fake@1.0.0/1-first.diff")).toBe(DIFF1);
    expect(built()).toBe(read(copy()));
    expect(tool("check").status).toBe(0);
  });

  it("saves a new diff after the file's others with a header that asks for its reason, which check holds to", () => {
    expect(tool("edit", "fake", "lib/a.js").out).toContain("lib/a.js = installed + 1-first + 2-second");
    put(copy(), read(copy()).replace("line 30\n", "line 30\nthe end\n"));
    const early = tool("save", "fake", "0-early");
    expect(early.status).toBe(1);
    expect(early.err).toContain(
      "a new diff of lib/a.js applies after 2-second: give it a name that sorts after it (e.g. 3-early)",
    );
    const s = tool("save", "fake", "3-end");
    expect(s.out).toContain("wrote patches/fake@1.0.0/3-end.diff (lib/a.js, 1 hunk; a header to write");
    expect(read("patches/fake@1.0.0/3-end.diff")).toMatch(
      /^Why: <.*>\nMeasured: <.*>\nTest: <.*>\n\n--- a\/lib\/a\.js/,
    );
    expect(built()).toBe(read(copy()));
    const c = tool("check");
    expect(c.status).toBe(1);
    expect(c.out).toMatch(/^HEADER +patches\/fake@1\.0\.0\/3-end\.diff: applies, but its header does not say why/m);
    put(
      "patches/fake@1.0.0/3-end.diff",
      read("patches/fake@1.0.0/3-end.diff").replace(/^Why:[\s\S]*?\n\n/, "Why: an end.\n\n"),
    );
    expect(tool("check").status).toBe(0);
  });

  it("does not overwrite an edited copy that was not saved, nor fold it into another diff unasked", () => {
    tool("edit", "fake");
    const mine = read(copy()).replace("line 1\n", "mine\n");
    put(copy(), mine);
    const again = tool("edit", "fake");
    expect(again.status).toBe(1);
    expect(again.err).toContain(`${join(root, copy())}: edited and not saved`);
    expect(read(copy())).toBe(mine);
    const unnamed = tool("save", "fake");
    expect(unnamed.status).toBe(1);
    expect(unnamed.err).toContain("name the diff lib/a.js now holds: 2-second");
    expect(read("patches/fake@1.0.0/2-second.diff")).toBe(DIFF2);
    expect(tool("edit", "fake", "--force").status).toBe(0);
    expect(read(copy())).toBe(built());
  });

  it("refuses a copy that holds other diffs than the one named", () => {
    tool("edit", "fake");
    put(copy(), read(copy()).replace("line 1\n", "mine\n"));
    const r = tool("save", "fake", "1-first");
    expect(r.status).toBe(1);
    expect(r.err).toContain(
      "the copy of lib/a.js holds it after 2-second, not after 1-first: npm run patches -- edit fake@1.0.0 1-first",
    );
    expect(read("patches/fake@1.0.0/1-first.diff")).toBe(DIFF1);
  });
});

describe("when the installed text moved under the diffs", () => {
  it("edit stops at the first diff that no longer applies, save remakes it, and the diff above is remade next", () => {
    put("node_modules/fake/lib/a.js", `top 1\ntop 2\n${PRISTINE}`);
    expect(tool("check").out).toMatch(/^FAIL +patches\/fake@1\.0\.0\/1-first\.diff/m);
    const first = tool("edit", "fake");
    expect(first.out).toContain(
      "lib/a.js = installed + 1-first (stops at 1-first, which no longer applies (the diffs above it wait); hunk 1 of 1 (@@ -2,5 +2,5 @@) went to line 4, 2 lines lower)",
    );
    const saved = tool("save", "fake");
    expect(saved.out).toContain("wrote patches/fake@1.0.0/1-first.diff (lib/a.js, 1 hunk; its header kept)");
    expect(saved.out).toMatch(
      /above it, patches\/fake@1\.0\.0\/2-second\.diff: hunk 1 of 2 .* no longer applies: .*edit fake@1\.0\.0 2-second/,
    );
    expect(tool("edit", "fake").out).toContain("lib/a.js = installed + 1-first + 2-second (hunk 1 of 2");
    expect(tool("save", "fake").out).toContain(
      "wrote patches/fake@1.0.0/2-second.diff (lib/a.js, 2 hunks; its header kept)",
    );
    expect(tool("check").status).toBe(0);
    expect(built()).toBe(
      `top 1\ntop 2\n${PRISTINE.replace("line 4\n", "line four\nafter four\n").replace("line 20\n", "line 20\nafter twenty\n")}`,
    );
  });
});

describe("after an upgrade", () => {
  // fake 1.1.0: five new lines at the top, and line 21 (the context of 2-second's second hunk) reworded.
  const UPGRADED = `${["new a", "new b", "new c", "new d", "new e", ...lines(1, 30)].join("\n")}\n`.replace(
    "line 21\n",
    "line 21 reworded\n",
  );

  it("remakes each diff for the new version: moved hunks reported, a hunk that did not apply left to the maintainer", () => {
    put("node_modules/fake/package.json", JSON.stringify({ name: "fake", version: "1.1.0" }));
    put("node_modules/fake/lib/a.js", UPGRADED);
    const first = tool("edit", "fake", "--from", "1.0.0");
    expect(first.status).toBe(0);
    expect(first.out).toContain(
      "lib/a.js = installed + 1-first of 1.0.0 (hunk 1 of 1 (@@ -2,5 +2,5 @@) went to line 7, 5 lines lower)",
    );
    expect(tool("save", "fake", "2-second").status).toBe(1);
    const saved = tool("save", "fake");
    expect(saved.out).toContain(
      "wrote patches/fake@1.1.0/1-first.diff (lib/a.js, 1 hunk; the header of patches/fake@1.0.0/1-first.diff)",
    );
    expect(saved.out).toContain(
      "still to remake from patches/fake@1.0.0: 2-second (npm run patches -- edit fake --from 1.0.0)",
    );
    expect(read("patches/fake@1.1.0/1-first.diff").startsWith(`${HEADER1}\n\n`)).toBe(true);

    const second = tool("edit", "fake", "--from", "1.0.0");
    expect(second.out).toContain(
      "lib/a.js = installed + 1-first + 2-second of 1.0.0 (hunk 1 of 2 (@@ -3,3 +3,4 @@) went to line 8, 5 lines lower; hunk 2 of 2 (@@ -19,3 +20,4 @@) did not apply: see lib/a.js.rej)",
    );
    const rej = `${join(root, copy("1.1.0"))}.rej`;
    expect(readFileSync(rej, "utf8")).toContain("@@ -19,3 +20,4 @@\n line 19\n line 20\n+after twenty\n line 21\n");
    expect(tool("save", "fake").err).toContain(`${rej}: hunks that did not apply`);
    // The maintainer makes the change by hand, against the reworded line.
    put(copy("1.1.0"), read(copy("1.1.0")).replace("line 20\n", "line 20\nafter twenty\n"));
    rmSync(rej);
    const done = tool("save", "fake");
    expect(done.out).toContain(
      "wrote patches/fake@1.1.0/2-second.diff (lib/a.js, 2 hunks; the header of patches/fake@1.0.0/2-second.diff)",
    );
    expect(done.out).toContain("every diff of patches/fake@1.0.0 is in patches/fake@1.1.0");
    expect(read("patches/fake@1.1.0/2-second.diff").startsWith(`${HEADER2}\n\n`)).toBe(true);

    const after = tool("edit", "fake", "--from", "1.0.0");
    expect(after.out).toContain("lib/a.js: its 2 diffs of 1.0.0 are all in patches/fake@1.1.0");
    expect(after.out).toContain("nothing to edit");
    expect(tool("check").status).toBe(1); // the old folder's diffs are stale until it is removed
    renameSync(join(root, "patches/fake@1.0.0"), join(root, "old"));
    expect(tool("check").status).toBe(0);
    expect(built()).toBe(
      UPGRADED.replace("line 4\n", "line four\nafter four\n").replace("line 20\n", "line 20\nafter twenty\n"),
    );
    expect(existsSync(join(root, "patches/fake@1.0.0"))).toBe(false);
  });

  it("names the versions when a package is installed twice, and the diffs when one is unknown", () => {
    put("node_modules/other/node_modules/fake/package.json", JSON.stringify({ name: "fake", version: "0.9.0" }));
    const r = tool("edit", "fake");
    expect(r.status).toBe(1);
    expect(r.err).toContain(
      "fake is installed in 2 versions (1.0.0 at node_modules/fake, 0.9.0 at node_modules/other/node_modules/fake): name one, as fake@1.0.0",
    );
    const unknown = tool("edit", "fake@1.0.0", "9-nothing");
    expect(unknown.err).toContain("patches/fake@1.0.0 has no diff 9-nothing (its diffs: 1-first, 2-second)");
  });
});

it("gives back each of the project's own diffs byte for byte when edited and saved unchanged", () => {
  // A checkout with the real diffs and the real installed packages: patches/ is a copy.
  cpSync(join(repo, "patches"), join(root, "patches"), { recursive: true });
  rmSync(join(root, "patches/fake@1.0.0"), { recursive: true });
  rmSync(join(root, "node_modules"), { recursive: true });
  symlinkSync(join(repo, "node_modules"), join(root, "node_modules"));
  let count = 0;
  for (const folder of readdirSync(join(root, "patches")).filter((f) => f.includes("@"))) {
    const spec = folder.replace("+", "/");
    for (const file of readdirSync(join(root, "patches", folder)).filter((f) => f.endsWith(".diff"))) {
      const id = file.replace(/\.diff$/, "");
      const before = read(`patches/${folder}/${file}`);
      expect(tool("edit", spec, id).status).toBe(0);
      expect(tool("save", spec, id).out).toContain(`wrote patches/${folder}/${file}`);
      expect(read(`patches/${folder}/${file}`), file).toBe(before);
      count++;
    }
  }
  expect(count).toBeGreaterThanOrEqual(18);
}, 120_000);
