// Session storage at scale: indexing 1,000 generated sessions (English and Chinese) into the
// search index, 50 searches over them (target < 50 ms each), and loading and saving one
// 10,000-message session (target < 150 ms each). Run alone: bundle it and run the result.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ChatMessage } from "../src/protocol/messages.js";
import { SessionIndex } from "../src/session/search.js";
import { loadSession, saveSession, type SessionData } from "../src/session/store.js";

const SESSIONS = 1_000;
const MESSAGES_PER_SESSION = 20;
const SEARCHES = 50;
const BIG_SESSION = 10_000;

export interface SessionFigures {
  sessions: number;
  /** The first sync of the folder into an empty index. */
  indexMs: number;
  /** A second sync with nothing changed (one stat per file). */
  resyncMs: number;
  searchMs: { p50: number; p95: number };
  loadMs: number;
  saveMs: number;
}

/** A small deterministic generator, so runs compare. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const EN = (
  "the agent compaction summary tool result session index search sqlite query ranking snippet workspace config theme " +
  "terminal render frame resize keyboard binding sandbox landlock network policy approval patch diff apply file read write " +
  "grep glob ripgrep process signal timeout retry backoff model stream token budget memory lesson preference failing tests " +
  "build bundle esbuild typescript strict compiler error warning deploy docker kubernetes database migration schema index"
).split(" ");
const ZH =
  "上下文 压缩 摘要 工具 结果 会话 索引 搜索 数据库 查询 排序 片段 工作区 配置 主题 终端 渲染 键盘 沙箱 网络 策略 审批 补丁 文件 读取 写入 进程 信号 超时 重试 模型 记忆 测试 失败 构建 部署 迁移".split(
    " ",
  );

function sentence(rand: () => number, words: number): string {
  const chinese = rand() < 0.3;
  const pool = chinese ? ZH : EN;
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(pool[Math.floor(rand() * pool.length)]!);
  return chinese ? `${out.join("")}。` : `${out.join(" ")}.`;
}

function generated(i: number, rand: () => number, count: number): SessionData {
  const messages: ChatMessage[] = [{ role: "system", content: "You are NanoHermes, a coding agent. ".repeat(40) }];
  for (let m = 1; m < count; m++) {
    const kind = m % 4;
    if (kind === 1) messages.push({ role: "user", content: sentence(rand, 8 + Math.floor(rand() * 20)) });
    else if (kind === 2)
      messages.push({
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: `c${m}`,
            type: "function",
            function: { name: "grep", arguments: JSON.stringify({ pattern: sentence(rand, 2) }) },
          },
        ],
      });
    else if (kind === 3)
      messages.push({
        role: "tool",
        tool_call_id: `c${m - 1}`,
        content: Array.from({ length: 10 }, () => sentence(rand, 12)).join("\n"),
      });
    else messages.push({ role: "assistant", content: Array.from({ length: 3 }, () => sentence(rand, 15)).join(" ") });
  }
  const day = String(1 + (i % 28)).padStart(2, "0");
  return {
    version: 1,
    id: `bench-${i}`,
    createdAt: `2026-10-${day}T10:00:00.000Z`,
    updatedAt: `2026-10-${day}T11:00:00.000Z`,
    workspace: `/work/project-${i % 7}`,
    model: "bench",
    messages,
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const round = (ms: number) => Math.round(ms * 10) / 10;

export async function benchSessions(): Promise<SessionFigures> {
  const dir = mkdtempSync(join(tmpdir(), "nh-bench-sessions-"));
  try {
    const sessionDir = join(dir, "sessions");
    mkdirSync(sessionDir);
    const rand = random(42);
    for (let i = 0; i < SESSIONS; i++)
      writeFileSync(join(sessionDir, `bench-${i}.json`), JSON.stringify(generated(i, rand, MESSAGES_PER_SESSION)));

    const index = await SessionIndex.open(join(dir, "sessions.db"));
    let t = performance.now();
    const synced = await index.sync(sessionDir);
    const indexMs = performance.now() - t;
    if (synced.total !== SESSIONS) throw new Error(`indexed ${synced.total} of ${SESSIONS} sessions`);
    t = performance.now();
    await index.sync(sessionDir);
    const resyncMs = performance.now() - t;

    const queries = [
      "compaction",
      "sqlite ranking",
      '"failing tests"',
      "landl",
      "上下文压缩",
      "数据库 迁移",
      "sandbox 网络",
      "retry backoff timeout",
      "dock",
      "摘要",
    ];
    const times: number[] = [];
    for (let i = 0; i < SEARCHES; i++) {
      const q = queries[i % queries.length]!;
      t = performance.now();
      index.search(q, i % 5 === 4 ? { workspace: "/work/project-3" } : {});
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    index.close();

    const big = join(dir, "big.json");
    await saveSession(big, generated(SESSIONS, random(7), BIG_SESSION));
    t = performance.now();
    const loaded = await loadSession(big, "/work/big", "bench");
    const loadMs = performance.now() - t;
    if (loaded.data.messages.length !== BIG_SESSION) throw new Error(`loaded ${loaded.data.messages.length} messages`);
    t = performance.now();
    await saveSession(big, loaded.data);
    const saveMs = performance.now() - t;

    return {
      sessions: SESSIONS,
      indexMs: round(indexMs),
      resyncMs: round(resyncMs),
      searchMs: { p50: round(percentile(times, 0.5)), p95: round(percentile(times, 0.95)) },
      loadMs: round(loadMs),
      saveMs: round(saveMs),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  console.log(JSON.stringify(await benchSessions(), null, 2));
