// The daemon's memory with slow followers (README, "Bounded streams"): the built program's peak RSS
// during one busy turn (80 steps streaming ~75 MB of events) with 50 followers that never read,
// against the same turn with none, measured by scripts/measure-bounds.mjs in a process of its own.
import { execFileSync } from "node:child_process";
import { join } from "node:path";

export interface FollowerRun {
  followers: number;
  idleMb: number;
  peakMb: number;
  dropped: number;
  turnMs: number;
}

export interface FollowerFigures {
  with: FollowerRun;
  without: FollowerRun;
  /** What the followers add to the peak. */
  addedMb: number;
}

function run(root: string, followers: number): FollowerRun {
  const line = execFileSync(
    process.execPath,
    [join(root, "scripts/measure-bounds.mjs"), "followers", String(followers)],
    {
      encoding: "utf8",
      timeout: 300_000,
    },
  );
  const m = /RSS (\d+) MB before the turn, peak (\d+) MB during it.*in (\d+) ms; (\d+) followers dropped/.exec(line);
  if (!m) throw new Error(`measure-bounds followers: unexpected output: ${line}`);
  return { followers, idleMb: Number(m[1]), peakMb: Number(m[2]), turnMs: Number(m[3]), dropped: Number(m[4]) };
}

export function benchFollowers(root: string): FollowerFigures {
  const withFollowers = run(root, 50);
  const without = run(root, 0);
  return { with: withFollowers, without, addedMb: withFollowers.peakMb - without.peakMb };
}
