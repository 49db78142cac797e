// The skill_events table in the session database: events per skill and session, when a skill was
// last used (only the events that mean use), and living beside the search index, whose rebuilds
// drop only their own tables.
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect, it } from "vitest";
import { SessionIndex } from "../../src/session/search.js";
import { SkillEvents } from "../../src/session/skill-events.js";
import { tempDir } from "../helpers/cli.js";

it("records events, counts them per skill, and dates the last use from use events only", async () => {
  const db = join(tempDir("nh-home-"), "sessions.db");
  const events = await SkillEvents.open(db);
  events.record([
    { skill: "a", event: "listed", sessionId: "s1", at: "2026-12-01T00:00:00.000Z" },
    { skill: "a", event: "loaded", sessionId: "s1", at: "2026-12-02T00:00:00.000Z" },
    { skill: "a", event: "hinted", sessionId: "s2", at: "2026-12-04T00:00:00.000Z" },
    { skill: "b", event: "listed", sessionId: "s2", at: "2026-12-04T00:00:00.000Z" },
    { skill: "b", event: "proposal_rejected", at: "2026-12-04T00:00:00.000Z" },
  ]);
  // Listed and hinted are not use: a skill shown every session but never loaded still goes stale.
  expect(events.lastUse()).toEqual(new Map([["a", Date.parse("2026-12-02T00:00:00.000Z")]]));
  const a = events.summary("a");
  expect(a.counts).toEqual({ listed: 1, loaded: 1, hinted: 1 });
  expect(a.recent.map((e) => [e.event, e.sessionId])).toEqual([
    ["hinted", "s2"],
    ["loaded", "s1"],
    ["listed", "s1"],
  ]);
  events.close();
});

it("survives the search index opening (and rebuilding) the same database", async () => {
  const home = tempDir("nh-home-");
  const db = join(home, "sessions.db");
  const events = await SkillEvents.open(db);
  events.record([{ skill: "a", event: "loaded", sessionId: "s1" }]);
  events.close();
  // An index of another version: the search index drops and rebuilds its own tables.
  const raw = new Database(db);
  raw.pragma("user_version = 99");
  raw.close();
  const index = await SessionIndex.open(db);
  await index.sync(join(home, "sessions"));
  index.close();
  const again = await SkillEvents.open(db);
  expect(again.summary("a").counts).toEqual({ loaded: 1 });
  again.close();
});
