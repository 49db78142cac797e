// Read-only recognition, table-driven: what must run without asking under on-request, and what an
// attacker would try to slip through. Plus the argv trusted commands run with, checked against a
// real git repository whose config tries to run programs.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  classifyCommand,
  isReadOnlyCommand,
  neutraliseGit,
  sedScriptWrites,
  trustedCommandArgv,
} from "../../src/sandbox/classify.js";
import { tempDir } from "../helpers/cli.js";

/** Commands a too-strict classifier would refuse. */
const TRUSTED = [
  "ls",
  "ls -la",
  "ls -la src",
  "ls -lh --color=auto",
  "ls -R",
  "/bin/ls",
  "/usr/bin/ls -a",
  "FOO=1 ls",
  "LC_ALL=C ls",
  "A=1 B=2 ls -l",
  "cat README.md",
  "cat -n src/cli.ts",
  "cat 'file with spaces.txt'",
  'cat "quoted name"',
  "head -50 file",
  "head -n 20 a b",
  "tail -n 100 log.txt",
  "wc -l *.ts",
  "wc -c file",
  "stat package.json",
  "pwd",
  "echo hello",
  'echo "a b"',
  "printf '%s' hi",
  "tree",
  "tree -L 2",
  "tree -a -I node_modules",
  "du -sh .",
  "du -h --max-depth=1",
  "df -h",
  "grep -rn foo src",
  "grep -i TODO -r .",
  "grep -E 'a+b' f",
  "egrep x f",
  "fgrep x f",
  "grep -rn foo *.ts",
  'rg -n "TODO" src',
  "rg --files",
  "rg -l foo",
  "rg -t ts foo",
  "rg --hidden foo",
  "rg -e pattern",
  "jq .name package.json",
  "jq -r '.scripts' package.json",
  "which node",
  "whoami",
  "id",
  "uname -a",
  "date",
  "date +%Y-%m-%d",
  "date -u",
  "basename /a/b",
  "dirname /a/b",
  "realpath .",
  "readlink -f x",
  "diff a b",
  "diff -u a b",
  "cmp a b",
  "md5sum f",
  "sha256sum *.js",
  "nl f",
  "cut -d, -f1 f",
  "column -t f",
  "true",
  "false",
  "hostname",
  "hostname -f",
  "uptime",
  "sort f",
  "sort -n -r f",
  "sort -u -k2 f",
  "find . -name '*.ts'",
  "find src -type f",
  "find . -maxdepth 2 -name package.json",
  "find . -newer x -print",
  "sed -n 1,20p f",
  "sed -n '/foo/p' f",
  "sed 's/a/b/g' f",
  "sed -e 's/a/b/' -e 2p f",
  "sed --quiet 10p f",
  "sed -n '1~2p' f",
  "sed 's#a#b#2' f",
  "sed '/x/d' f",
  "git status",
  "git status -s",
  "git status --porcelain",
  "git log --oneline -5",
  "git log -p -1",
  "git log --stat",
  "git log --format='%h %s'",
  "git log --graph --all",
  "git diff",
  "git diff HEAD~1 -- src",
  "git diff --cached",
  "git diff --stat main",
  "git diff --no-ext-diff",
  "git show HEAD",
  "git show HEAD:src/cli.ts",
  "git blame src/cli.ts",
  "git branch",
  "git branch -a",
  "git branch -vv",
  "git branch --show-current",
  "git branch --list 'feat*'",
  "git branch --contains abc123",
  "git tag",
  "git tag -l 'v1*'",
  "git tag --list",
  "git remote",
  "git remote -v",
  "git remote get-url origin",
  "git rev-parse HEAD",
  "git rev-parse --show-toplevel",
  "git ls-files",
  "git ls-tree HEAD",
  "git describe --tags",
  "git shortlog -sn",
  "git reflog",
  "git reflog show",
  "git config user.name",
  "git config --get user.email",
  "git config --list",
  "git config -l",
  "git stash list",
  "git worktree list",
  "git grep foo",
  "git cat-file -p HEAD",
  "git --no-pager log",
  "git -P diff",
  "git --version",
  "git merge-base main HEAD",
  "git rev-list --count HEAD",
  "git log --output-indicator-new=x -p",
  "od -c f",
  "strings bin",
  "nproc",
  "comm a b",
  "paste a b",
  "seq 10",
  "tac f",
  "rev f",
  "fold -w 80 f",
  "expand f",
  "sha1sum f",
  "b2sum f",
  "cksum f",
  "git show-ref",
  "git count-objects -v",
  "git name-rev HEAD",
  "git check-ignore -v x",
  "git cherry -v",
  "git whatchanged -1",
  "git diff-tree --name-only -r HEAD",
  "git tag -n5",
  "git config --get-regexp alias",
  "git var -l",
  "git ls-files --others --exclude-standard",
  "cat ~/notes.txt",
  "ls {src,tests}",
  "ls # a comment",
  "echo a\\ b",
  "! ls",
  "ls | head",
  'rg "a|b" src',
  "grep ';' f",
  "ls 2>/dev/null",
  "ls && pwd",
  "ls | wc -l",
  "grep foo x || true",
];

/** Commands that must ask: metacharacters, unknown programs, path tricks, risky variables, writing options. */
const UNTRUSTED = [
  // The seed's metacharacters, anywhere (quoted too), plus control characters and open quotes.
  "'ls' -la",
  "l\\s",
  "git -C sub log",
  "git --git-dir=.git log",
  "ls && rm x",
  "ls; rm x",
  "ls > out",
  "cat < f",
  "echo $(id)",
  "echo `id`",
  "echo $HOME",
  "ls (x)",
  "ls\nrm x",
  "ls &",
  "ls\u0000",
  "ls\r",
  "ls\u001b[1m",
  'cat "x',
  "echo 'x",
  "",
  "   ",
  // Programs that are not purely read-only.
  "rm -rf x",
  "touch x",
  "mkdir x",
  "npm test",
  "make",
  "python3 x.py",
  "node x.js",
  "awk '{print}' f",
  "tee f",
  "xargs rm",
  "env",
  "env ls",
  "less f",
  "more f",
  "sudo ls",
  "time ls",
  "nice ls",
  "command ls",
  "exec ls",
  "uniq a b",
  "xxd a b",
  "curl x",
  "sh script.sh",
  "bash",
  "chmod 644 f",
  "cp a b",
  "mv a b",
  "ln -s a b",
  "vim f",
  "kill 1",
  "printenv",
  // Path prefixes outside the system bin directories run the workspace's own program.
  "./ls",
  "bin/ls",
  "../ls",
  "/tmp/ls",
  "/work/main/node_modules/.bin/cat",
  "/usr/bin/../../tmp/ls",
  "~/bin/ls",
  // Variables that choose the program, the libraries it loads or the config it reads.
  "PATH=. ls",
  "PATH=/tmp:/usr/bin ls",
  "LD_PRELOAD=./x.so ls",
  "LD_LIBRARY_PATH=. cat f",
  "GIT_PAGER=sh git log",
  "GIT_CONFIG_GLOBAL=x git log",
  "GIT_EXTERNAL_DIFF=x git diff",
  "HOME=. git log",
  "XDG_CONFIG_HOME=. git log",
  "RIPGREP_CONFIG_PATH=x rg foo",
  "LESSOPEN=x cat f",
  "PAGER=x git log",
  "BASH_ENV=x ls",
  "NODE_OPTIONS=x ls",
  "FOO=* ls",
  '"FOO=1" ls',
  "FOO=1",
  "FOO=x\u00a0ls sort -o out f",
  "ls\u00a0-la",
  // Expansion can produce an option from a file name, for programs that have dangerous ones.
  "rg foo *",
  "find * -type f",
  "sort *",
  "sed -n p *",
  "git diff *",
  "git log -- *.ts",
  "tree *",
  "file *",
  "date {-s,now}",
  "l* -la",
  "sort {-o,x} f",
  // find primaries that delete, write or run.
  "find . -delete",
  "find . -exec rm '{}' +",
  "find . -execdir cat '{}' +",
  "find . -ok rm",
  "find . -okdir x",
  "find . -fprint out",
  "find . -fprint0 o",
  "find . -fprintf out %p",
  "find . -fls out",
  // rg, sort, tree, file, date, hostname options that write or run.
  "rg --pre ./x.sh foo",
  "rg --pre=x foo",
  "rg --pre-glob '*.pdf' foo",
  "rg --hostname-bin=x foo",
  "sort -o out f",
  "sort -uo out f",
  "sort --output=out f",
  "sort --out=x f",
  "sort --compress-program=sh f",
  "sort -k1 -- -o x",
  "tree -o out",
  "tree -R",
  "tree -aR",
  "file -C -m magic",
  "date -s 2020-01-01",
  "date --set=now",
  "hostname evil",
  "hostname -F file",
  "hostname -b x",
  // sed: in-place edits, script files, and the w/W/e commands and flags.
  "sed -i s/a/b/ f",
  "sed -i.bak s/a/b/ f",
  "sed --in-place s/a/b/ f",
  "sed --in-pl s/a/b/ f",
  "sed -ni p f",
  "sed 's/a/b/w out' f",
  "sed 's/a/b/e' f",
  "sed 'w out' f",
  "sed '1w out' f",
  "sed -n '/x/w out' f",
  "sed e f",
  "sed '1e id' f",
  "sed -f script.sed f",
  "sed --file=s f",
  "sed -e 'W out' f",
  "sed -n '1{p};w out' f",
  "sed --bogus p f",
  "sed 'y/abc/xyz/w' f",
  // git: -c and friends, pagers, options that write or run, and every writing subcommand.
  "git -c core.pager=sh log",
  "git -c core.fsmonitor=x status",
  "git --config-env=core.pager=X log",
  "git -ccore.pager=x log",
  "git --exec-path=. status",
  "git -p log",
  "git --paginate log",
  "git --help",
  "git help log",
  "git diff --output=/tmp/x",
  "git diff --outp=x",
  "git log --output=x",
  "git show --output=x",
  "git diff --ext-diff",
  "git log --ext-diff -p",
  "git diff --textconv",
  "git log --show-signature",
  "git log '--format=%GS'",
  "git branch -D x",
  "git branch -d x",
  "git branch -m a b",
  "git branch -c a b",
  "git branch -f x",
  "git branch --set-upstream-to=o/m",
  "git branch -u o/m",
  "git branch newbranch",
  "git branch --delete x",
  "git branch --edit-description",
  "git tag -d v1",
  "git tag v2",
  "git tag -a v1 -m x",
  "git tag -s v1",
  "git tag -v v1",
  "git tag -f v1",
  "git remote add o u",
  "git remote remove o",
  "git remote set-url o u",
  "git remote rename a b",
  "git remote show origin",
  "git remote prune origin",
  "git config user.name x",
  "git config --unset user.name",
  "git config --add a.b c",
  "git config --edit",
  "git config -e",
  "git config --global core.pager sh",
  "git config set user.name x",
  "git config --replace-all a.b c",
  "git config --rename-section a b",
  "git reflog expire --all",
  "git stash",
  "git stash pop",
  "git stash drop",
  "git stash show -p",
  "git worktree add x",
  "git grep -O foo",
  "git grep --open-files-in-pager=vim foo",
  "git cat-file --textconv HEAD:x",
  "git cat-file --filters HEAD:x",
  "git commit -m x",
  "git push",
  "git pull",
  "git fetch",
  "git checkout x",
  "git reset --hard",
  "git clean -fd",
  "git add .",
  "git rm x",
  "git mv a b",
  "git merge x",
  "git rebase x",
  "git apply p",
  "git am p",
  "git gc",
  "git submodule update",
  "git clone u",
  "git init",
  "git difftool",
  "git ls-remote origin",
  "git archive -o x HEAD",
  "git format-patch -1",
  "git notes add",
  "git",
  "git -C",
  "git bisect start",
  "git switch x",
  "git restore f",
  "git hash-object -w f",
];

describe("isReadOnlyCommand", () => {
  it.each(TRUSTED)("trusts %j", (command) => {
    const c = classifyCommand(command);
    expect(c, c.reason).toMatchObject({ readOnly: true });
    expect(isReadOnlyCommand(command)).toBe(true);
  });

  it.each(UNTRUSTED)("asks for %j", (command) => {
    const c = classifyCommand(command);
    expect(c.readOnly).toBe(false);
    expect(c.reason.length).toBeGreaterThan(5);
    expect(isReadOnlyCommand(command)).toBe(false);
    expect(trustedCommandArgv(command)).toBeNull();
  });

  it("has enough cases of both kinds", () => {
    expect(TRUSTED.length).toBeGreaterThanOrEqual(150);
    expect(UNTRUSTED.length).toBeGreaterThanOrEqual(150);
  });

  it.each([
    ["ls && rm x", "rm"],
    ["ls & pwd", "&"],
    ["rg foo *", "*"],
    ["find . -delete", "-delete"],
    ["sed -i s/a/b/ f", "-i"],
    ["git diff --outp=x", "--outp=x"],
    ["git branch -D x", "-D"],
    ["./ls", "./ls"],
    ["PATH=. ls", "PATH=."],
    ["git -c core.pager=sh log", "-c"],
    ["awk 1 f", "awk"],
  ])("names what decided %j", (command, part) => {
    expect(classifyCommand(command).part).toBe(part);
  });

  it("explains the refusal in words a user can act on", () => {
    expect(classifyCommand("rg foo *").reason).toMatch(/expanding `\*` could produce one from a file name/);
    expect(classifyCommand("awk 1 f").reason).toMatch(/system\(\)/);
    expect(classifyCommand("LD_PRELOAD=x ls").reason).toMatch(/LD_PRELOAD/);
    expect(classifyCommand("git branch newbranch").reason).toMatch(/creates a branch/);
  });
});

describe("sedScriptWrites", () => {
  it.each([
    "p",
    "1,5p",
    "/x/d",
    "s/a/b/g",
    "s#a#b#2",
    "y/ab/ba/",
    "$p".slice(1),
    "3q",
    "a hello",
    "r other",
    "= ",
    "{p}",
    ":a;N;$!ba;s/x/y/",
    "1a hi;w out",
  ])("reads: %j", (script) => {
    expect(sedScriptWrites(script)).toBeNull();
  });
  it.each([
    "w out",
    "1W out",
    "e",
    "s/a/b/w out",
    "s/a/b/e",
    "s/a/b/gw x",
    "s/a",
    "k",
    ":a;e id",
    "t;w out",
    "p\nW out",
    "s/a/b/;s/c/d/e",
  ])("writes or is unreadable: %j", (script) => {
    expect(sedScriptWrites(script)).not.toBeNull();
  });
});

describe("trustedCommandArgv", () => {
  it("runs plain commands as split, assignments through env, expansions through bash", () => {
    expect(trustedCommandArgv("ls -la 'a b'")).toEqual(["ls", "-la", "a b"]);
    expect(trustedCommandArgv("LC_ALL=C sort f")).toEqual(["env", "LC_ALL=C", "sort", "f"]);
    expect(trustedCommandArgv("wc -l *.ts")).toEqual(["bash", "-c", "wc -l *.ts"]);
    expect(trustedCommandArgv("ls # note")).toEqual(["ls"]);
    expect(trustedCommandArgv("touch x")).toBeNull();
  });

  it("neutralises git and puts --no-ext-diff/--no-textconv after the subcommands that take them", () => {
    const argv = trustedCommandArgv("git diff HEAD -- src")!;
    expect(argv.slice(0, 3)).toEqual(["git", "--no-pager", "--no-optional-locks"]);
    expect(argv).toContain("core.fsmonitor=false");
    expect(argv.slice(-6)).toEqual(["diff", "--no-ext-diff", "--no-textconv", "HEAD", "--", "src"]);
    expect(neutraliseGit(["git", "status"]).slice(-1)).toEqual(["status"]);
    expect(neutraliseGit(["git", "blame", "f"]).slice(-3)).toEqual(["blame", "--no-textconv", "f"]);
    expect(neutraliseGit(["/usr/bin/git", "stash", "list"]).slice(-2)).toEqual(["stash", "list"]);
  });
});

describe("trustedCommandArgv of lists, pipelines and bash -c", () => {
  it("runs a list through bash with every git part neutralised in place", () => {
    const [bash, flag, text] = trustedCommandArgv("ls && git diff 2>/dev/null | wc -l")!;
    expect([bash, flag]).toEqual(["bash", "-c"]);
    expect(text).toMatch(
      /^ls && git --no-pager --no-optional-locks -c core\.fsmonitor=false .* diff --no-ext-diff --no-textconv 2>\/dev\/null \| wc -l$/,
    );
  });

  it("runs `bash -lc SCRIPT` as its script would run", () => {
    expect(trustedCommandArgv("bash -lc 'ls -la'")).toEqual(["ls", "-la"]);
    expect(trustedCommandArgv("sh -c 'git status'")![1]).toBe("--no-pager");
    expect(trustedCommandArgv("bash -lc 'ls && pwd'")).toEqual(["bash", "-c", "ls && pwd"]);
    expect(trustedCommandArgv("bash -lc 'ls && rm x'")).toBeNull();
  });
});

describe("neutralised git against a hostile repository", () => {
  // The repository's own config points fsmonitor, the pager, external diff and a textconv driver
  // at a script that leaves a marker. Run as typed, git runs it; neutralised, it must not.
  function hostileRepo() {
    const outside = tempDir("nh-git-"); // the script and its marker sit beside the repository
    const [dir, marker, script] = [join(outside, "repo"), join(outside, "marker"), join(outside, "evil.sh")];
    mkdirSync(dir);
    writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> '${marker}'\n`);
    chmodSync(script, 0o755);
    const git = (...args: string[]) =>
      spawnSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } });
    git("init", "-q");
    git("config", "user.email", "t@t");
    git("config", "user.name", "t");
    writeFileSync(join(dir, "a.txt"), "one\n");
    writeFileSync(join(dir, ".gitattributes"), "*.txt diff=evil\n");
    git("add", ".");
    git("commit", "-qm", "init");
    for (const [key, value] of [
      ["core.fsmonitor", script],
      ["core.pager", script],
      ["pager.log", script],
      ["diff.external", script],
      ["diff.evil.textconv", script],
      ["diff.evil.command", script],
    ])
      git("config", key!, value!);
    writeFileSync(join(dir, "a.txt"), "two\n");
    return { dir, marker };
  }

  const run = (dir: string, argv: string[]) =>
    spawnSync(argv[0]!, argv.slice(1), {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" },
    });

  it("the hostile config really runs the script when git runs as typed", () => {
    const { dir, marker } = hostileRepo();
    run(dir, ["git", "diff"]);
    run(dir, ["git", "status"]);
    expect(existsSync(marker)).toBe(true);
  });

  it.each([
    "git status",
    "git diff",
    "git diff HEAD",
    "git log -p -1",
    "git show",
    "git blame a.txt",
    "git grep one HEAD",
    "ls && git diff",
    "bash -lc 'git status; git diff | cat'",
  ])("%s runs nothing the repository configured", (command) => {
    const { dir, marker } = hostileRepo();
    const argv = trustedCommandArgv(command)!;
    const result = run(dir, argv);
    expect(result.status, result.stderr).toBe(0);
    expect(existsSync(marker) ? readFileSync(marker, "utf8") : "").toBe("");
  });
});
