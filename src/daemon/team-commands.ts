// A team daemon's front-end commands (issue 34): a prompt goes through the shared queue, and what
// belongs to a running turn (a steer, an approval answer, a forced stop) goes to the daemon running
// it, here or through the CommandRelay. Front ends attached on any daemon count here, so the turn's
// daemon asks for approvals as one daemon does with a front end attached.
import { promises as fs } from "node:fs";
import { basename } from "node:path";
import { log } from "../config/log.js";
import type { BusCommand } from "../protocol/commands.js";
import type { DaemonSessions, TurnOutcome } from "./sessions.js";
import type { TeamStore, TurnImage } from "./team/contract.js";
import { isUpload } from "./uploads.js";

export class TeamCommands {
  /** Sessions held as attached here because a front end follows them on some daemon of the team. */
  private readonly held = new Map<string, () => void>();

  constructor(
    private readonly store: TeamStore,
    private readonly sessions: DaemonSessions,
    /** Queues a turn (with its images) and resolves when it ends. */
    private readonly runTurn: (id: string, prompt: string, images: TurnImage[]) => Promise<TurnOutcome>,
  ) {}

  /** Applies the commands other daemons relay to this one; counts their front ends here. */
  start(): void {
    const relay = this.store.relay;
    if (!relay) return;
    relay.onAttached((sessions) => this.holdAttached(sessions));
    void relay.serve((session, command) => this.sessions.command(session, command));
    void relay.refresh().catch((error: unknown) => log("warn", "team: reading the attached front ends", error));
  }

  /**
   * A front end attached to a session on any daemon counts here, so a turn this daemon runs asks
   * for approvals (the answer comes back through the relay); when the last goes, waiting approvals
   * are denied after the same wait as on one daemon.
   */
  private holdAttached(sessions: ReadonlySet<string>): void {
    for (const id of sessions) if (!this.held.has(id)) this.held.set(id, this.sessions.hold(id));
    for (const [id, release] of this.held)
      if (!sessions.has(id)) {
        release();
        this.held.delete(id);
      }
  }

  /**
   * A front end's command in a team (what `nanohermes attach` sends): a prompt goes through the
   * shared queue (its events reach the front end through the fan-out, wherever it runs); steering
   * and approval answers go to the daemon running the turn (here, or through the relay); a stop
   * goes to the turn wherever it runs. Returns why it was refused, or undefined for a command this
   * daemon handles as one daemon does (undo, config, ...).
   */
  async command(id: string, command: BusCommand): Promise<string | null | undefined> {
    if (command.type === "turn.interrupt") {
      void this.cancel(id, command.force === true).catch((error: unknown) =>
        log("warn", `team: cancelling ${id}`, error),
      );
      return null;
    }
    const steer = command.type === "user.submit" && command.mode === "steer";
    let images: TurnImage[] = [];
    if (command.type === "user.submit" && command.images?.length) {
      // Uploaded here; their bytes go with the turn to whichever daemon takes it.
      const read = await this.uploads(command.images);
      if (typeof read === "string") return read;
      if (steer) return "a team daemon steers with text only: send the images with the next prompt";
      images = read;
    }
    if (command.type !== "approval.reply" && !steer) {
      if (command.type !== "user.submit") return undefined;
      void this.runTurn(id, command.text, images).catch((error: unknown) =>
        log("warn", `team: a turn of ${id}`, error),
      );
      return null;
    }
    const relay = this.store.relay;
    if (!relay) return undefined;
    const node = await relay.runningOn(id);
    if (node === null) {
      // Nothing runs: an approval has nobody waiting for it, a steer is the next prompt.
      if (command.type === "approval.reply") return `no approval ${command.requestId} is waiting in session "${id}"`;
      void this.runTurn(id, command.type === "user.submit" ? command.text : "", []).catch((error: unknown) =>
        log("warn", `team: a turn of ${id}`, error),
      );
      return null;
    }
    if (node === relay.node) return this.sessions.command(id, command);
    return relay.send(node, id, command);
  }

  /** The uploads a prompt names, read; why not, when one is not an upload of this daemon. */
  private async uploads(paths: string[]): Promise<TurnImage[] | string> {
    if (paths.some((path) => !isUpload(this.sessions.uploadDir, path)))
      return "images must be uploaded first (POST /v1/sessions/ID/images) and named by the path that returns";
    try {
      // The upload's name is `<random>-<name>`: the name is what the image was called.
      return await Promise.all(
        paths.map(async (path) => ({ name: basename(path).replace(/^[^-]*-/, ""), data: await fs.readFile(path) })),
      );
    } catch (error) {
      return `an uploaded image could not be read: ${(error as Error).message}`;
    }
  }

  /**
   * Stops the session's running turn on whichever daemon runs it; `force` also kills its running
   * tools there (the interrupt goes through the relay to that daemon's engine).
   */
  async cancel(id: string, force = false): Promise<boolean> {
    const relay = this.store.relay;
    const node = force && relay ? await relay.runningOn(id) : null;
    if (node !== null && relay) {
      const interrupt: BusCommand = { type: "turn.interrupt", taskId: id, force: true };
      const refused =
        node === relay.node ? this.sessions.command(id, interrupt) : await relay.send(node, id, interrupt);
      if (refused) log("warn", `team: a forced stop of ${id} on ${node} was refused: ${refused}`);
    }
    return this.store.turns.cancel(id);
  }
}
