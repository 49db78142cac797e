// Real Landlock through the built helper: what workspace-write and read-only let a command (and
// its children) do, inside the workspace and outside it. Never skipped: a machine that cannot
// build or enforce the helper fails here.
import { existsSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { probeLandlock } from "../../src/sandbox/landlock.js";
import { keepIntact, outside, sandboxed, setUpLandlockFixture, ws } from "../helpers/landlock.js";

setUpLandlockFixture();

describe("the probe", () => {
  it("reports Landlock enforced with a recent ABI", () => {
    const probe = probeLandlock();
    expect(probe.available).toBe(true);
    expect(probe.abi).toBeGreaterThanOrEqual(6);
  });
});

describe("workspace-write", () => {
  it("lets a command create, rename, link and remove files inside the workspace", () => {
    const r = sandboxed(
      "workspace-write",
      "echo hi > a && mkdir d && mv a d/b && ln d/b c && ln -s d/b s && mkfifo p && rm c p && cat s && : > inside.txt",
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("hi\n");
    expect(readFileSync(join(ws, "inside.txt"), "utf8")).toBe("");
  });

  it.each([
    ["create a file", "echo x > $OUT/new.txt"],
    ["overwrite a file", "echo x > $OUT/keep.txt"],
    ["append to a file", "echo x >> $OUT/keep.txt"],
    ["truncate a file", "truncate -s 0 $OUT/keep.txt"],
    ["touch a new file", "touch $OUT/new.txt"],
    ["make a directory", "mkdir $OUT/new.txt"],
    ["remove a file", "rm $OUT/keep.txt"],
    ["make a symlink", "ln -s /etc/passwd $OUT/new.txt"],
    ["copy a file out", "cp inside.txt $OUT/new.txt"],
  ])("cannot %s outside the workspace", (_name, script) => {
    const r = sandboxed("workspace-write", script.replaceAll("$OUT", outside));
    expect(r.status).not.toBe(0);
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
    keepIntact();
  });

  it("cannot write outside through a symlink inside the workspace", () => {
    symlinkSync(outside, join(ws, "dir-link"));
    symlinkSync(join(outside, "keep.txt"), join(ws, "file-link"));
    symlinkSync(join(outside, "new.txt"), join(ws, "dangling-link"));
    for (const script of [
      "echo x > dir-link/new.txt",
      "echo x > file-link",
      "echo x > dangling-link",
      "rm dir-link/keep.txt",
    ]) {
      expect(sandboxed("workspace-write", script).status, script).not.toBe(0);
    }
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
    keepIntact();
  });

  it("cannot move a workspace file out", () => {
    const r = sandboxed("workspace-write", `mv inside.txt ${outside}/`);
    expect(r.status).not.toBe(0);
    expect(existsSync(join(ws, "inside.txt"))).toBe(true);
    expect(existsSync(join(outside, "inside.txt"))).toBe(false);
  });

  it("cannot hard-link an outside file in, nor a workspace file out", () => {
    expect(sandboxed("workspace-write", `ln ${outside}/keep.txt in-link`).status).not.toBe(0);
    expect(existsSync(join(ws, "in-link"))).toBe(false);
    expect(sandboxed("workspace-write", `ln inside.txt ${outside}/out-link`).status).not.toBe(0);
    expect(existsSync(join(outside, "out-link"))).toBe(false);
  });

  it("reads and runs programs outside the workspace", () => {
    const r = sandboxed(
      "workspace-write",
      `cat /etc/hostname > /dev/null && ls /usr/bin > /dev/null && /usr/bin/env true && cat ${outside}/keep.txt`,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("keep\n");
  });

  it("holds for children and grandchildren, in the foreground or background", () => {
    const r = sandboxed(
      "workspace-write",
      `sh -c 'sh -c "echo x > ${outside}/new.txt"'; (echo y > ${outside}/new.txt) & wait; sh -c 'echo ok > child.txt'`,
    );
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
    expect(readFileSync(join(ws, "child.txt"), "utf8")).toBe("ok\n");
    expect(r.status).toBe(0);
  });

  it("lets output be thrown away in /dev/null", () => {
    const r = sandboxed(
      "workspace-write",
      "echo hi > /dev/null && ls /nonexistent 2>/dev/null; : > /dev/null && echo ok",
    );
    expect(r.stdout).toBe("ok\n");
  });

  it("makes the temp directory writable", () => {
    const r = sandboxed("workspace-write", 'f=$(mktemp) && echo x > "$f" && cat "$f" && rm "$f"');
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("x\n");
  });

  it("makes extra writable roots writable, and nothing else outside", () => {
    mkdirSync(join(outside, "extra"));
    const r = sandboxed("workspace-write", `echo x > ${outside}/extra/f && echo y > ${outside}/new.txt`, {
      writable: [join(outside, "extra")],
    });
    expect(readFileSync(join(outside, "extra", "f"), "utf8")).toBe("x\n");
    expect(r.status).not.toBe(0);
    expect(existsSync(join(outside, "new.txt"))).toBe(false);
  });

  it("never creates device nodes, even inside the workspace and as root", () => {
    // EACCES is Landlock's refusal; a missing CAP_MKNOD alone would say "Operation not permitted".
    for (const script of ["mknod null c 1 3", "mknod disk b 7 0"]) {
      const r = sandboxed("workspace-write", script);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain("Permission denied");
    }
    expect(existsSync(join(ws, "null"))).toBe(false);
    expect(existsSync(join(ws, "disk"))).toBe(false);
  });
});

describe("read-only", () => {
  it.each([
    ["create a file", "echo x > new.txt"],
    ["append", "echo x >> inside.txt"],
    ["truncate", ": > inside.txt"],
    ["touch a new file", "touch new.txt"],
    ["remove a file", "rm inside.txt"],
    ["rename a file", "mv inside.txt new.txt"],
    ["make a directory", "mkdir new.txt"],
    ["make a symlink", "ln -s inside.txt new.txt"],
    ["make a hard link", "ln inside.txt new.txt"],
    ["make a fifo", "mkfifo new.txt"],
    ["write the temp directory", "mktemp"],
    ["write outside", "echo x > $OUT/new.txt"],
  ])("cannot %s, even in the workspace", (_name, script) => {
    const r = sandboxed("read-only", script.replaceAll("$OUT", outside));
    expect(r.status).not.toBe(0);
    expect(existsSync(join(ws, "new.txt"))).toBe(false);
    expect(readFileSync(join(ws, "inside.txt"), "utf8")).toBe("inside\n");
  });

  it("still reads, runs programs and writes to /dev/null", () => {
    const r = sandboxed(
      "read-only",
      "cat inside.txt && ls /usr/bin > /dev/null && git --version > /dev/null 2>&1; echo ok",
    );
    expect(r.stdout).toBe("inside\nok\n");
  });
});
