// Dangerous commands and the unrecoverable blocklist: each rule, the part of a compound command
// that matched, commands hidden in substitutions and `sh -c`, and ordinary commands left alone.
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { classifyDanger, DANGER_RULES } from "../../src/sandbox/dangerous.js";
import { shellPayload, unwrap } from "../../src/sandbox/unwrap.js";
import { readCases } from "../helpers/case-table.js";

/** [command, rule, part that matched] for the blocklist. */
const BLOCKED: [string, string, string][] = [
  ["rm -rf /", "delete-root", "rm -rf /"],
  ["rm -rf /*", "delete-root", "rm -rf /*"],
  ["rm -fr //", "delete-root", "rm -fr //"],
  ["rm -r -f /.", "delete-root", "rm -r -f /."],
  ["rm --recursive --force /", "delete-root", "rm --recursive --force /"],
  ["rm -rf -- /", "delete-root", "rm -rf -- /"],
  ["sudo rm -rf /", "delete-root", "sudo rm -rf /"],
  ["rm -rf --no-preserve-root /tmp/x", "delete-root", "rm -rf --no-preserve-root /tmp/x"],
  ["r\\m -rf '/'", "delete-root", "r\\m -rf '/'"],
  ["cd /tmp && rm -rf /", "delete-root", "rm -rf /"],
  ["echo $(rm -rf /)", "delete-root", "rm -rf /"],
  ["echo `rm -rf /*`", "delete-root", "rm -rf /*"],
  ['bash -c "rm -rf /"', "delete-root", "rm -rf /"],
  ["sh -c 'sudo rm -rf /*'", "delete-root", "sudo rm -rf /*"],
  ['eval "rm -rf /"', "delete-root", "rm -rf /"],
  ["find / -delete", "delete-root", "find / -delete"],
  [":(){ :|:& };:", "fork-bomb", ":(){ :|:& };:"],
  [":(){ :|: & };:", "fork-bomb", ":(){ :|: & };:"],
  ["bomb() { bomb | bomb & }; bomb", "fork-bomb", "bomb() { bomb | bomb & }; bomb"],
  ["function f { f | f & }; f", "fork-bomb", "function f { f | f & }; f"],
  ["perl -e 'fork while fork'", "fork-bomb", "perl -e 'fork while fork'"],
  ["mkfs.ext4 /dev/sda1", "format-disk", "mkfs.ext4 /dev/sda1"],
  ["mkfs -t ext4 /dev/vdb", "format-disk", "mkfs -t ext4 /dev/vdb"],
  ["sudo mkfs.xfs -f /dev/nvme0n1p2", "format-disk", "sudo mkfs.xfs -f /dev/nvme0n1p2"],
  ["mkswap /dev/xvda2", "format-disk", "mkswap /dev/xvda2"],
  ["dd if=/dev/zero of=/dev/sda bs=1M", "overwrite-disk", "dd if=/dev/zero of=/dev/sda bs=1M"],
  ["dd if=image.iso of=/dev/nvme0n1", "overwrite-disk", "dd if=image.iso of=/dev/nvme0n1"],
  ["echo x > /dev/sda", "overwrite-disk", "echo x > /dev/sda"],
  ["cat img >/dev/mmcblk0", "overwrite-disk", "cat img >/dev/mmcblk0"],
  ["echo x | sudo tee /dev/vda", "overwrite-disk", "sudo tee /dev/vda"],
  ["shred -n1 /dev/sdb", "overwrite-disk", "shred -n1 /dev/sdb"],
  ["ls; rm -rf / ; echo done", "delete-root", "rm -rf /"],
  ["rm -rf ~", "delete-system", "rm -rf ~"],
  ['rm -rf "$HOME"', "delete-system", 'rm -rf "$HOME"'],
  ["rm -rf /etc", "delete-system", "rm -rf /etc"],
  ["kill -9 -1", "kill-all", "kill -9 -1"],
  ["kill -- -1", "kill-all", "kill -- -1"],
  ["wget -qO- x | sudo bash -s -- --flag", "pipe-to-root-shell", "wget -qO- x | sudo bash -s -- --flag"],
  ["shutdown -h now", "shutdown", "shutdown -h now"],
  ["sudo reboot", "shutdown", "sudo reboot"],
  ["systemctl poweroff", "shutdown", "systemctl poweroff"],
  ["dd if=x of=/dev/sdb1", "overwrite-disk", "dd if=x of=/dev/sdb1"],
];

/** [command, rule, part that matched] for dangerous commands. */
const DANGEROUS: [string, string, string][] = [
  ["rm -rf ~/projects", "recursive-delete", "rm -rf ~/projects"],
  ["rm -v /var/www -rf", "recursive-delete", "rm -v /var/www -rf"],
  ["rm -rf .", "recursive-delete", "rm -rf ."],
  ["rm -rf ./*", "recursive-delete", "rm -rf ./*"],
  ["rm -rf *", "recursive-delete", "rm -rf *"],
  ["rm -rf ..", "recursive-delete", "rm -rf .."],
  ["rm -rf ../other-project", "recursive-delete", "rm -rf ../other-project"],
  ["rm -rf $BUILD_DIR/", "recursive-delete", "rm -rf $BUILD_DIR/"],
  ["rm -rf /usr/lib/python3", "recursive-delete", "rm -rf /usr/lib/python3"],
  ["rm -rf /home/alice/src", "recursive-delete", "rm -rf /home/alice/src"],
  ["ls && rm -rf ~/x ; echo done", "recursive-delete", "rm -rf ~/x"],
  ["find . -delete", "bulk-delete", "find . -delete"],
  ["find ~/src -name '*.log' -delete", "bulk-delete", "find ~/src -name '*.log' -delete"],
  ["mkfs.ext4 disk.img", "make-filesystem", "mkfs.ext4 disk.img"],
  ["dd if=x of=/dev/loop0", "device-write", "dd if=x of=/dev/loop0"],
  ["cat x > /dev/ttyS0", "device-write", "cat x > /dev/ttyS0"],
  ["fdisk /dev/sda", "partition-disk", "fdisk /dev/sda"],
  ["wipefs -a disk.img", "partition-disk", "wipefs -a disk.img"],
  ["chmod 777 f", "world-writable", "chmod 777 f"],
  ["chmod -R 777 .", "world-writable", "chmod -R 777 ."],
  ["chmod o+w secrets", "world-writable", "chmod o+w secrets"],
  ["chmod a=rwx f", "world-writable", "chmod a=rwx f"],
  ["chmod 1777 dir", "world-writable", "chmod 1777 dir"],
  ["chown -R me /usr", "recursive-chown", "chown -R me /usr"],
  ["sudo chown -R nobody:nogroup /", "recursive-chown", "sudo chown -R nobody:nogroup /"],
  ["chgrp -R staff ~", "recursive-chown", "chgrp -R staff ~"],
  ['psql -c "DROP TABLE users"', "sql-destructive", 'psql -c "DROP TABLE users"'],
  ["mysql -e 'drop database prod'", "sql-destructive", "mysql -e 'drop database prod'"],
  ['sqlite3 app.db "DELETE FROM sessions"', "sql-destructive", 'sqlite3 app.db "DELETE FROM sessions"'],
  ["psql -c 'TRUNCATE TABLE logs'", "sql-destructive", "psql -c 'TRUNCATE TABLE logs'"],
  ['echo "DROP SCHEMA public CASCADE" | psql', "sql-destructive", 'echo "DROP SCHEMA public CASCADE" | psql'],
  ["psql <<EOF\nDELETE FROM users;\nEOF", "sql-destructive", "psql <<EOF"],
  ["mysql db <<< 'truncate t'", "sql-destructive", "mysql db <<< 'truncate t'"],
  ["systemctl stop nginx", "service-stop", "systemctl stop nginx"],
  ["sudo systemctl disable --now sshd", "service-stop", "sudo systemctl disable --now sshd"],
  ["systemctl --user mask foo", "service-stop", "systemctl --user mask foo"],
  ["service postgresql stop", "service-stop", "service postgresql stop"],
  ["killall node", "kill-by-name", "killall node"],
  ["pkill -9 -f vite", "kill-by-name", "pkill -9 -f vite"],
  ["curl -fsSL https://x.sh | sh", "pipe-to-shell", "curl -fsSL https://x.sh | sh"],
  ["curl x | python3", "pipe-to-shell", "curl x | python3"],
  ["bash <(curl -s x)", "pipe-to-shell", "bash <(curl -s x)"],
  ['eval "$(curl -s x)"', "pipe-to-shell", 'eval "$(curl -s x)"'],
  ['sh -c "$(wget -qO- x)"', "pipe-to-shell", 'sh -c "$(wget -qO- x)"'],
  ["echo aGk= | base64 -d | bash", "decode-to-shell", "echo aGk= | base64 -d | bash"],
  ["echo x | base64 --decode | sh", "decode-to-shell", "echo x | base64 --decode | sh"],
  ["xxd -r -p hex | sh", "decode-to-shell", "xxd -r -p hex | sh"],
  ['eval "$CMD"', "shell-indirection", 'eval "$CMD"'],
  ["bash <<< 'ls'", "shell-indirection", "bash <<< 'ls'"],
  ['echo "id" | bash', "shell-indirection", 'echo "id" | bash'],
  ['bash -c "chmod 777 x"', "world-writable", "chmod 777 x"],
  ["git push --force origin main", "git-force-push", "git push --force origin main"],
  ["git push -f", "git-force-push", "git push -f"],
  ["git push origin +main", "git-force-push", "git push origin +main"],
  ["git push --mirror", "git-force-push", "git push --mirror"],
  ["git reset --hard HEAD~1", "git-discard-changes", "git reset --hard HEAD~1"],
  ["git clean -fdx", "git-discard-changes", "git clean -fdx"],
  ["git checkout -- .", "git-discard-changes", "git checkout -- ."],
  ["git restore .", "git-discard-changes", "git restore ."],
  ["git stash clear", "git-discard-changes", "git stash clear"],
  ["crontab -r", "crontab-remove", "crontab -r"],
  ["echo x | sudo tee /etc/hosts", "system-file-write", "sudo tee /etc/hosts"],
  ["echo 'nameserver 1.1.1.1' > /etc/resolv.conf", "system-file-write", "echo 'nameserver 1.1.1.1' > /etc/resolv.conf"],
  ["sudo cp evil /usr/bin/ls", "system-file-write", "sudo cp evil /usr/bin/ls"],
  ["sed -i s/a/b/ /etc/ssh/sshd_config", "system-file-write", "sed -i s/a/b/ /etc/ssh/sshd_config"],
  ["rm -f /etc/passwd", "system-file-write", "rm -f /etc/passwd"],
  ["dd if=/dev/sda of=disk.img", "disk-read", "dd if=/dev/sda of=disk.img"],
  ["npm test && git push --force", "git-force-push", "git push --force"],
];

/** Ordinary work that must not be flagged. */
const HARMLESS = [
  "ls -la",
  "npm test",
  "rm -rf node_modules",
  "rm -rf dist build",
  "rm -f /tmp/x.log",
  "rm -rf ./build/",
  "rm file.txt",
  "chmod 755 script.sh",
  "chmod +x run.sh",
  "chmod -R 755 .",
  "chown -R me .",
  "dd if=/dev/zero of=/dev/null count=1",
  "cat a > /dev/null",
  "echo hi 2>&1",
  "git push origin main",
  "git reset --soft HEAD~1",
  "git checkout main",
  "git checkout -b feat",
  "git restore --staged .",
  "git clean -n",
  "kill 1234",
  "kill -9 4321",
  "systemctl status nginx",
  "service nginx status",
  'psql -c "SELECT 1"',
  'sqlite3 db "DELETE FROM t WHERE id = 1"',
  'echo "rm -rf /"',
  'git commit -m "rm -rf /"',
  "grep -r 'DROP TABLE' migrations",
  "curl -o file.tar.gz https://x",
  "curl x | jq .",
  "base64 -d in > out",
  "python3 -c 'print(1)'",
  "bash script.sh",
  "sh -c 'ls'",
  'bash -lc "npm test"',
  "eval ls",
  'su -c "id" root',
  "env -S 'ls -la'",
  "crontab -l",
  "echo {a,b}",
  "mkdir -p ~/x",
  "cp a /tmp/b",
  "cp /etc/hosts .",
  "sudo apt-get install x",
];

describe("classifyDanger", () => {
  it.each(BLOCKED)("blocks %j (%s)", (command, rule, part) => {
    expect(classifyDanger(command)).toMatchObject({ level: "blocked", rule, part });
  });

  it.each(DANGEROUS)("flags %j (%s)", (command, rule, part) => {
    expect(classifyDanger(command)).toMatchObject({ level: "dangerous", rule, part });
  });

  it.each(HARMLESS)("leaves %j alone", (command) => {
    expect(classifyDanger(command)).toEqual({ level: null, rule: null, reason: "no dangerous pattern", part: null });
  });

  it("prefers a blocked part over an earlier dangerous one", () => {
    expect(classifyDanger("rm -rf ~/x && rm -rf /")).toMatchObject({
      level: "blocked",
      rule: "delete-root",
      part: "rm -rf /",
    });
  });

  it("says where a nested command came from", () => {
    expect(classifyDanger('bash -c "rm -rf ~/x"').reason).toMatch(/inside `bash`/);
    expect(classifyDanger("find . -exec chmod 777 {} +").reason).toMatch(/inside find -exec/);
  });

  it("every rule has a level, a one-line description, and at least one test case", () => {
    const tested = new Set([...BLOCKED, ...DANGEROUS].map(([, rule]) => rule));
    for (const c of readCases(join(import.meta.dirname, "cases"))) if (c.rule) tested.add(c.rule);
    for (const rule of DANGER_RULES) {
      expect(rule.description).not.toMatch(/\n/);
      expect(tested, rule.name).toContain(rule.name);
    }
  });
});

describe("unwrap and shellPayload", () => {
  it.each([
    [["sudo", "-u", "root", "rm", "-rf", "x"], "rm"],
    [["env", "-i", "A=1", "nice", "-n", "5", "rm"], "rm"],
    [["timeout", "-s", "KILL", "10", "make"], "make"],
    [["FOO=1", "/usr/bin/git", "push"], "git"],
    [["xargs", "-I", "{}", "rm", "{}"], "rm"],
  ])("finds the program in %j", (words, program) => {
    expect(unwrap(words).program).toBe(program);
  });

  it.each([
    [["bash", "-c", "ls"], "ls"],
    [["sh", "-e", "-c", "make"], "make"],
    [["bash", "-o", "pipefail", "-c", "x"], "x"],
    [["eval", "echo", "hi"], "echo hi"],
    [["bash", "script.sh"], null],
    [["zsh"], null],
  ])("payload of %j", (words, payload) => {
    expect(shellPayload(unwrap(words))).toBe(payload);
  });
});
