// --telemetry-file FILE: the bus's events as JSON lines after an observer.started line, for offline
// analysis (issue 32, item 4). No dependency: one descriptor opened before the turn, one
// synchronous write per event, so a run that exits (or is killed) leaves whole lines behind.
import { closeSync, openSync, writeSync } from "node:fs";
import type { BusEvent } from "../protocol/events.js";
import { observerStarted } from "../protocol/observer.js";
import { VERSION } from "../version.js";

export interface TelemetryFile {
  /** The bus subscriber: one line per event. */
  write(event: BusEvent): void;
  close(): void;
}

/**
 * Opens FILE for appending (created with mode 600: prompts and command output are in it) and
 * writes the schema line. Contract: throws an Error with one clear line when FILE cannot be
 * opened; afterwards never throws (a failed write stops the file, said once through `warn`).
 */
export function openTelemetryFile(path: string, taskId: string, warn: (text: string) => void): TelemetryFile {
  let fd: number | null;
  try {
    fd = openSync(path, "a", 0o600);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new Error(`--telemetry-file ${path}: ${e.code === "EISDIR" ? "is a directory" : e.message}`);
  }
  const line = (value: unknown) => {
    if (fd === null) return;
    try {
      writeSync(fd, `${JSON.stringify(value)}\n`);
    } catch (error) {
      warn(`--telemetry-file ${path}: writing stopped: ${(error as Error).message}`);
      closeQuietly(fd);
      fd = null;
    }
  };
  line(observerStarted(taskId, VERSION));
  return {
    write: line,
    close: () => {
      if (fd !== null) closeQuietly(fd);
      fd = null;
    },
  };
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // closing a descriptor whose writes failed may fail too
  }
}
