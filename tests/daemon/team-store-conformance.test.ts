// One conformance suite for both team stores (issue 34): the embedded one (files, SQLite,
// in-process) always, and PostgreSQL on a private cluster this file starts (one cluster for the
// file, one database per test). "Two daemons" are two stores opened on one database.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TeamStore, TurnJob, TurnResult } from "../../src/daemon/team/contract.js";
import { MIGRATIONS, SCHEMA_VERSION } from "../../src/daemon/team/migrations.js";
import { openTeamStore } from "../../src/daemon/team/open.js";
import type { BusEvent } from "../../src/protocol/events.js";
import { tempDir } from "../helpers/cli.js";
import { pgClusterPerFile } from "../helpers/postgres.js";

const opened: TeamStore[] = [];
const db = pgClusterPerFile("t", async () => {
  // A store whose turn never ends would hold its close: the cluster stops regardless.
  const closed = Promise.all(opened.splice(0).map((s) => s.close().catch(() => {})));
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
});

interface Backend {
  name: "embedded" | "postgres";
  /** A fresh store and, for PostgreSQL, a second daemon's view of the same database. */
  fresh(): Promise<{ open(): Promise<TeamStore>; url: string | null }>;
}

const backends: Backend[] = [
  {
    name: "embedded",
    async fresh() {
      const dir = join(tempDir("nh-team-"), "sessions");
      let store: TeamStore | null = null;
      // In one process the "other daemon" is the same store: there is only one.
      return {
        url: null,
        open: async () => {
          store ??= await openTeamStore({ databaseUrl: null, sessionDir: dir });
          opened.push(store);
          return store;
        },
      };
    },
  },
  {
    name: "postgres",
    async fresh() {
      const url = await db.database();
      let node = 0;
      return {
        url,
        open: async () => {
          const store = await openTeamStore({
            databaseUrl: url,
            sessionDir: "",
            leaseMs: 900,
            pollMs: 100,
            node: `n${++node}`,
          });
          opened.push(store);
          return store;
        },
      };
    },
  },
];

const session = (title: string, words: string) =>
  JSON.stringify({
    version: 1,
    id: "x",
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: new Date().toISOString(),
    workspace: "/w",
    model: "m",
    title,
    messages: [
      { role: "system", content: "SYSTEMWORD" },
      { role: "user", content: words },
    ],
  });

/** A promise and its resolver. */
function gate<T = void>(): { promise: Promise<T>; open(value: T): void } {
  let open: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}

const ok = (job: TurnJob): TurnResult => ({ reason: "completed", response: `${job.session}:${job.prompt}` });

describe.each(backends)("team store conformance: $name", (backend) => {
  it("keeps a session's text, lists newest first, searches its messages and refuses what is not a session", async () => {
    const { open } = await backend.fresh();
    const store = await open();
    expect(await store.sessions.load("a")).toBeNull();
    await store.sessions.saveStep("a", session("first", "the quick brown fox"));
    await store.sessions.saveStep("b", session("second", "a lazy dog sleeps"));
    await store.sessions.saveStep("a", session("first", "the quick brown fox jumps over pelicans"));
    const text = await store.sessions.load("a");
    expect(JSON.parse(text!).messages[1].content).toBe("the quick brown fox jumps over pelicans");
    // The seq of the last event a save reflects comes back with it; a save without one has none.
    expect(await store.sessions.loadAt("a")).toEqual({ text, eventsSeq: null });
    await store.sessions.saveStep("a", text!, 42);
    expect(await store.sessions.loadAt("a")).toEqual({ text, eventsSeq: 42 });
    expect(await store.sessions.loadAt("none")).toBeNull();
    expect((await store.sessions.list()).map((s) => [s.id, s.title, s.messages])).toEqual([
      ["a", "first", 2],
      ["b", "second", 2],
    ]);
    const hits = await store.sessions.search("pelicans");
    expect(hits.map((h) => h.id)).toEqual(["a"]);
    expect(hits[0]!.snippet).toContain("[pelicans]");
    expect(await store.sessions.search("SYSTEMWORD")).toEqual([]);
    await expect(store.sessions.saveStep("a", "{not json")).rejects.toThrow(/not a session file/);
    await expect(store.sessions.saveStep("a", '{"messages":"x"}')).rejects.toThrow(/not a session file/);
    expect(JSON.parse((await store.sessions.load("a"))!).title).toBe("first");
    expect(await store.sessions.remove("b")).toBe(true);
    expect(await store.sessions.remove("b")).toBe(false);
    expect((await store.sessions.list()).map((s) => s.id)).toEqual(["a"]);
  });

  it("runs one session's turns one at a time in arrival order, with two daemons taking from one queue", async () => {
    const { open } = await backend.fresh();
    const [a, b] = [await open(), await open()];
    const order: string[] = [];
    let inSession = 0;
    let overlap = false;
    const handler = (name: string) => async (job: TurnJob) => {
      if (++inSession > 1) overlap = true;
      order.push(job.prompt);
      await new Promise((resolve) => setImmediate(resolve));
      inSession--;
      return { ...ok(job), node: name };
    };
    a.turns.work(4, handler("a"));
    if (b !== a) b.turns.work(4, handler("b"));
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await (i % 2 ? b : a).turns.enqueue("s", `p${i}`));
    const results = await Promise.all(ids.map((id, i) => (i % 3 ? a : b).turns.wait(id)));
    expect(order).toEqual(Array.from({ length: 12 }, (_, i) => `p${i}`));
    expect(overlap).toBe(false);
    expect(results.map((r) => r.response)).toEqual(order.map((p) => `s:${p}`));
    expect(await a.turns.depth()).toBe(0);
  });

  it("runs different sessions in parallel", async () => {
    const { open } = await backend.fresh();
    const store = await open();
    const started = { x: gate(), y: gate() };
    // Each turn ends only once the other session's turn has started: serial execution would hang.
    store.turns.work(2, async (job) => {
      const mine = job.session as "x" | "y";
      started[mine].open();
      await started[mine === "x" ? "y" : "x"].promise;
      return ok(job);
    });
    const [x, y] = [await store.turns.enqueue("x", "1"), await store.turns.enqueue("y", "1")];
    expect((await store.turns.wait(x)).reason).toBe("completed");
    expect((await store.turns.wait(y)).reason).toBe("completed");
  });

  it("gives a turn's images, in order and byte for byte, to the daemon that takes it", async () => {
    const { open } = await backend.fresh();
    const [a, b] = [await open(), await open()];
    const seen: { prompt: string; images: { name: string; data: string }[] }[] = [];
    b.turns.work(1, async (job) => {
      seen.push({
        prompt: job.prompt,
        images: (job.images ?? []).map((i) => ({ name: i.name, data: i.data.toString("hex") })),
      });
      return ok(job);
    });
    const bytes = [Buffer.from([0, 1, 2, 255]), Buffer.from("second image")];
    const withImages = await a.turns.enqueue("pics", "look", [
      { name: "one.png", data: bytes[0]! },
      { name: "two.png", data: bytes[1]! },
    ]);
    const without = await a.turns.enqueue("pics", "and now");
    expect((await a.turns.wait(withImages)).reason).toBe("completed");
    expect((await a.turns.wait(without)).reason).toBe("completed");
    expect(seen).toEqual([
      {
        prompt: "look",
        images: [
          { name: "one.png", data: "000102ff" },
          { name: "two.png", data: bytes[1]!.toString("hex") },
        ],
      },
      { prompt: "and now", images: [] },
    ]);
  });

  it("cancels a running turn from the other daemon, and says so when none runs", async () => {
    const { open } = await backend.fresh();
    const [a, b] = [await open(), await open()];
    const running = gate();
    a.turns.work(1, async (job, signal) => {
      running.open();
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
      return { reason: "interrupted", response: job.prompt };
    });
    const id = await b.turns.enqueue("c", "long");
    await running.promise;
    expect(await b.turns.running("c")).toBe(id);
    expect(await b.turns.cancel("c")).toBe(true);
    expect(await b.turns.wait(id)).toMatchObject({ reason: "interrupted" });
    expect(await b.turns.cancel("c")).toBe(false);
    expect(await b.turns.running("c")).toBeNull();
  });

  it("fans a session's events out to a follower on the other daemon, in order, from where it left off", async () => {
    const { open } = await backend.fresh();
    const [a, b] = [await open(), await open()];
    const seen: { seq: number; event: BusEvent }[] = [];
    const following = await b.events.follow("e", null, (e) => seen.push(e));
    const note = (text: string): BusEvent => ({ type: "notice", taskId: "e", level: "info", text });
    // Published together (one batch on PostgreSQL), each resolves with its own seq, in order.
    const published = await Promise.all(["one", "two", "three"].map((text) => a.events.publish("e", note(text))));
    await a.events.publish("other", note("not mine"));
    await following.caughtUp();
    expect(seen.length).toBe(3);
    expect(seen.map((e) => e.seq)).toEqual(published);
    expect(seen.map((e) => (e.event as { text: string }).text)).toEqual(["one", "two", "three"]);
    expect(seen[0]!.seq).toBeLessThan(seen[1]!.seq);
    following.stop();
    await a.events.publish("e", note("four"));
    expect(seen.length).toBe(3);
    // Reconnecting after the first: the rest, once.
    const again: string[] = [];
    const again2 = await b.events.follow("e", seen[0]!.seq, (e) => again.push((e.event as { text: string }).text));
    await again2.caughtUp();
    expect(again).toEqual(["two", "three", "four"]);
    // From the head: only what comes next.
    const later: string[] = [];
    const fromHead = await b.events.follow("e", await b.events.head(), (e) =>
      later.push((e.event as { text: string }).text),
    );
    await a.events.publish("e", note("five"));
    await fromHead.caughtUp();
    expect(later).toEqual(["five"]);
    again2.stop();
    fromHead.stop();
  });
});

describe("team store on PostgreSQL", () => {
  it("migrates once for daemons starting together, and refuses a schema newer than it knows", async () => {
    const url = await db.cluster.createDatabase("migrate");
    const stores = await Promise.all(
      [1, 2, 3].map((n) => openTeamStore({ databaseUrl: url, sessionDir: "", node: `m${n}` })),
    );
    opened.push(...stores);
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT version FROM nh_schema ORDER BY version");
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      await client.query("INSERT INTO nh_schema (version) VALUES (99)");
    } finally {
      await client.end();
    }
    await expect(openTeamStore({ databaseUrl: url, sessionDir: "" })).rejects.toThrow(
      new RegExp(`schema is version 99, newer than this nanohermes knows \\(${SCHEMA_VERSION}\\): upgrade nanohermes`),
    );
  });

  it("gives one scheduled instant to exactly one of three daemons claiming it together", async () => {
    const url = await db.cluster.createDatabase("cron");
    const stores = await Promise.all(
      ["c1", "c2", "c3"].map((node) => openTeamStore({ databaseUrl: url, sessionDir: "", node })),
    );
    opened.push(...stores);
    for (const instant of [1_000, 2_000, 3_000]) {
      const answers = await Promise.all(stores.map((s) => s.claimInstant("tick", instant)));
      const winners = answers.filter((a) => a === null);
      expect(winners).toHaveLength(1);
      const winner = ["c1", "c2", "c3"][answers.indexOf(null)];
      expect(answers.filter((a) => a !== null)).toEqual([winner, winner]);
    }
    // Another job's instant is its own.
    expect(await stores[0]!.claimInstant("other", 1_000)).toBeNull();
  });

  it("says which database it cannot reach, without its password", async () => {
    await expect(
      openTeamStore({ databaseUrl: `postgres://nh:hunter2@127.0.0.1:${db.cluster.port}/no_such_db`, sessionDir: "" }),
    ).rejects.toThrow(/cannot reach the database postgres:\/\/nh:\*\*\*@127\.0\.0\.1:\d+\/no_such_db/);
  });

  it("takes over a turn whose daemon lost its lease, as attempt 2; the old daemon has no say in its end", async () => {
    const { url } = await backends[1]!.fresh();
    const a = await openTeamStore({ databaseUrl: url, sessionDir: "", leaseMs: 600, pollMs: 100, node: "dies" });
    const b = await openTeamStore({ databaseUrl: url, sessionDir: "", leaseMs: 600, pollMs: 100, node: "lives" });
    opened.push(a, b);
    const taken = gate();
    const aborted = gate();
    a.turns.work(1, async (_job, signal) => {
      taken.open();
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
      aborted.open();
      return { reason: "interrupted", response: "from the old daemon" };
    });
    const id = await b.turns.enqueue("l", "p");
    await taken.promise;
    // As a daemon that hangs and whose lease is taken over (the kill -9 case is the e2e test): the
    // turn no longer names it, so its next renewal stops its run, and the lease runs out.
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: url! });
    await client.connect();
    await client.query("UPDATE nh_turns SET node = 'hung' WHERE id = $1", [id]);
    await client.end();
    await aborted.promise;
    // The hung daemon goes away now (before the lease runs out), or it could take the turn back.
    await a.close();
    const attempts: number[] = [];
    b.turns.work(1, async (job) => {
      attempts.push(job.attempt);
      return ok(job);
    });
    expect(await b.turns.wait(id)).toMatchObject({ reason: "completed", response: "l:p" });
    expect(attempts).toEqual([2]);
  });

  it("a database that goes away mid-turn: the turn's end is recorded once it is back", async () => {
    const { url } = await backends[1]!.fresh();
    const store = await openTeamStore({ databaseUrl: url, sessionDir: "", leaseMs: 3_000, pollMs: 100, node: "d" });
    opened.push(store);
    const running = gate();
    const release = gate();
    store.turns.work(1, async (job) => {
      running.open();
      await release.promise;
      return ok(job);
    });
    const id = await store.turns.enqueue("d", "p");
    await running.promise;
    await db.cluster.kill();
    expect((await store.health()).database).toBe("unreachable");
    release.open();
    await db.cluster.start();
    expect(await store.turns.wait(id)).toMatchObject({ reason: "completed", response: "d:p" });
    expect(await store.health()).toEqual({ database: "ok", queueDepth: 0 });
    // A restart may be tried again (tests/helpers/postgres.ts): room for it.
  }, 90_000);

  it("a database away longer than the lease: the turn stops cleanly and is taken again, as attempt 2, once it is back", async () => {
    const { url } = await backends[1]!.fresh();
    const store = await openTeamStore({ databaseUrl: url, sessionDir: "", leaseMs: 600, pollMs: 100, node: "d" });
    opened.push(store);
    const first = gate<boolean>();
    const attempts: number[] = [];
    store.turns.work(1, async (job, signal) => {
      attempts.push(job.attempt);
      if (job.attempt === 1) {
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
        first.open(true);
        return { reason: "interrupted", response: "" };
      }
      return ok(job);
    });
    const id = await store.turns.enqueue("away", "p");
    await expect.poll(() => attempts.length, { timeout: 10_000 }).toBe(1);
    await db.cluster.kill();
    // Not renewed for a whole lease: the run stops (its daemon cannot know it still holds the turn).
    expect(await first.promise).toBe(true);
    await db.cluster.start();
    expect(await store.turns.wait(id)).toMatchObject({ reason: "completed", response: "away:p" });
    expect(attempts).toEqual([1, 2]);
    // A restart may be tried again (tests/helpers/postgres.ts): room for it.
  }, 90_000);

  it("relays a command to the daemon that serves it and brings its answer back; withdraws one nobody answers", async () => {
    const url = await db.cluster.createDatabase("relay");
    const [a, b] = await Promise.all(
      ["r1", "r2"].map((node) => openTeamStore({ databaseUrl: url, sessionDir: "", node, answerMs: 500 })),
    );
    opened.push(a!, b!);
    const applied: string[] = [];
    await b!.relay!.serve((session, command) => {
      applied.push(`${session}:${command.type}`);
      return command.type === "approval.reply" ? `no approval ${command.requestId} is waiting` : null;
    });
    const steer = { type: "user.submit", taskId: "s", text: "and the docs", mode: "steer" } as const;
    expect(await a!.relay!.send("r2", "s", steer)).toBeNull();
    const reply = { type: "approval.reply", taskId: "s", requestId: "q1", decision: "once" } as const;
    expect(await a!.relay!.send("r2", "s", reply)).toBe("no approval q1 is waiting");
    expect(applied).toEqual(["s:user.submit", "s:approval.reply"]);
    // A daemon that never answers: the command is withdrawn, never applied later.
    expect(await a!.relay!.send("gone:1", "s", steer)).toMatch(
      /^the daemon running this turn \(gone:1\) did not answer/,
    );
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      expect((await client.query("SELECT count(*)::int AS n FROM nh_commands")).rows[0].n).toBe(0);
    } finally {
      await client.end();
    }
    expect(await a!.relay!.runningOn("s")).toBeNull();
  });

  it("counts a front end attached on one daemon on every daemon, until it detaches", async () => {
    const url = await db.cluster.createDatabase("attached");
    const [a, b] = await Promise.all(
      ["t1", "t2"].map((node) => openTeamStore({ databaseUrl: url, sessionDir: "", node })),
    );
    opened.push(a!, b!);
    const seen: string[][] = [];
    b!.relay!.onAttached((sessions) => seen.push([...sessions]));
    const detach = await a!.relay!.attach("watched");
    await b!.relay!.refresh();
    expect(seen.at(-1)).toEqual(["watched"]);
    // A second front end on the same daemon: detaching one leaves the session attached.
    const second = await a!.relay!.attach("watched");
    detach();
    detach();
    await b!.relay!.refresh();
    expect(seen.at(-1)).toEqual(["watched"]);
    second();
    await expect
      .poll(async () => {
        await b!.relay!.refresh();
        return seen.at(-1);
      })
      .toEqual([]);
  });
});
