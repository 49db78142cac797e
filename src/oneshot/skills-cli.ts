// `nanohermes skills [list|show NAME|proposals|accept ID|reject ID|curate [--dry-run]|rollback ENTRY]
// [--json]`: the skills and who owns them, the background review's proposals, the curator and its
// ledger. Every change goes through the same checks as skill_manage and lands in the ledger.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { UsageError, type Flags } from "../config/flags.js";
import type { Settings } from "../config/schema.js";
import { SkillEvents, type SkillEvent } from "../session/skill-events.js";
import { curate, readCuratorState } from "../skills/curator.js";
import { CuratorBusy } from "../skills/curator-lock.js";
import { readLedger } from "../skills/ledger.js";
import {
  fileProposal,
  findProposal,
  pendingProposals,
  proposalDiff,
  proposedText,
  reviseProposal,
} from "../skills/proposals.js";
import { checkSkillText, withAgentOrigin } from "../skills/skill-rules.js";
import { rollback, RollbackError } from "../skills/rollback.js";
import { planSkillChange } from "../skills/skill-manage-run.js";
import type { SkillManageArgs } from "../skills/skill-manage.js";
import { archivedSkills, ownedSkills, readSkillText } from "../skills/skill-store.js";
import { ToolError } from "../tools/define.js";
import type { Writer } from "./printer.js";
import { EXIT_FAILED, EXIT_OK } from "./run.js";

const USAGE =
  "usage: nanohermes skills [list | show NAME | proposals | accept ID | edit ID | reject ID | curate [--dry-run] | rollback ENTRY] [--json]";

/** Opens `text` in $VISUAL / $EDITOR (vi) on the terminal and returns what was saved. */
function editInEditor(text: string, name: string): { text: string } | { error: string } {
  const dir = mkdtempSync(join(tmpdir(), "nh-skill-edit-"));
  const file = join(dir, name);
  try {
    writeFileSync(file, text, { mode: 0o600 });
    const editor = process.env.VISUAL || process.env.EDITOR || "vi";
    // Through the shell, so an editor with arguments ("code --wait") works as it does for git.
    const run = spawnSync("sh", ["-c", `${editor} "$1"`, "sh", file], { stdio: "inherit" });
    if (run.status !== 0) return { error: `the editor (${editor}) exited with ${run.status ?? run.signal}` };
    return { text: readFileSync(file, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Io {
  stdout: Writer;
  stderr: Writer;
}

export async function runSkills(settings: Settings, words: string[], flags: Flags, io: Io): Promise<number> {
  const [verb = "list", arg, ...extra] = words;
  const json = flags.values.json === true;
  const takesArg = ["show", "accept", "edit", "reject", "rollback"].includes(verb);
  if (extra.length > 0 || (takesArg && !arg) || (!takesArg && arg !== undefined)) throw new UsageError(USAGE);
  const roots = { workspace: settings.workspace, home: settings.home, userHome: homedir() };
  const out = (value: unknown, text: string) => io.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : text);
  const events = await SkillEvents.open(join(settings.home, "sessions.db"));
  const record = (e: SkillEvent) => events.record([e]);
  try {
    switch (verb) {
      case "list": {
        const state = readCuratorState(settings.home);
        const live = ownedSkills(roots).map((o) => ({
          name: o.skill.name,
          description: o.skill.description,
          dir: o.skill.dir,
          origin: o.origin ?? (o.skill.source === "workspace" ? "workspace" : "user"),
          writable: o.readOnly === null,
          state: o.pinned ? "pinned" : state.stale[o.skill.name] ? "stale" : "active",
        }));
        const archived = archivedSkills(settings.home);
        const ledger = (await readLedger(settings.home)).slice(-20);
        out(
          { skills: live, archived, ledger },
          [
            ...live.map(
              (s) => `${s.name}  ${s.origin}${s.writable ? "" : " (read-only)"}  ${s.state}  ${s.description}\n`,
            ),
            ...archived.map((a) => `${a.name}  archived  ${a.description}\n`),
            live.length + archived.length === 0 ? "no skills\n" : "",
          ].join(""),
        );
        return EXIT_OK;
      }
      case "show": {
        const owned = ownedSkills(roots).find((o) => o.skill.name === arg);
        const archived = archivedSkills(settings.home).find((a) => a.name === arg);
        if (!owned && !archived) {
          io.stderr.write(`nanohermes: no skill "${arg}"\n`);
          return EXIT_FAILED;
        }
        const dir = owned?.skill.dir ?? archived!.dir;
        const text = readSkillText(join(dir, "SKILL.md")) ?? "";
        const usage = events.summary(arg!);
        const ledger = (await readLedger(settings.home)).filter((e) => e.skill === arg);
        out(
          { name: arg, dir, archived: !owned, readOnly: owned?.readOnly ?? null, text, events: usage, ledger },
          `${dir}${owned ? "" : " (archived)"}${owned?.readOnly ? `\n${owned.readOnly}` : ""}\nevents: ${
            Object.entries(usage.counts)
              .map(([k, n]) => `${k} ${n}`)
              .join(", ") || "none"
          }\n\n${text}${text.endsWith("\n") ? "" : "\n"}`,
        );
        return EXIT_OK;
      }
      case "proposals": {
        const pending = pendingProposals(settings.home).map((p) => ({ ...p, diff: proposalDiff(settings.home, p) }));
        out(
          pending,
          pending.length === 0
            ? "no proposals waiting\n"
            : pending
                .map(
                  (p) =>
                    `${p.id}  ${p.kind} ${p.name}  (${p.reason})\n${p.diff}\n  accept: nanohermes skills accept ${p.id}   edit: nanohermes skills edit ${p.id}   drop: nanohermes skills reject ${p.id}\n`,
                )
                .join("\n"),
        );
        return EXIT_OK;
      }
      case "accept":
      case "reject": {
        const proposal = findProposal(settings.home, arg!);
        if (!proposal) {
          io.stderr.write(`nanohermes: no waiting proposal "${arg}" (nanohermes skills proposals lists them)\n`);
          return EXIT_FAILED;
        }
        if (verb === "reject") {
          fileProposal(settings.home, proposal.id, "rejected");
          record({ skill: proposal.name, event: "proposal_rejected", detail: proposal.id });
          out(
            { rejected: proposal.id },
            `dropped ${proposal.id} (${proposal.kind} ${proposal.name}); kept in .proposals/rejected/\n`,
          );
          return EXIT_OK;
        }
        const args: SkillManageArgs =
          proposal.kind !== "patch"
            ? { action: proposal.kind, name: proposal.name, content: proposal.content ?? "" }
            : {
                action: "patch",
                name: proposal.name,
                old_string: proposal.old_string ?? "",
                new_string: proposal.new_string ?? "",
              };
        const opts = { roots, record: (e: SkillEvent) => record(e) };
        let result: string;
        try {
          const plan = await planSkillChange(args, opts, new AbortController().signal, undefined);
          result = (await plan.apply(undefined)).forModel;
        } catch (error) {
          if (!(error instanceof ToolError)) throw error;
          io.stderr.write(
            `nanohermes: ${proposal.id} cannot be applied: ${error.message}; it stays waiting (reject it to drop it)\n`,
          );
          return EXIT_FAILED;
        }
        fileProposal(settings.home, proposal.id, "accepted");
        record({ skill: proposal.name, event: "proposal_accepted", detail: proposal.id });
        out({ accepted: proposal.id, result }, `accepted ${proposal.id}: ${result}\n`);
        return EXIT_OK;
      }
      case "edit": {
        const proposal = findProposal(settings.home, arg!);
        if (!proposal) {
          io.stderr.write(`nanohermes: no waiting proposal "${arg}" (nanohermes skills proposals lists them)\n`);
          return EXIT_FAILED;
        }
        const edited = editInEditor(proposedText(settings.home, proposal).after, `${proposal.name}-SKILL.md`);
        if ("error" in edited) {
          io.stderr.write(`nanohermes: ${edited.error}; ${proposal.id} is unchanged\n`);
          return EXIT_FAILED;
        }
        const checked = checkSkillText(edited.text, proposal.name);
        if ("problem" in checked) {
          io.stderr.write(
            `nanohermes: the edited SKILL.md is refused: ${checked.problem}; ${proposal.id} is unchanged\n`,
          );
          return EXIT_FAILED;
        }
        const revised = await reviseProposal(settings.home, proposal, withAgentOrigin(edited.text));
        out(revised, `${proposal.id} now writes your text; accept it with nanohermes skills accept ${proposal.id}\n`);
        return EXIT_OK;
      }
      case "curate": {
        const report = await curate({
          roots,
          staleAfterDays: settings.skills.staleAfterDays,
          archiveAfterDays: settings.skills.archiveAfterDays,
          dryRun: flags.values["dry-run"] === true,
          lastUse: events.lastUse(),
        });
        for (const t of report.transitions)
          if (t.entry && t.to === "archived") record({ skill: t.skill, event: "archived", detail: t.entry });
        const lines = report.transitions.map(
          (t) =>
            `${report.dryRun ? "would mark" : "marked"} ${t.skill} ${t.to} (was ${t.from}; unused ${t.idleDays} days)${t.entry ? `  entry ${t.entry}` : ""}\n`,
        );
        const head = report.firstRun
          ? "first curator run: a dry run; run it again to apply\n"
          : report.dryRun
            ? "dry run: nothing changed\n"
            : "";
        const left = report.skipped.map((s) => `left alone: ${s.skill} (${s.why})\n`);
        out(report, `${head}${lines.join("") || "nothing to change\n"}${left.join("")}`);
        return EXIT_OK;
      }
      case "rollback": {
        const { entry, done } = await rollback(settings.home, arg!);
        if (entry.action === "archive") record({ skill: entry.skill, event: "restored", detail: entry.id });
        out({ rolledBack: entry.id, done }, `rolled back ${entry.id}: ${done}\n`);
        return EXIT_OK;
      }
      default:
        throw new UsageError(USAGE);
    }
  } catch (error) {
    if (error instanceof CuratorBusy || error instanceof RollbackError) {
      io.stderr.write(`nanohermes: ${error.message}\n`);
      return EXIT_FAILED;
    }
    throw error;
  } finally {
    events.close();
  }
}
