// A task's steer/queue items: what is typed while a turn runs. Steering goes into the running
// turn at its next step; queued items become the next turns, one by one, unless a stop paused them.
import { randomId } from "../protocol/ids.js";
import type { BusEvent } from "../protocol/events.js";
import type { QueueItem, Task } from "./task-state.js";

type Emit = (event: BusEvent) => void;

/** Says the queue as it is now (queue.updated); an emptied queue is no longer paused. */
export function announceQueue(task: Task, emit: Emit): void {
  if (task.items.length === 0) task.queuePaused = false;
  emit({
    type: "queue.updated",
    taskId: task.id,
    items: task.items.map((i) => ({ ...i })),
    ...(task.queuePaused ? { paused: true } : {}),
  });
}

/** A prompt typed while a turn runs: queued when asked to be, else steering for the running turn. */
export function enqueue(task: Task, text: string, mode: "turn" | "steer" | "queue", emit: Emit): void {
  task.items.push({ id: randomId(12), text, mode: mode === "queue" ? "queue" : "steer" });
  announceQueue(task, emit);
}

/** The steering items' texts, taken out of the queue for the running turn. */
export function takeSteering(task: Task, emit: Emit): string[] {
  const steer = task.items.filter((i) => i.mode === "steer");
  if (steer.length === 0) return [];
  task.items = task.items.filter((i) => i.mode !== "steer");
  announceQueue(task, emit);
  return steer.map((i) => i.text);
}

/**
 * After a turn: the item that becomes the next turn, or null. Queued messages go on; steering
 * left over (the turn ended first) too. After a stop they wait, shown as paused, until the user
 * sends them on (resumeQueue).
 */
export function nextAfterTurn(task: Task, emit: Emit): QueueItem | null {
  if (task.queuePaused && task.items.length > 0) {
    announceQueue(task, emit);
    return null;
  }
  task.queuePaused = false;
  const next = task.items.shift();
  if (!next) return null;
  announceQueue(task, emit);
  return next;
}

/** A paused queue goes on: its first item is the next turn (the rest follow as usual); none while a turn runs. */
export function resumeQueue(task: Task, emit: Emit): QueueItem | null {
  task.queuePaused = false;
  if (task.running) {
    announceQueue(task, emit);
    return null;
  }
  const next = task.items.shift();
  announceQueue(task, emit);
  return next ?? null;
}
