import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { build } from "esbuild";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { registerSecret } from "../../src/config/log.js";
import type { ChatMessage } from "../../src/protocol/messages.js";
import { compileQuery, cjkColumn, finishSnippet, messageText, textColumn } from "../../src/session/search-text.js";
import { SessionIndex, sessionSearchTool } from "../../src/session/search.js";
import type { SessionData } from "../../src/session/store.js";
import { callTool } from "../helpers/tools.js";

const root = resolve(import.meta.dirname, "../..");
let dir: string;
let sessions: string;
let index: SessionIndex;

function session(id: string, messages: ChatMessage[], extra: Partial<SessionData> = {}): SessionData {
  return {
    version: 1,
    id,
    createdAt: "2026-11-01T10:00:00.000Z",
    updatedAt: "2026-11-02T11:30:00.000Z",
    workspace: "/work/alpha",
    model: "test-model",
    messages: [
      { role: "system", content: "You are NanoHermes, a coding agent. compaction sqlite 上下文" },
      ...messages,
    ],
    ...extra,
  };
}

const user = (content: string): ChatMessage => ({ role: "user", content });
const reply = (content: string): ChatMessage => ({ role: "assistant", content });

/** Writes a session file into the session folder and returns its path. */
function put(data: SessionData): string {
  const file = join(sessions, `${data.id}.json`);
  writeFileSync(file, JSON.stringify(data));
  return file;
}

function index1(data: SessionData, extra?: ChatMessage[]): string {
  const file = put(data);
  index.indexSession(file, data, extra);
  return file;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "nh-search-"));
  sessions = join(dir, "sessions");
  mkdirSync(sessions);
  index = await SessionIndex.open(join(dir, "sessions.db"));
});

afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("compileQuery (pure)", () => {
  it.each([
    ["", null],
    ["  !!! ... ", null],
    ["compaction", 'text : "compaction" *'],
    ["fix compaction", 'text : "fix" AND text : "compaction" *'],
    ['"summary message" bug', 'text : "summary message" AND text : "bug" *'],
    ['"summary message"', 'text : "summary message"'],
    ["session/store.ts", 'text : "session/store.ts" *'],
    ["上下文压缩", 'cjk : "上下 下文 文压 压缩"'],
    ["缩", 'cjk : "缩" *'],
    ["API接口", 'text : "API" * AND cjk : "接口"'],
    ['NEAR(a b) "x', 'text : "NEAR(a" AND text : "b)" AND text : "x" *'],
  ])("%j -> %j", (query, match) => {
    expect(compileQuery(query)?.match ?? null).toBe(match);
  });

  it("spaces CJK apart from other letters in the text column", () => {
    expect(textColumn("使用API接口, 上传file.txt 3个")).toBe("使用 API 接口, 上传 file.txt 3 个");
  });

  it("drops colour escapes and control characters from message text", () => {
    expect(
      messageText({ role: "tool", tool_call_id: "c", content: "\x1b[31mFAIL\x1b[0m src/a.test.ts\u0002\tok\n" }),
    ).toBe("FAIL src/a.test.ts \tok\n");
  });

  it("puts each CJK run's bigrams and its last character in the CJK column", () => {
    expect(cjkColumn("修复上下文 bug 猫")).toBe("修复 复上 上下 下文 文 猫");
  });

  it("cuts a long snippet around the first mark and keeps marks paired", () => {
    const long = `${"word ".repeat(100)}\u0002needle\u0003${" tail".repeat(100)}`;
    const out = finishSnippet(long, []);
    expect(out).toContain("[needle]");
    expect(out.length).toBeLessThan(220);
    expect(out.startsWith("…")).toBe(true);
  });
});

describe("SessionIndex", () => {
  it("finds English words with a snippet, title, workspace and role", () => {
    index1(
      session(
        "s-en",
        [
          user("The compaction summary drops tool results"),
          reply("I fixed the summariser so tool results survive compaction."),
        ],
        { title: "Fix compaction" },
      ),
    );
    index1(session("s-other", [user("Add a dark theme"), reply("Done: themes/dark.json")]));
    const hits = index.search("compaction");
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({
      sessionId: "s-en",
      title: "Fix compaction",
      workspace: "/work/alpha",
      updatedAt: "2026-11-02T11:30:00.000Z",
    });
    expect(hits[0]!.file).toBe(join(sessions, "s-en.json"));
    expect(hits[0]!.snippet).toContain("[compaction]");
    expect(["user", "assistant"]).toContain(hits[0]!.role);
    expect(hits[0]!.score).toBeGreaterThan(0);
  });

  it("does not index the system prompt", () => {
    index1(session("s", [user("hello there")]));
    expect(index.search("NanoHermes")).toEqual([]);
  });

  it("stems English words and folds diacritics", () => {
    index1(session("s", [user("the failing tests in the café module")]));
    expect(index.search("failed test")).toHaveLength(1);
    expect(index.search("cafe")).toHaveLength(1);
  });

  it("finds Chinese by words inside a run of characters, single characters included", () => {
    index1(session("s-zh", [user("我们修复了上下文压缩的问题"), reply("好的，压缩现在保留工具结果。")]));
    index1(session("s-zh2", [user("数据库迁移失败了")]));
    expect(index.search("上下文压缩").map((h) => h.sessionId)).toEqual(["s-zh"]);
    expect(index.search("压缩").map((h) => h.sessionId)).toEqual(["s-zh"]);
    expect(index.search("题").map((h) => h.sessionId)).toEqual(["s-zh"]);
    expect(index.search("数据库").map((h) => h.sessionId)).toEqual(["s-zh2"]);
    expect(index.search("压缩数据")).toEqual([]);
    expect(index.search("上下文压缩")[0]!.snippet).toContain("[上下文压缩]");
  });

  it("finds Japanese and Korean, and CJK mixed with English", () => {
    index1(session("s-ja", [user("明日の東京でのミーティングの議事録を書いて")]));
    index1(session("s-ko", [user("회의록 작성을 도와주세요")]));
    index1(session("s-mix", [user("使用API接口上传文件")]));
    expect(index.search("ミーティング").map((h) => h.sessionId)).toEqual(["s-ja"]);
    expect(index.search("東京 議事録").map((h) => h.sessionId)).toEqual(["s-ja"]);
    expect(index.search("회의록").map((h) => h.sessionId)).toEqual(["s-ko"]);
    expect(index.search("API 接口").map((h) => h.sessionId)).toEqual(["s-mix"]);
    expect(index.search("ミーティング")[0]!.snippet).toContain("[ミーティング]");
  });

  it("matches quoted phrases only in order", () => {
    index1(session("s-phrase", [user("the summary message is at index one")]));
    index1(session("s-apart", [user("a message about the summary")]));
    expect(index.search('"summary message"').map((h) => h.sessionId)).toEqual(["s-phrase"]);
    expect(
      index
        .search("summary message")
        .map((h) => h.sessionId)
        .sort(),
    ).toEqual(["s-apart", "s-phrase"]);
  });

  it("matches the last word as a prefix, and only the last", () => {
    index1(session("s", [user("compaction of the summary")]));
    expect(index.search("compac")).toHaveLength(1);
    expect(index.search("summary compac")).toHaveLength(1);
    expect(index.search("compac summary")).toEqual([]);
    expect(index.search('"compac"')).toEqual([]);
  });

  it("ranks a session that mentions a word often above one that mentions it once", () => {
    for (let i = 0; i < 6; i++)
      index1(session(`filler-${i}`, [user(`unrelated chatter number ${i} about themes and colours`)]));
    index1(
      session("s-once", [
        user(
          "We looked at many storage options for the cache, among them sqlite, and chose plain JSON files in the end.",
        ),
      ]),
    );
    index1(
      session("s-often", [
        user("Move the index to sqlite"),
        reply("sqlite FTS5 it is: sqlite handles it."),
        user("is sqlite fast enough?"),
      ]),
    );
    expect(index.search("sqlite").map((h) => h.sessionId)).toEqual(["s-often", "s-once"]);
  });

  it("returns one hit per session, at most `limit`", () => {
    index1(
      session(
        "s-many",
        Array.from({ length: 12 }, (_, i) => user(`retry number ${i}: the retry failed`)),
      ),
    );
    for (let i = 0; i < 5; i++) index1(session(`s-${i}`, [user(`one retry here ${i}`)]));
    const hits = index.search("retry");
    expect(hits.map((h) => h.sessionId).sort()).toEqual(["s-0", "s-1", "s-2", "s-3", "s-4", "s-many"]);
    expect(index.search("retry", { limit: 2 })).toHaveLength(2);
  });

  it("filters by workspace", () => {
    index1(session("s-a", [user("deploy the service")], { workspace: "/work/alpha" }));
    index1(session("s-b", [user("deploy the website")], { workspace: "/work/beta" }));
    expect(index.search("deploy", { workspace: "/work/beta" }).map((h) => h.sessionId)).toEqual(["s-b"]);
    expect(index.search("deploy", { workspace: "/work/beta/" }).map((h) => h.sessionId)).toEqual(["s-b"]);
    expect(index.search("deploy")).toHaveLength(2);
  });

  it("indexes tool calls and the start of tool results, not their tail", () => {
    const data = session("s-tools", [
      user("look at the config"),
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "read_file", arguments: '{"path":"settings.yaml"}' } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: `headword ${"x ".repeat(1500)} tailword` },
    ]);
    index1(data);
    expect(index.search("settings.yaml")).toHaveLength(1);
    expect(index.search("headword")[0]!.role).toBe("tool");
    expect(index.search("tailword")).toEqual([]);
  });

  it("re-indexing replaces a session's rows; archived messages stay until replaced", () => {
    const file = index1(
      session("s", [user("alpha topic"), reply("more alpha"), user("alpha again"), reply("alpha!")]),
      [user("folded gamma discussion")],
    );
    expect(index.search("gamma")).toHaveLength(1);
    index.indexSession(file, session("s", [user("beta topic")]));
    expect(index.search("alpha")).toEqual([]);
    expect(index.search("beta")).toHaveLength(1);
    expect(index.search("gamma")).toHaveLength(1);
    index.indexSession(file, session("s", [user("beta topic")]), []);
    expect(index.search("gamma")).toEqual([]);
    index.removeSession(file);
    expect(index.search("beta")).toEqual([]);
  });

  it("syncs the folder: new and changed files are read, deleted ones dropped, others left alone", async () => {
    const a = put(session("a", [user("apples")]));
    put(session("b", [user("bananas")]));
    writeFileSync(join(sessions, "broken.json"), "{ not json");
    writeFileSync(join(sessions, ".a.json.tmp-1-x"), "{}");
    const elsewhere = join(dir, "other", "c.json");
    mkdirSync(join(dir, "other"));
    writeFileSync(elsewhere, "{}");
    index.indexSession(elsewhere, session("c", [user("cherries")]));

    expect(await index.sync(sessions)).toEqual({ indexed: 2, removed: 0, total: 3 });
    expect(await index.sync(sessions)).toEqual({ indexed: 0, removed: 0, total: 3 });
    expect(index.search("apples")).toHaveLength(1);

    writeFileSync(a, JSON.stringify(session("a", [user("apricots")])));
    utimesSync(a, new Date(), new Date(Date.now() + 5_000));
    expect(await index.sync(sessions)).toMatchObject({ indexed: 1, removed: 0 });
    expect(index.search("apples")).toEqual([]);
    expect(index.search("apricots")).toHaveLength(1);

    writeFileSync(a, "garbage");
    expect(await index.sync(sessions)).toMatchObject({ indexed: 0, removed: 0, total: 2 });
    expect(index.search("apricots")).toEqual([]);

    rmSync(join(sessions, "b.json"));
    expect(await index.sync(sessions)).toEqual({ indexed: 0, removed: 1, total: 1 });
    expect(index.search("bananas")).toEqual([]);
    expect(index.search("cherries")).toHaveLength(1);
  });

  it("accepts a bare message array (the seed's format) and a missing folder", async () => {
    writeFileSync(
      join(sessions, "old.json"),
      JSON.stringify([{ role: "system", content: "sys" }, user("legacy quokka")]),
    );
    expect(await index.sync(sessions)).toMatchObject({ indexed: 1 });
    expect(index.search("quokka")[0]).toMatchObject({ sessionId: "old", title: "legacy quokka" });
    expect(await index.sync(join(dir, "nowhere"))).toEqual({ indexed: 0, removed: 0, total: 1 });
  });

  it("never throws on FTS syntax in a query", () => {
    index1(session("s", [user('a "quoted" thing with NEAR and a-b c:d e^f *star* OR AND NOT')]));
    const queries = [
      '"',
      '""',
      '"unbalanced',
      "*",
      "a*",
      "*star*",
      "NEAR(",
      "NEAR(a b, 3)",
      "-",
      "-quoted",
      "c:d",
      "text:",
      ":",
      "^",
      "^quoted",
      "(",
      ")",
      "AND",
      "OR NOT",
      "{text}: x",
      "'",
      "\\",
      "%",
      'quoted"thing',
      "🎉",
      "。、！",
      "a\0b",
      'x\0"y',
      "\u0002",
      "a\ud800",
    ];
    for (const q of queries) expect(() => index.search(q), q).not.toThrow();
    expect(index.search('"quoted" thing')).toHaveLength(1);
    expect(index.search("c:d")).toHaveLength(1);
    expect(index.search("NEAR")).toHaveLength(1);
    expect(index.search("")).toEqual([]);
    expect(index.search(" ?! ... ")).toEqual([]);
  });

  it("keeps registered secrets out of the index", async () => {
    const secret = "sk-live-VERYSECRET-0123456789";
    registerSecret(secret);
    const data = session("s-secret", [user(`my key is ${secret} please use it`), reply(`ok, using ${secret}`)], {
      title: `key ${secret}`,
    });
    index1(data);
    index.close();
    for (const suffix of ["", "-wal"]) {
      const f = join(dir, `sessions.db${suffix}`);
      // FTS5 keeps its tokens lower-cased.
      if (existsSync(f)) expect(readFileSync(f).toString("latin1").toLowerCase().includes("verysecret"), f).toBe(false);
    }
    index = await SessionIndex.open(join(dir, "sessions.db"));
    const hits = index.search("key please");
    expect(hits[0]!.snippet).toContain("[redacted]");
    expect(hits[0]!.title).toBe("key [redacted]");
    expect(index.search("VERYSECRET")).toEqual([]);
  });

  it("rebuilds an index file that is not a database", async () => {
    index.close();
    const dbFile = join(dir, "garbage.db");
    writeFileSync(dbFile, "this is not sqlite ".repeat(400));
    index = await SessionIndex.open(dbFile);
    index1(session("s", [user("works again")]));
    expect(index.search("works")).toHaveLength(1);
  });

  it("lets two instances on one file write in turn", async () => {
    const second = await SessionIndex.open(join(dir, "sessions.db"));
    try {
      for (let i = 0; i < 20; i++) {
        index1(session(`one-${i}`, [user(`first writer ${i}`)]));
        const data = session(`two-${i}`, [user(`second writer ${i}`)]);
        second.indexSession(put(data), data);
      }
      expect(index.search("writer", { limit: 100 })).toHaveLength(40);
      expect(second.search("writer", { limit: 100 })).toHaveLength(40);
    } finally {
      second.close();
    }
  });

  it("lets two processes index into one file at the same time (busy timeout)", async () => {
    // The worker is bundled next to node_modules so its `import("better-sqlite3")` resolves.
    mkdirSync(join(root, "node_modules/.cache"), { recursive: true });
    const out = mkdtempSync(join(root, "node_modules/.cache/nh-search-test-"));
    try {
      const worker = join(out, "worker.mjs");
      await build({
        stdin: {
          contents: `import { renameSync, writeFileSync } from "node:fs";
import { SessionIndex } from ${JSON.stringify(join(root, "src/session/search.ts"))};
const [db, dir, name] = process.argv.slice(2);
const index = await SessionIndex.open(db);
for (let i = 0; i < 150; i++) {
  const data = { version: 1, id: name + i, createdAt: "", updatedAt: "", workspace: "/w", model: "m", messages: [{ role: "user", content: "parallel writer " + name + " " + "words ".repeat(200) }] };
  const file = dir + "/" + name + i + ".json";
  // Written as the engine writes sessions (temp file + rename), so the other process's sync never reads half a file.
  writeFileSync(dir + "/." + name + i + ".tmp", JSON.stringify(data));
  renameSync(dir + "/." + name + i + ".tmp", file);
  index.indexSession(file, data);
  if (i % 25 === 0) await index.sync(dir);
}
index.close();`,
          resolveDir: root,
          loader: "ts",
        },
        bundle: true,
        platform: "node",
        format: "esm",
        packages: "external",
        outfile: worker,
        logLevel: "silent",
      });
      for (let i = 0; i < 30; i++) put(session(`disk-${i}`, [user(`on disk ${i}`)]));
      const run = (name: string) =>
        new Promise<{ code: number | null; stderr: string }>((res) => {
          const child = spawn(process.execPath, [worker, join(dir, "sessions.db"), sessions, name], {
            stdio: ["ignore", "ignore", "pipe"],
          });
          let stderr = "";
          child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
          child.on("close", (code) => res({ code, stderr }));
        });
      const results = await Promise.all([run("p"), run("q")]);
      expect(results).toEqual([
        { code: 0, stderr: "" },
        { code: 0, stderr: "" },
      ]);
      // A sync that read a file just before the other process rewrote and indexed it can leave an
      // older copy in the index; the next sync (every search runs one first) catches up.
      await index.sync(sessions);
      expect(index.search("parallel writer", { limit: 1000 })).toHaveLength(300);
      expect(index.search("disk", { limit: 1000 })).toHaveLength(30);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("stores the CJK column as bigrams in the database", () => {
    index1(session("s", [user("上下文压缩")]));
    index.close();
    const db = new Database(join(dir, "sessions.db"), { readonly: true });
    try {
      expect(db.prepare("SELECT text, cjk FROM messages_fts").all()).toEqual([
        { text: "上下文压缩", cjk: "上下 下文 文压 压缩 缩" },
      ]);
    } finally {
      db.close();
    }
  });
});

describe("session_search tool", () => {
  it("syncs first, then lists hits with title, date, workspace, id and snippet", async () => {
    put(
      session(
        "20261102-113000-abcdef",
        [user("Why does the Landlock sandbox refuse /tmp?"), reply("Landlock needs the path listed as writable.")],
        { title: "Landlock and /tmp" },
      ),
    );
    put(session("s-2", [user("unrelated")]));
    const tool = sessionSearchTool(async () => index, sessions);
    const result = await callTool(tool, { query: "landlock" }, dir);
    expect(result.status).toBe("ok");
    expect(result.forModel).toContain('1 past session match "landlock"');
    expect(result.forModel).toContain(
      "1. Landlock and /tmp — 2026-11-02 11:30 — /work/alpha — session 20261102-113000-abcdef",
    );
    expect(result.forModel).toMatch(/\[Landlock\]/);
    expect(result.forModel).toContain("ask the user to resume it");
    expect(result.display).toContain("1 session");
  });

  it("says so when nothing matches, and rejects an empty query", async () => {
    const tool = sessionSearchTool(async () => index, sessions);
    expect((await callTool(tool, { query: "nothing-here" }, dir)).forModel).toBe(
      'no past session matches "nothing-here"',
    );
    expect((await callTool(tool, { query: "" }, dir)).status).not.toBe("ok");
  });
});
