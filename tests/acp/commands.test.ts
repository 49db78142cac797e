// Slash commands over ACP (src/acp/commands.ts): what is offered, and what a prompt that starts
// with one does.
import { describe, expect, it } from "vitest";
import { availableCommands, parseSlash } from "../../src/acp/commands.js";
import type { CustomCommand } from "../../src/config/custom-commands.js";
import type { Skill } from "../../src/skills/skills.js";

const custom: CustomCommand[] = [
  {
    name: "/review",
    description: "Review a file",
    argumentHint: "FILE",
    model: "m2",
    body: "Review $ARGUMENTS carefully.",
    scope: "user",
    file: "/h/review.md",
  },
  {
    name: "/clear",
    description: "shadowed",
    argumentHint: null,
    model: null,
    body: "x",
    scope: "user",
    file: "/h/c.md",
  },
];
const skills: Skill[] = [
  { name: "release", description: "Cut a release", dir: "/s", file: "/s/SKILL.md", source: "workspace" },
];

describe("availableCommands", () => {
  it("lists the session commands, then custom commands and skills; a built-in name wins", () => {
    const list = availableCommands(custom, skills);
    expect(list.map((c) => c.name)).toEqual(["compact", "undo", "clear", "review", "release"]);
    expect(list.find((c) => c.name === "review")).toMatchObject({
      description: "Review a file",
      input: { hint: "FILE" },
    });
  });
});

describe("parseSlash", () => {
  it.each([
    ["/compact", { kind: "compact" }],
    ["/compact the API", { kind: "compact", focus: "the API" }],
    ["/undo", { kind: "undo", n: 1 }],
    ["/undo 3", { kind: "undo", n: 3 }],
    ["/undo many", null],
    ["/clear", { kind: "clear" }],
    ["/review src/a.ts", { kind: "prompt", text: "Review src/a.ts carefully.", model: "m2" }],
    ["/release v2", { kind: "prompt", text: 'Use the skill "release" (load it with the skill tool first).\n\nv2' }],
    ["/etc/passwd is odd", null],
    ["plain text", null],
  ])("%s", (text, action) => {
    expect(parseSlash(text, custom, skills)).toEqual(action);
  });
});
