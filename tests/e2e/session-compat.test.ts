// A session file from a newer NanoHermes through the built program: read as far as possible,
// never overwritten, the run saved to a new session that says where; and unknown fields of an
// ordinary file survive a turn.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { e2eEnv } from "../helpers/e2e-env.js";
import { textReply } from "../helpers/mock-openai.js";

type Msg = { role: string; content?: unknown };

describe("session files from other versions, end to end", () => {
  it("a version 2 session: the turn runs on what could be read, the file is untouched, the run is saved anew", async () => {
    const ws = tempDir();
    const { mock, env } = await e2eEnv([textReply("answered")]);
    const file = join(ws, "future.json");
    const body = {
      version: 2,
      id: "future",
      createdAt: "t",
      updatedAt: "t",
      workspace: ws,
      model: "m",
      threads: [1],
      messages: [
        { role: "user", content: "earlier question" },
        { role: "assistant", content: "earlier answer" },
      ],
    };
    writeFileSync(file, JSON.stringify(body));
    const before = readFileSync(file, "utf8");
    const r = await runCli(["-p", "next", "-C", ws, "--session", file, "--json"], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^warn: session .*future\.json is not overwritten: it was written by a newer NanoHermes \(session file version 2\)\. Read 2 message\(s\) of it; this run is saved as .*\.json$/m,
    );
    expect(readFileSync(file, "utf8")).toBe(before);
    const sent = mock.requests[0]!.messages as Msg[];
    expect(sent.map((m) => m.content).slice(1)).toEqual(["earlier question", "earlier answer", "next"]);
    const out = JSON.parse(r.stdout) as { sessionFile: string; reason: string };
    expect(out.reason).toBe("completed");
    expect(out.sessionFile).not.toBe(file);
    expect(out.sessionFile.startsWith(join(env.NANOHERMES_HOME!, "sessions"))).toBe(true);
    const saved = JSON.parse(readFileSync(out.sessionFile, "utf8")) as { version: number; messages: Msg[] };
    expect(saved.version).toBe(1);
    expect(saved.messages.map((m) => m.content).slice(1)).toEqual([
      "earlier question",
      "earlier answer",
      "next",
      "answered",
    ]);
    expect(readdirSync(ws).filter((n) => n.includes("corrupt"))).toEqual([]);
  });

  it("an ordinary session with unknown fields keeps them after a turn", async () => {
    const ws = tempDir();
    const { mock, env } = await e2eEnv([textReply("answered")]);
    const file = join(ws, "s.json");
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        id: "s",
        createdAt: "t",
        updatedAt: "t",
        workspace: ws,
        model: "m",
        labels: ["x"],
        messages: [
          { role: "user", content: "q", pinnedBy: "me" },
          { role: "assistant", content: "a" },
        ],
      }),
    );
    const r = await runCli(["-p", "next", "-C", ws, "--session", file], { env });
    expect(r.code, r.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(file, "utf8")) as {
      labels: string[];
      messages: (Msg & { pinnedBy?: string })[];
    };
    expect(saved.labels).toEqual(["x"]);
    expect(saved.messages.find((m) => m.content === "q")!.pinnedBy).toBe("me");
    // The model is sent only the fields it knows.
    expect(JSON.stringify(mock.requests[0]!.messages)).not.toContain("pinnedBy");
  });
});
