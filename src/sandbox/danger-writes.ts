// Where one simple command writes: redirections, tee, cp/mv/install/ln/rsync destinations, dd of=,
// in-place editors (sed -i, perl -i, ruby -i), truncate, download outputs and deletions; and the
// rules on those targets (disks, credential and start-up files, system files, .env files).
import { deviceKind, isEnvFile, isSystemWrite, sensitiveTarget } from "./danger-paths.js";
import type { Hit } from "./danger-rules.js";
import { hasOption, parseOptions } from "./options.js";
import type { Redirect } from "./shell-parse.js";
import type { Unwrapped } from "./unwrap.js";
import { sedArgs, sedScript } from "./classify-sed.js";

export interface WriteTarget {
  target: string;
  /** The program or redirection that writes, for the reason line. */
  how: string;
  /** The old content is lost (overwrite, move over, delete), not appended to. */
  replaces: boolean;
  deletes?: boolean;
}

const COPY_SPEC = {
  valued: "StbmogC",
  long: [
    "target-directory=",
    "suffix=",
    "backup",
    "mode=",
    "owner=",
    "group=",
    "no-target-directory",
    "recursive",
    "force",
    "verbose",
    "archive",
  ],
};
const RSYNC_VALUED = "eBfTM";

/** The destination of cp/mv/install/ln/rsync: `-t DIR`, else the last of two or more operands. */
function destination(program: string, args: string[]): string[] {
  const o = parseOptions(
    args,
    program === "rsync"
      ? {
          valued: RSYNC_VALUED,
          long: ["rsh=", "rsync-path=", "filter=", "exclude=", "include=", "temp-dir=", "backup-dir="],
        }
      : COPY_SPEC,
  );
  const dir = [...(o.values.get("t") ?? []), ...(o.values.get("target-directory") ?? [])];
  if (program === "install" && o.short.has("d")) return o.operands;
  if (dir.length > 0) return dir;
  return o.operands.length >= 2 ? [o.operands.at(-1)!] : [];
}

/** The files an in-place editor changes: sed -i, perl -i/-pi, ruby -i. */
function inPlaceTargets(program: string, args: string[]): string[] {
  if (program === "sed") {
    const o = parseOptions(args, {
      valued: "efl",
      long: [
        "expression=",
        "file=",
        "in-place",
        "line-length=",
        "quiet",
        "silent",
        "regexp-extended",
        "separate",
        "null-data",
        "zero-terminated",
        "posix",
        "debug",
        "sandbox",
        "follow-symlinks",
        "unbuffered",
        "binary",
        "help",
        "version",
      ],
    });
    const inPlace =
      o.short.has("i") || o.long.has("in-place") || args.some((a) => /^-[a-zA-Z]*i/.test(a) && !a.startsWith("--"));
    if (!inPlace) return [];
    const scripted = o.values.has("e") || o.values.has("f") || o.values.has("expression") || o.values.has("file");
    return scripted ? o.operands : o.operands.slice(1);
  }
  // perl and ruby: `-i` (with an optional backup suffix glued on) in a cluster, before any letter
  // whose value takes the rest of it (`-Mstrict` is not `-i`).
  const inPlace = args.some((a) => a.startsWith("-") && !a.startsWith("--") && /^[^eEIMrCx]*i/.test(a.slice(1)));
  if (!inPlace) return [];
  const o = parseOptions(args, { valued: "eEIMrCx" });
  const scripted = o.values.has("e") || o.values.has("E");
  return scripted ? o.operands : o.operands.slice(1);
}

/** Every place `u` (with `redirects`) writes to or deletes. */
export function writeTargets(u: Unwrapped, redirects: readonly Redirect[]): WriteTarget[] {
  const out: WriteTarget[] = [];
  for (const r of redirects) {
    if (!r.target) continue;
    const t = r.target.text;
    if (/^(>|>\||&>|<>)$/.test(r.op) || (r.op === ">&" && !/^(\d+|-)$/.test(t)))
      out.push({ target: t, how: `the redirection ${r.op}`, replaces: true });
    else if (r.op === ">>" || r.op === "&>>") out.push({ target: t, how: `the redirection ${r.op}`, replaces: false });
  }
  const { program: p, args } = u;
  const add = (targets: string[], how: string, replaces: boolean, deletes = false) =>
    out.push(...targets.map((target) => ({ target, how, replaces, deletes })));
  switch (p) {
    case "tee": {
      const o = parseOptions(args, { long: ["append", "ignore-interrupts", "output-error", "help", "version"] });
      add(o.operands, "tee", !hasOption(o, "a", "append"));
      break;
    }
    case "cp":
    case "mv":
    case "install":
    case "ln":
    case "rsync":
    case "scp": {
      const dest = destination(p, args);
      add(dest, p, true);
      // mv takes its sources away: moving ~/.ssh aside removes it as surely as rm.
      if (p === "mv")
        add(
          parseOptions(args, COPY_SPEC).operands.filter((o) => !dest.includes(o)),
          "mv",
          false,
          true,
        );
      break;
    }
    case "ssh-keygen": {
      const o = parseOptions(args, { valued: "fNtbCZaEIOnrsVwzDFGhKLmMPRSTuY" });
      add(o.values.get("f") ?? [], "ssh-keygen -f", true);
      break;
    }
    case "dd":
    case "dcfldd":
    case "dc3dd":
      add(
        args.filter((a) => /^h?of=/.test(a)).map((a) => a.slice(a.indexOf("=") + 1)),
        p,
        true,
      );
      break;
    case "ddrescue":
      add(parseOptions(args, { valued: "bcimMsKx" }).operands.slice(1, 2), p, true);
      break;
    case "sed":
      add(sedScript(sedArgs(args).scripts.join("\n")).writes, "sed's `w`", true);
      add(inPlaceTargets(p, args), `${p} -i`, true);
      break;
    case "perl":
    case "ruby":
      add(inPlaceTargets(p, args), `${p} -i`, true);
      break;
    case "truncate":
    case "shred":
    case "blkdiscard":
    case "wipefs":
      add(
        parseOptions(args, {
          valued: "srnou",
          long: ["size=", "reference=", "iterations=", "random-source=", "offset=", "length="],
        }).operands,
        p,
        true,
      );
      break;
    case "rm":
    case "unlink":
    case "srm":
      add(parseOptions(args).operands, p, true, true);
      break;
    case "curl": {
      const o = parseOptions(args, {
        valued: "oHdXuAeEFKTwxzbcCmrQY",
        long: ["output=", "output-dir=", "header=", "data=", "user=", "config="],
      });
      add([...(o.values.get("o") ?? []), ...(o.values.get("output") ?? [])], "curl -o", true);
      break;
    }
    case "wget": {
      const o = parseOptions(args, {
        valued: "OoaPeTtUiBw",
        long: ["output-document=", "output-file=", "directory-prefix=", "append-output="],
      });
      add(
        [...(o.values.get("O") ?? []), ...(o.values.get("output-document") ?? [])].filter((t) => t !== "-"),
        "wget -O",
        true,
      );
      break;
    }
  }
  return out;
}

/** Rules on where a command writes: disks, devices, credential, start-up, system and .env files. */
export function writeHits(targets: readonly WriteTarget[], part: string): Hit[] {
  const hits: Hit[] = [];
  for (const { target, how, replaces, deletes } of targets) {
    // `of=$(findmnt -n -o SOURCE /)`: a substitution that looks up a device names a disk.
    const lookedUp = /[$`]/.test(target) && /\b(findmnt|lsblk|blkid|df|mount|losetup)\b|\/dev\//.test(target);
    const device = lookedUp ? "disk" : deviceKind(target);
    if (/^\/proc\/sysrq-trigger$/.test(target) && !deletes) {
      hits.push({
        rule: "shutdown",
        reason: `${how} writes /proc/sysrq-trigger, which can reboot or halt the machine at once`,
        part,
      });
      continue;
    }
    if (device === "disk" && !deletes)
      hits.push({ rule: "overwrite-disk", reason: `${how} writes over the disk ${target}`, part });
    else if (device === "device" && !deletes)
      hits.push({ rule: "device-write", reason: `${how} writes to the device ${target}`, part });
    else if (device === null) {
      const sensitive = sensitiveTarget(target);
      const verb = deletes ? "deletes" : replaces ? "overwrites" : "appends to";
      if (sensitive)
        hits.push({
          rule: isSystemWrite(target) ? "system-file-write" : "credential-write",
          reason: `${how} ${verb} ${target}, ${sensitive}`,
          part,
        });
      else if (isEnvFile(target) && replaces)
        hits.push({
          rule: "secrets-overwrite",
          reason: `${how} ${verb} ${target}, a secrets file git usually ignores, so it cannot be restored`,
          part,
        });
    }
  }
  return hits;
}
