// Issue 17's budgets for the terminal UI, this build next to an older one measured in the same run
// (NANOHERMES_BENCH_TUI_BASE=<rev>): each row says whether this build is within its budget.
import type { TuiFigures } from "./tui.js";

export function tuiBudgetRows(now: TuiFigures, old: TuiFigures, rev: string): string[][] {
  const ok = (pass: boolean) => (pass ? "ok" : "OVER");
  const bytes = Math.max(now.bytesPerToken10, now.bytesPerToken2000);
  return [
    ["budget (issue 17)", "this build", rev, "limit", ""],
    [
      "Ink frame p95, 120x40, 2,000 earlier messages",
      `${now.frames2000.p95} ms`,
      `${old.frames2000.p95} ms`,
      "<= 2 ms",
      ok(now.frames2000.p95 <= 2),
    ],
    [
      "CPU while streaming 200 tokens/s (2,000 messages)",
      `${now.cpuPercentStreaming2000}%`,
      `${old.cpuPercentStreaming2000}%`,
      `<= ${old.cpuPercentStreaming2000 + 3}%`,
      ok(now.cpuPercentStreaming2000 <= old.cpuPercentStreaming2000 + 3),
    ],
    [
      "  (10 messages)",
      `${now.cpuPercentStreaming10}%`,
      `${old.cpuPercentStreaming10}%`,
      `<= ${old.cpuPercentStreaming10 + 3}%`,
      ok(now.cpuPercentStreaming10 <= old.cpuPercentStreaming10 + 3),
    ],
    [
      "first complete frame, median",
      `${now.firstFrameMs.median} ms`,
      `${old.firstFrameMs.median} ms`,
      `<= ${(old.firstFrameMs.median * 1.1).toFixed(1)} ms`,
      ok(now.firstFrameMs.median <= old.firstFrameMs.median * 1.1),
    ],
    [
      "idle RSS after 10 s",
      `${now.idleRssMb} MB`,
      `${old.idleRssMb} MB`,
      `<= ${(old.idleRssMb * 1.1).toFixed(1)} MB`,
      ok(now.idleRssMb <= old.idleRssMb * 1.1),
    ],
    [
      "terminal bytes per streamed token (10 / 2,000)",
      `${now.bytesPerToken10} / ${now.bytesPerToken2000}`,
      `${old.bytesPerToken10} / ${old.bytesPerToken2000}`,
      "<= 20",
      ok(bytes <= 20),
    ],
    [
      "typed keys on screen, 4 subagents streaming, p50 / p95 / max",
      `${now.board.keyEchoMs.p50} / ${now.board.keyEchoMs.p95} / ${now.board.keyEchoMs.max} ms`,
      `${old.board.keyEchoMs.p50} / ${old.board.keyEchoMs.p95} / ${old.board.keyEchoMs.max} ms`,
      "p95 <= 50 ms",
      ok(now.board.keyEchoMs.p95 <= 50),
    ],
    ["Ink frame p95, board with 4 streaming", `${now.board.frames.p95} ms`, `${old.board.frames.p95} ms`, "", ""],
  ];
}
