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
import { acceptProposal, editProposal, rejectProposal, type Answer } from "../skills/proposal-answer.js";
import { findProposal, pendingProposals, proposalDiff, proposedText } from "../skills/proposals.js";
import { rollback, RollbackError } from "../skills/rollback.js";
import { archivedSkills, ownedSkills, readSkillText } from "../skills/skill-store.js";
import type { Writer } from "./printer.js";
import { EXIT_FAILED, EXIT_OK } from "./run.js";

const USAGE =
  "usage: nanohermes skills [list | show NAME | proposals | accept ID | edit ID | reject ID | curate [--dry-run] [--consolidate] | rollback ENTRY] [--json]";

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

/** `edit ID`: the proposal's text in the editor, then the shared checks. */
async function editWithEditor(home: string, id: string): Promise<Answer> {
  const proposal = findProposal(home, id);
  if (!proposal) return editProposal(home, id, "");
  const edited = editInEditor(proposedText(home, proposal).after, `${proposal.name}-SKILL.md`);
  if ("error" in edited) return { ok: false, error: `${edited.error}; ${proposal.id} is unchanged` };
  return editProposal(home, id, edited.text);
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
  if (flags.values.consolidate === true && verb !== "curate")
    throw new UsageError("--consolidate goes with skills curate");
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
          // Where it comes from first: another tool's folder is external whatever its frontmatter says.
          origin:
            o.skill.source === "external"
              ? "external"
              : (o.origin ?? (o.skill.source === "workspace" ? "workspace" : "user")),
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
      case "reject":
      case "edit": {
        const answer =
          verb === "accept"
            ? await acceptProposal(roots, arg!, record)
            : verb === "reject"
              ? rejectProposal(settings.home, arg!, record)
              : await editWithEditor(settings.home, arg!);
        if (!answer.ok) {
          io.stderr.write(`nanohermes: ${answer.error}\n`);
          return EXIT_FAILED;
        }
        const id = answer.proposal.id;
        if (verb === "accept") out({ accepted: id, result: answer.result }, `${answer.text}\n`);
        else if (verb === "reject") out({ rejected: id }, `${answer.text}\n`);
        else out(answer.proposal, `${answer.text}; accept it with nanohermes skills accept ${id}\n`);
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
        // Opt-in: the model's merges become proposals (nothing changes), so a dry run makes them too.
        const consolidation =
          flags.values.consolidate === true || settings.skills.consolidate === true
            ? await (await import("../agent/skill-consolidate.js")).consolidateFor(settings, roots)
            : null;
        const summary = consolidation
          ? `${(await import("../agent/skill-consolidate.js")).consolidationSummary(consolidation)}\n`
          : "";
        out(
          consolidation ? { ...report, consolidation } : report,
          `${head}${lines.join("") || "nothing to change\n"}${left.join("")}${summary}`,
        );
        return consolidation?.failed ? EXIT_FAILED : EXIT_OK;
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
