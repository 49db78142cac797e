// Issue 18 item 13: Markdown files become /name commands; subfolders are namespaces; arguments
// are filled in; a workspace's commands count only in a trusted folder; built-in names win.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandCommand, loadCustomCommands, parseCommandFile } from "../../src/config/custom-commands.js";
import { parseSlash } from "../../src/ui/controller/slash.js";
import { tempDir } from "../helpers/cli.js";

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

describe("a command file", () => {
  it("reads front matter and the body", () => {
    const parsed = parseCommandFile(
      '---\ndescription: Fix an issue\nargument-hint: [issue]\nmodel: "small-model"\n---\nFix issue $1.\n',
    );
    expect(parsed).toEqual({
      meta: { description: "Fix an issue", "argument-hint": "[issue]", model: "small-model" },
      body: "Fix issue $1.",
    });
    expect(parseCommandFile("Just a prompt\n").meta).toEqual({});
  });

  const cases: [string, string, string][] = [
    ["Review $ARGUMENTS now", "src/a.ts  src/b.ts", "Review src/a.ts  src/b.ts now"],
    ["From $1 to $2 ($3)", 'main "feature branch"', "From main to feature branch ()"],
    ["No placeholders", "extra words", "No placeholders\n\nextra words"],
    ["No placeholders", "", "No placeholders"],
    ["$ARGUMENTS and $1", "x y", "x y and x"],
  ];
  it.each(cases)("fills %j with %j", (body, args, want) => {
    expect(expandCommand(body, args)).toBe(want);
  });
});

describe("finding commands", () => {
  function layout(trusted: boolean) {
    const ws = tempDir();
    const home = tempDir();
    const userHome = tempDir();
    write(join(ws, ".nanohermes/commands/fix.md"), "---\ndescription: workspace fix\n---\nFix $ARGUMENTS");
    write(join(ws, ".claude/commands/frontend/component.md"), "Make a component called $1");
    write(join(ws, ".nanohermes/commands/model.md"), "would shadow /model");
    write(join(home, "commands/fix.md"), "user fix");
    write(join(home, "commands/hello.md"), "Say hello");
    write(join(userHome, ".claude/commands/deploy.md"), "Deploy it");
    write(join(home, "commands/notes.txt"), "not a command");
    return loadCustomCommands({ workspace: ws, home, userHome, trusted });
  }

  it("in a trusted folder: the workspace's first, namespaces from subfolders, .claude layout too", () => {
    const found = layout(true);
    const byName = Object.fromEntries(found.map((c) => [c.name, c]));
    expect(Object.keys(byName).sort()).toEqual(["/deploy", "/fix", "/frontend:component", "/hello", "/model"]);
    expect(byName["/fix"]).toMatchObject({ scope: "workspace", description: "workspace fix" });
    expect(byName["/frontend:component"]?.body).toBe("Make a component called $1");
  });

  it("in an untrusted folder: only the user's own", () => {
    const found = layout(false);
    expect(found.map((c) => c.name).sort()).toEqual(["/deploy", "/fix", "/hello"]);
    expect(found.find((c) => c.name === "/fix")?.scope).toBe("user");
  });

  it("a built-in name means the built-in command; other names find the custom one", () => {
    const found = layout(true);
    expect(parseSlash("/model", found)).toEqual({ kind: "model", name: null });
    expect(parseSlash("/frontend:component Button", found)).toMatchObject({
      kind: "custom",
      args: "Button",
      command: { name: "/frontend:component" },
    });
    expect(parseSlash("/nothing-here", found)).toEqual({ error: "unknown command /nothing-here; /help lists them" });
  });
});
