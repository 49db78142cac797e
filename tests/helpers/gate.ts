// A real gate (src/agent/gate.ts) for tests that run tools: by default it lets every call through
// but the blocklist (policy never, --yolo) with nobody to ask; `answer` gives it someone to ask.
import { type Answer, Gate, type Question } from "../../src/agent/gate.js";
import { newRemembered } from "../../src/sandbox/policy.js";
import type { ApprovalPolicy, BusEvent, PermissionMode } from "../../src/protocol/events.js";

export interface TestGateOptions {
  approval?: ApprovalPolicy;
  mode?: PermissionMode;
  yolo?: boolean;
  deny?: string[];
  allow?: string[];
  workspace?: string;
  /** The command sandbox's mode and network: absent, commands have the network. */
  sandbox?: { mode: "off" | "auto" | "read-only" | "workspace-write"; network: boolean };
  /** Someone to ask: called with each question. */
  answer?: (question: Question) => Answer | Promise<Answer>;
  emit?: (event: BusEvent) => void;
}

export function testGate(opts: TestGateOptions = {}): Gate {
  const answer = opts.answer;
  return new Gate({
    settings: {
      yolo: opts.yolo ?? opts.approval === undefined,
      deny: opts.deny ?? [],
      allow: opts.allow ?? [],
      workspace: opts.workspace ?? "/tmp",
      home: "/nonexistent-home",
      ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
    },
    state: { approval: opts.approval ?? "never", mode: opts.mode ?? "default", remembered: newRemembered() },
    asker: answer ? { present: () => true, ask: async (q) => answer(q) } : null,
    taskId: "test",
    emit: opts.emit ?? (() => {}),
  });
}
