// `nanohermes tool NAME 'JSON' [-C DIR]`: one built-in tool outside any model turn, through the
// same registry (validation, bounds) and the same gate (policy, blocklist, deny rules) as in a
// turn. On a terminal a call that needs approval is asked about on stderr; without one it is
// refused. `--schema` prints the tool's JSON schema.
// Ctrl-C, SIGTERM and SIGHUP stop the tool (a command's process group with it) before exiting.
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { SkillEvidence } from "../agent/skill-evidence.js";
import type { Settings } from "../config/schema.js";
import { createInterface } from "node:readline";
import { commandSandbox, writeBoundary } from "../agent/confinement.js";
import { Gate, gateState, UNATTENDED_APPROVAL, type Asker } from "../agent/gate.js";
import { builtinTools } from "../tools/index.js";
import { jsonSchemaOf, ToolRegistry } from "../tools/registry.js";
import type { Writer } from "./printer.js";
import { signalExitCode, withTermination, type TerminationSignal } from "../agent/interrupt.js";
import { EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE } from "./run.js";

export interface ToolRunArgs {
  name: string | undefined;
  json: string | undefined;
  schema: boolean;
}

export async function runToolCommand(
  settings: Settings,
  args: ToolRunArgs,
  io: { stdout: Writer; stderr: Writer & { isTTY?: boolean }; stdin?: NodeJS.ReadableStream & { isTTY?: boolean } },
): Promise<number> {
  // skill_manage runs here as in a turn (the gate asks or refuses the same way), typed by a person:
  // it needs no earlier load of the skill (read before write is for the model).
  const evidence = settings.skills.manage ? new SkillEvidence(join(settings.home, "sessions.db")) : null;
  const extra = evidence
    ? [
        (await import("../skills/skill-manage.js")).skillManageTool({
          roots: { workspace: settings.workspace, home: settings.home, userHome: homedir() },
          record: (e) => evidence.add(e),
        }),
      ]
    : [];
  // cron runs here as in a turn: listing reads, every change is asked about (or refused without a terminal).
  const { cronTool } = await import("../cron/tool.js");
  const registry = new ToolRegistry([...builtinTools(), ...extra, cronTool({ home: settings.home })]);
  try {
    return await runOne(settings, registry, args, io);
  } finally {
    await evidence?.close();
  }
}

async function runOne(
  settings: Settings,
  registry: ToolRegistry,
  args: ToolRunArgs,
  io: { stdout: Writer; stderr: Writer & { isTTY?: boolean }; stdin?: NodeJS.ReadableStream & { isTTY?: boolean } },
): Promise<number> {
  if (!args.name) {
    for (const name of registry.names()) {
      const tool = registry.get(name)!;
      io.stdout.write(`${name.padEnd(14)}${tool.kind.padEnd(6)}${tool.description.split(". ")[0]}\n`);
    }
    return EXIT_OK;
  }
  const tool = registry.get(args.name);
  if (!tool) {
    io.stderr.write(`nanohermes: unknown tool "${args.name}"; known: ${registry.names().join(", ")}\n`);
    return EXIT_USAGE;
  }
  if (args.schema) {
    io.stdout.write(
      `${JSON.stringify({ name: tool.name, description: tool.description, parameters: jsonSchemaOf(tool.params) }, null, 2)}\n`,
    );
    return EXIT_OK;
  }
  const sandbox = commandSandbox(settings, (line) => io.stderr.write(`nanohermes: ${line}\n`));
  const gate = new Gate({
    settings,
    state: gateState(settings, UNATTENDED_APPROVAL),
    asker: io.stdin?.isTTY && io.stderr.isTTY ? terminalAsker(io.stdin, io.stderr) : null,
    taskId: "cli",
    emit: (event) => {
      if (event.type === "notice" && event.level !== "info") io.stderr.write(`nanohermes: ${event.text}\n`);
    },
  });
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  let signalled: TerminationSignal | null = null;
  process.on("SIGINT", onSigint);
  try {
    // SIGTERM and SIGHUP stop the tool like Ctrl-C (a command's whole process group is killed)
    // and the run ends with 128 + signal once it has.
    const result = await withTermination(
      (signal) => {
        signalled = signal;
        controller.abort();
      },
      () =>
        registry.execute(
          { id: "cli", name: tool.name, arguments: args.json ?? "{}" },
          {
            workspace: realpathSync(settings.workspace),
            taskId: "cli",
            signal: controller.signal,
            sandbox,
            boundary: writeBoundary(settings),
            web: settings.web,
            gate,
            emit: (event) => {
              // Live command output goes to stderr so stdout holds exactly the tool's result.
              if (event.type === "tool.output" && io.stderr.isTTY) io.stderr.write(event.chunk);
            },
          },
        ),
    );
    io.stdout.write(result.forModel.endsWith("\n") ? result.forModel : `${result.forModel}\n`);
    if (signalled) return signalExitCode(signalled);
    if (result.status === "aborted") return EXIT_INTERRUPTED;
    return result.status === "ok" ? EXIT_OK : EXIT_FAILED;
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}

/** Asks on the terminal: the card's title, detail and reason, then y (once) or anything else (no). */
function terminalAsker(stdin: NodeJS.ReadableStream, stderr: Writer): Asker {
  return {
    present: () => true,
    ask: (question) =>
      new Promise((resolve) => {
        stderr.write(`\n${question.title}\n${question.detail}\n${question.reason}\n`);
        const rl = createInterface({ input: stdin, output: undefined, terminal: false });
        let answered = false;
        const done = (yes: boolean) => {
          if (answered) return;
          answered = true;
          rl.close();
          resolve(yes ? { decision: "once" } : { decision: "deny", reason: "the user denied this call" });
        };
        rl.once("line", (line) => done(/^\s*y(es)?\s*$/i.test(line)));
        rl.once("close", () => done(false));
        stderr.write("Run it? [y/N] ");
      }),
  };
}
