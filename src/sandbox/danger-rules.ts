// The catalogue of dangerous and blocked command rules: names, levels and plain-language
// descriptions, shared by the checks, `policy check`, the docs and the approval card.

export type DangerLevel = "blocked" | "dangerous";

export interface DangerRule {
  name: string;
  level: DangerLevel;
  description: string;
}

/** One rule that matched: its name, why, and the command text it matched. */
export interface Hit {
  rule: string;
  reason: string;
  part: string;
}

/** The catalogue, for docs, `policy check` and the approval card. Blocked rules come first. */
export const DANGER_RULES: readonly DangerRule[] = [
  {
    name: "delete-root",
    level: "blocked",
    description: "recursive delete of the filesystem root (`rm -rf /`, `/*`, `/..`, --no-preserve-root)",
  },
  {
    name: "delete-system",
    level: "blocked",
    description:
      "recursive delete of a whole system directory (/usr, /etc, /var, /home...) or of a home directory (`~`, `$HOME/*`)",
  },
  { name: "fork-bomb", level: "blocked", description: "a function or loop that forks without end" },
  {
    name: "format-disk",
    level: "blocked",
    description:
      "mkfs/mkswap of a disk or partition however named (/dev/sda1, /dev/root, by-uuid, UUID=, `$(findmnt ...)`)",
  },
  {
    name: "overwrite-disk",
    level: "blocked",
    description: "any program writing over a disk or partition: dd, cp, tee, cat >, shred, blkdiscard",
  },
  { name: "kill-all", level: "blocked", description: "kill of every process (`kill -9 -1`, killall5)" },
  {
    name: "shutdown",
    level: "blocked",
    description: "shutdown, reboot, halt, poweroff, init 0/6, systemctl poweroff/reboot/halt/kexec",
  },
  {
    name: "pipe-to-root-shell",
    level: "blocked",
    description: "downloaded content run by a shell or interpreter as root (`curl ... | sudo sh`)",
  },
  {
    name: "recursive-delete",
    level: "dangerous",
    description:
      "recursive delete outside the workspace and the temp directory, of the whole workspace, of .git, or of a path known only at run time",
  },
  {
    name: "bulk-delete",
    level: "dangerous",
    description: "deleting a list of files computed when it runs: find -delete, find -exec rm, xargs rm",
  },
  {
    name: "make-filesystem",
    level: "dangerous",
    description: "mkfs/mkswap of an image file or a device that is not a disk",
  },
  {
    name: "device-write",
    level: "dangerous",
    description: "writing to a device node that is not a disk (loop, tty of another user...)",
  },
  { name: "disk-read", level: "dangerous", description: "reading a raw disk: every file on it, secrets included" },
  {
    name: "partition-disk",
    level: "dangerous",
    description: "fdisk, parted, sfdisk, gdisk, wipefs: changes partition tables",
  },
  {
    name: "world-writable",
    level: "dangerous",
    description: "chmod that makes files world-writable (777, o+w), worst when recursive",
  },
  {
    name: "recursive-chown",
    level: "dangerous",
    description: "recursive chown/chgrp outside the workspace, or recursive chmod of a system or home directory",
  },
  {
    name: "credential-write",
    level: "dangerous",
    description:
      "writing, copying, moving, editing or deleting credential and start-up files (~/.ssh, ~/.bashrc, ~/.netrc, ~/.gitconfig, ~/.nanohermes...)",
  },
  {
    name: "system-file-write",
    level: "dangerous",
    description:
      "writing, copying, editing or deleting files under /etc, /usr, /boot, /bin, /lib, /private/etc, /private/var",
  },
  {
    name: "secrets-overwrite",
    level: "dangerous",
    description: "overwriting a .env file: usually git-ignored, so it cannot be restored",
  },
  {
    name: "sql-destructive",
    level: "dangerous",
    description: "DROP TABLE/DATABASE/SCHEMA, TRUNCATE, or DELETE FROM without WHERE sent to a SQL client",
  },
  {
    name: "service-stop",
    level: "dangerous",
    description: "stopping, disabling, masking or restarting a system service or container",
  },
  {
    name: "kill-by-name",
    level: "dangerous",
    description: "killall/pkill or kill $(pgrep ...): kills by name, which can hit unrelated processes and this agent",
  },
  {
    name: "pipe-to-shell",
    level: "dangerous",
    description: "downloaded content run by a shell or interpreter (`curl | sh`, `bash <(curl)`)",
  },
  {
    name: "decode-to-shell",
    level: "dangerous",
    description: "decoded content run by a shell (`base64 -d | sh`), which hides what runs",
  },
  {
    name: "shell-indirection",
    level: "dangerous",
    description:
      "a shell fed by a pipe, heredoc, here-string or process substitution, or a command string known only when it runs",
  },
  {
    name: "built-command",
    level: "dangerous",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the description quotes shell syntax
    description: 'a command name or option built by expansion or quoting (`$(echo rm)`, `rm${IFS}-rf`, `r""m`)',
  },
  {
    name: "hidden-characters",
    level: "dangerous",
    description: "control characters or look-alike letters that make the command read differently from how it runs",
  },
  {
    name: "root-shell",
    level: "dangerous",
    description: "sudo/doas/su of a shell, or sudo reading a password from stdin or a helper (-S, -A)",
  },
  {
    name: "git-force-push",
    level: "dangerous",
    description: "git push --force/-f/--force-with-lease/+ref/--mirror/--delete: overwrites history others may have",
  },
  {
    name: "git-discard-changes",
    level: "dangerous",
    description:
      "git reset --hard, clean -f, checkout/restore of `.`, branch -D, stash clear, rm -r of the whole tree: loses work",
  },
  { name: "crontab-remove", level: "dangerous", description: "crontab -r: deletes every scheduled job" },
  {
    name: "package-uninstall",
    level: "dangerous",
    description: "removing installed packages (npm/pip/brew/apt uninstall): other projects may need them",
  },
  {
    name: "firewall-flush",
    level: "dangerous",
    description: "flushing or disabling the firewall (`iptables -F`, `nft flush ruleset`, `ufw disable`/`reset`)",
  },
  {
    name: "container-escape",
    level: "dangerous",
    description:
      "a container given the host: --privileged, --pid/--userns=host, broad capabilities, or the host's /, system or home directories or daemon socket mounted",
  },
  {
    name: "cloud-delete",
    level: "dangerous",
    description:
      "deleting cluster or cloud resources: kubectl delete of namespaces or --all, terraform destroy, helm uninstall, aws s3 rb / rm --recursive, gcloud/az ... delete",
  },
  {
    name: "sync-delete",
    level: "dangerous",
    description: "rsync --delete onto a home, system or root path: deletes everything there the source lacks",
  },
  {
    name: "move-system",
    level: "dangerous",
    description: "moving a home directory, a whole system directory or the root away (`mv ~ /tmp/x`, `mv /etc /tmp`)",
  },
  {
    name: "shred-files",
    level: "dangerous",
    description: "shred, wipe, srm: overwrite files so they can never be recovered",
  },
  {
    name: "cloud-credentials",
    level: "dangerous",
    description: "fetching instance credentials from a cloud metadata endpoint",
  },
];
