// Why NanoHermes's fields (components/TextField.tsx) do not take keys through Ink's own input path:
// ink-text-input edits the value and cursor of its last render, and Ink hands it the keys of one
// terminal read one after another before React renders again. So when keys arrive together (a
// word typed over SSH in one packet, tmux send-keys, a key held down, every pty test), all but one
// edit the same old state and Enter submits an old value. Measured here through Ink's own path;
// input/field-router.ts and terminal/ink-updates.ts are the way round it (README, "Dependencies").
// If this test fails, Ink or ink-text-input changed, and the way round may be simpler now.
import { Box } from "ink";
import TextInput from "ink-text-input";
import { render } from "ink-testing-library";
import { useState } from "react";
import { describe, expect, it } from "vitest";

function Field({ submitted }: { submitted: (value: string) => void }) {
  const [value, setValue] = useState("");
  return (
    <Box>
      <TextInput value={value} onChange={setValue} onSubmit={submitted} />
    </Box>
  );
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the field submitted after `reads` (each one terminal read), or null. */
async function submitAfter(reads: string[], gapMs: number): Promise<string | null> {
  let got: string | null = null;
  const app = render(<Field submitted={(v) => (got = v)} />);
  await pause(20);
  for (const bytes of reads) {
    app.stdin.write(bytes);
    if (gapMs) await pause(gapMs);
  }
  await pause(50);
  app.unmount();
  return got;
}

describe("ink-text-input and keys that arrive together", () => {
  it("gets a word right when its keys come slowly (the control)", async () => {
    expect(await submitAfter(["h", "e", "l", "l", "o", "\r"], 150)).toBe("hello");
  });

  it.each([
    ["a word and Enter in one read", ["hello\r"], "hello"],
    ["one key per read, back to back", ["h", "e", "l", "l", "o", "\r"], "hello"],
    ["three Lefts and a letter", ["abc", "\x1b[D", "\x1b[D", "\x1b[D", "X", "\r"], "Xabc"],
  ])("loses keys: %s", async (_name, reads, typed) => {
    expect(await submitAfter(reads, 0)).not.toBe(typed);
  });
});
