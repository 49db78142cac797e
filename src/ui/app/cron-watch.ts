// Scheduled runs in the UI (issue 31): loaded after the first frame where a ledger exists, the
// title bar says how many runs were missed with no daemon to run them, or how many refusals of a
// running daemon's scheduled runs wait unread; the status line says once how to start a daemon.
// Read again every minute. The ledger's code (and croner, to count missed instants) loads here.
import { log } from "../../config/log.js";
import type { CronLine } from "../state/ui-state.js";

export interface CronWatch {
  home: string;
  /** The title bar's line changed. */
  update(line: CronLine | null): void;
  /** One status-line message. */
  say(text: string, level: "info" | "warn"): void;
  /** How often to read the ledger again (default a minute). */
  everyMs?: number;
}

export function watchCron(opts: CronWatch): void {
  let saidMissed = false;
  let inboxSeen = 0;
  const read = async () => {
    const { cronStatus, missedLine } = await import("../../cron/status.js");
    const status = await cronStatus(opts.home);
    if (!status) return opts.update(null);
    const { daemon, missed, more, inbox } = status;
    opts.update({ daemon, missed, more, inbox });
    if (!daemon && missed > 0 && !saidMissed) {
      saidMissed = true;
      opts.say(missedLine(missed, more), "warn");
    }
    if (daemon && inbox > inboxSeen)
      opts.say(
        `scheduled runs were refused ${inbox} call${inbox === 1 ? "" : "s"}: nanohermes cron inbox lists them`,
        "info",
      );
    inboxSeen = inbox;
  };
  const tick = () => void read().catch((error: unknown) => log("warn", "reading the cron ledger", error));
  tick();
  setInterval(tick, opts.everyMs ?? 60_000).unref();
}
