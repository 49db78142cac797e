// Building a task's agent: the engine's options from the manager's and the task's (its model,
// mode, session file, approval card, steering), its events passed on with usage counted onto the
// task, and what the loaded session says (its view, its title).
import type { BusEvent } from "../protocol/events.js";
import type { Agent } from "./agent.js";
import type { Extensions } from "./extensions.js";
import { addUsage } from "./providers/usage.js";
import { taskAsker } from "./task-approvals.js";
import type { Task, TaskManagerOptions } from "./task-state.js";

/** What building an agent needs of the task manager. */
export interface AgentHost {
  readonly opts: TaskManagerOptions;
  readonly extensions: Promise<Extensions>;
  emit(event: BusEvent): void;
  /** The task's card changed: task.updated. */
  changed(task: Task): void;
  /** Steering typed since the last step, taken out of the task's queue. */
  takeSteering(task: Task): string[];
}

/** The engine's per-task `traceparent` from the manager's. */
const tracedBy =
  (traceparent: NonNullable<TaskManagerOptions["traceparent"]>, taskId: string) =>
  (callId: string): string | undefined =>
    traceparent(taskId, callId);

/**
 * The engine (the agent, its tools and the model's wire) loads with the first agent a task builds,
 * not with the manager: the UI draws its first frame without it and warms it just after.
 */
export const loadEngine = () => import("./engine.js");

/** Builds the task's agent, loading its session file, once the extensions and an unloading agent are done. */
export function loadTaskAgent(task: Task, host: AgentHost): Promise<Agent> {
  const { opts } = host;
  const id = task.id;
  return Promise.all([host.extensions, task.closing, loadEngine()])
    .then(([extensions, , { createAgent }]) =>
      createAgent({
        settings: { ...opts.settings, model: task.model },
        extensions,
        taskId: id,
        emit: (event) => onAgentEvent(task, event, host),
        sessionFile: task.sessionFile,
        mode: task.mode,
        ...(opts.client ? { client: opts.client } : {}),
        ...(opts.editorFiles ? { editorFiles: opts.editorFiles } : {}),
        // The gate reads the task's policy, mode and rules live; the task's card is who it asks.
        gateState: task,
        asker: askerFor(task, host),
        takeSteering: () => host.takeSteering(task),
        ...(opts.traceparent ? { traceparent: tracedBy(opts.traceparent, id) } : {}),
      }),
    )
    .then((agent) => {
      task.agent = agent;
      if (agent.messages.length > 1) host.emit({ type: "session.loaded", taskId: id, ...agent.loadedView() });
      if (agent.session.title && !task.titleFromUser) {
        task.title = agent.session.title;
        task.titleFromUser = true;
      }
      return agent;
    });
}

function onAgentEvent(task: Task, event: BusEvent, host: AgentHost): void {
  if (event.type === "usage.updated") {
    addUsage(task.usage, event);
    if (event.agentId === undefined) {
      if (event.contextWindow) task.context = { used: event.prompt, window: event.contextWindow };
      else delete task.context;
    }
    host.emit(event);
    host.changed(task);
    return;
  }
  host.emit(event);
}

/** Who the task's agent asks for approval: the task's card, when a front end that can answer is there. */
function askerFor(task: Task, host: AgentHost) {
  const interactive = host.opts.interactive;
  return taskAsker(
    {
      present: () => (typeof interactive === "function" ? interactive(task.id) : interactive),
      emit: (event) => host.emit(event),
      changed: () => host.changed(task),
    },
    task,
  );
}
