// Rules for whole families of tools with no other rule: firewalls flushed or disabled, containers
// given the host, cluster and cloud resources deleted, rsync --delete onto a home or system path,
// home or system directories moved away, files shredded.
import { homeRest, inSystemTree, isHome, isRoot, isSystemDir, normalisePath, sensitiveTarget } from "./danger-paths.js";
import type { Hit } from "./danger-rules.js";
import { hasOption, parseOptions } from "./options.js";

const IPTABLES = /^(ip6?tables|ip6?tables-(legacy|nft)|ebtables|arptables)$/;
const CONTAINERS = new Set(["docker", "podman", "nerdctl"]);
const K8S_WIDE = /^(namespaces?|ns|nodes?|no|pv|persistentvolumes?|crds?|customresourcedefinitions?|all)([/.]|$)/;

/** A host path whose mount hands a container the machine: `/`, system or home dirs, the daemon socket. */
function hostEscape(source: string): boolean {
  const s = normalisePath(source.replace(/^~(?=\/|$)/, "~"));
  return (
    isRoot(s) ||
    isSystemDir(s) ||
    inSystemTree(s) ||
    isHome(s) ||
    (homeRest(s) !== null && sensitiveTarget(s) !== null) ||
    /(docker|podman|containerd)\.sock$/.test(s)
  );
}

/** What a docker/podman run, create or exec gives the container of the host, or null. */
function containerEscape(args: readonly string[]): string | null {
  const o = parseOptions(args, {
    valued: "vepuwhlcm",
    long: [
      "volume=",
      "mount=",
      "pid=",
      "network=",
      "net=",
      "userns=",
      "ipc=",
      "uts=",
      "cap-add=",
      "security-opt=",
      "device=",
      "privileged",
      "name=",
      "env=",
      "workdir=",
      "user=",
      "entrypoint=",
      "publish=",
    ],
  });
  const verb = o.operands[0] === "container" ? o.operands[1] : o.operands[0];
  if (!["run", "create", "exec"].includes(verb ?? "")) return null;
  if (o.long.has("privileged") && !args.includes("--privileged=false"))
    return "--privileged gives it every device and capability of the host";
  for (const ns of ["pid", "userns", "ipc", "uts"])
    if ((o.values.get(ns) ?? []).includes("host")) return `--${ns}=host shares the host's ${ns} namespace`;
  const caps = o.values.get("cap-add") ?? [];
  if (caps.some((c) => /^(CAP_)?(ALL|SYS_ADMIN|SYS_PTRACE|SYS_MODULE|DAC_READ_SEARCH)$/i.test(c)))
    return `--cap-add ${caps.join(",")} lets it break out to the host`;
  if ((o.values.get("security-opt") ?? []).some((x) => /unconfined|label[:=]disable/.test(x)))
    return "its confinement is switched off";
  const volumes = [...(o.values.get("v") ?? []), ...(o.values.get("volume") ?? [])].map((v) => v.split(":")[0]!);
  const mounts = (o.values.get("mount") ?? []).flatMap((m) =>
    m.split(",").flatMap((kv) => (/^(src|source)=/.test(kv) ? [kv.slice(kv.indexOf("=") + 1)] : [])),
  );
  const host = [...volumes, ...mounts].find(hostEscape);
  return host !== undefined ? `it mounts the host's ${host}` : null;
}

/** Why `program args` deletes cluster or cloud resources, or null. */
function cloudDelete(program: string, args: readonly string[]): string | null {
  const ops = args.filter((a) => !a.startsWith("-"));
  switch (program) {
    case "kubectl":
    case "oc": {
      if (ops[0] !== "delete") return null;
      const wide = ops.slice(1).find((r) => K8S_WIDE.test(r));
      const all = args.some((a) => /^(--all|-A|--all-namespaces)(=true)?$/.test(a));
      return wide || all ? `${program} delete ${wide ?? "--all"} deletes everything in it, with its data` : null;
    }
    case "terraform":
    case "tofu":
    case "terragrunt":
    case "pulumi":
    case "cdk":
      return ops[0] === "destroy" || (ops[0] === "apply" && args.includes("-destroy"))
        ? `${program} destroy deletes every resource it manages`
        : null;
    case "helm":
      return ["uninstall", "delete", "del", "un"].includes(ops[0] ?? "")
        ? `helm ${ops[0]} removes a release and its resources`
        : null;
    case "aws":
      if (ops[0] === "s3" && ops[1] === "rb") return "aws s3 rb deletes a bucket";
      if (ops[0] === "s3" && ops[1] === "rm" && args.includes("--recursive"))
        return "aws s3 rm --recursive deletes every object under the prefix";
      return ops.slice(1, 3).find((o) => /^(delete|terminate|deregister)-/.test(o))
        ? `aws ${ops.slice(0, 2).join(" ")} deletes cloud resources`
        : null;
    case "gcloud":
    case "az":
    case "doctl":
      return ops.includes("delete") ? `${program} ${ops.join(" ")} deletes cloud resources` : null;
    case "gsutil":
      return ops[0] === "rb" || (ops[0] === "rm" && args.some((a) => /^-[a-zA-Z]*r/.test(a)))
        ? `gsutil ${ops[0]} deletes a bucket or everything under a prefix`
        : null;
  }
  return null;
}

/** Hits for one simple command (wrappers stripped) in these families; `part` is its text. */
export function familyHits(program: string, args: readonly string[], part: string): Hit[] {
  const hits: Hit[] = [];
  const hit = (rule: string, reason: string) => hits.push({ rule, reason, part });
  if (IPTABLES.test(program)) {
    if (args.some((a) => /^(-F|--flush|-X|--delete-chain)$/.test(a)))
      hit("firewall-flush", `${program} deletes the firewall's rules, leaving the machine open`);
    const policy = args.findIndex((a) => a === "-P" || a === "--policy");
    if (policy >= 0 && args[policy + 2] === "ACCEPT")
      hit("firewall-flush", `${program} -P ${args[policy + 1]} ACCEPT lets everything through`);
  }
  if (
    program === "nft" &&
    args.some((a, k) => (a === "flush" || a === "delete") && /^(ruleset|table)$/.test(args[k + 1] ?? ""))
  )
    hit("firewall-flush", "nft flushes or deletes the firewall's rules, leaving the machine open");
  if (program === "ufw" && args.some((a) => a === "disable" || a === "reset"))
    hit("firewall-flush", "ufw disable/reset turns the firewall off");
  if (CONTAINERS.has(program)) {
    const given = containerEscape(args);
    if (given) hit("container-escape", `a container that can take over the host: ${given}`);
  }
  const cloud = cloudDelete(program, args);
  if (cloud) hit("cloud-delete", cloud);
  if (program === "rsync") {
    const o = parseOptions(args, { valued: "eBfTM", long: ["rsh=", "rsync-path=", "filter=", "exclude=", "include="] });
    const deletes = args.some((a) => /^--(del|delete(-\w+)?|remove-source-files)$/.test(a));
    const dest = (o.operands.at(-1) ?? "").replace(/^[\w.@-]+:(?!\/\/)/, "");
    if (
      deletes &&
      o.operands.length >= 2 &&
      (isRoot(dest) || isSystemDir(dest) || inSystemTree(dest) || homeRest(dest) !== null)
    )
      hit("sync-delete", `rsync --delete onto ${dest} deletes everything there the source lacks`);
  }
  if (program === "mv") {
    const o = parseOptions(args, { valued: "tS", long: ["target-directory=", "suffix="] });
    const sources = o.values.has("t") || o.values.has("target-directory") ? o.operands : o.operands.slice(0, -1);
    const moved = sources.find((s) => isRoot(s) || isSystemDir(s) || isHome(s));
    if (moved)
      hit("move-system", `mv takes ${moved} away: ${isHome(moved) ? "a home directory" : "a whole system directory"}`);
  }
  if (["shred", "wipe", "srm", "scrub"].includes(program)) {
    const o = parseOptions(args, {
      valued: "nsx",
      long: ["iterations=", "size=", "random-source=", "help", "version"],
    });
    if (o.operands.length > 0 && !hasOption(o, null, "help") && !hasOption(o, null, "version"))
      hit("shred-files", `${program} overwrites ${o.operands.join(" ")} so it can never be recovered`);
  }
  return hits;
}
