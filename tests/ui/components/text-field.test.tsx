// The one-line field (ink-text-input) with its keys routed by the controller, as dialogs use it:
// typed text, a paste, cursor moves, Backspace and Enter reach it through the real key parser,
// in bursts (one terminal read) as well as one by one; Ctrl and Alt chords and Delete do not
// (ink-text-input would insert their letter, or delete backwards).
import { Box, Text } from "ink";
import { useRef, useState } from "react";
import { describe, expect, it } from "vitest";
import { TextField } from "../../../src/ui/components/TextField.js";
import { editorText } from "../../../src/ui/input/editor.js";
import { FieldRouter, fieldSequence } from "../../../src/ui/input/field-router.js";
import type { InputEvent, Key } from "../../../src/ui/input/keys.js";
import { mountPane } from "./mount.js";

/**
 * A field that takes every key the controller would route to it while `open`, and shows what it
 * submitted. Its value comes back late, as the store's does: kept at once, told once a frame.
 */
function Probe({ width, closeOnEnter = false }: { width: number; closeOnEnter?: boolean }) {
  const [value, setValue] = useState("");
  const [sent, setSent] = useState<string[]>([]);
  const [open, setOpen] = useState(true);
  const latest = useRef("");
  const later = (v: string) => {
    latest.current = v;
    setTimeout(() => setValue(latest.current), 20);
  };
  const submit = (v: string) => {
    setSent((s) => [...s, v]);
    if (closeOnEnter) {
      state.open = false;
      setOpen(false);
    }
  };
  return (
    <Box flexDirection="column">
      {open && <TextField value={value} onChange={later} onSubmit={submit} width={width} />}
      <Text>sent: {sent.join("|")}</Text>
    </Box>
  );
}

const state = { open: true };

function mountField(width: number, closeOnEnter = false) {
  state.open = true;
  const m = mountPane(<Probe width={width} closeOnEnter={closeOnEnter} />, width, 10);
  // The controller hands an open dialog's keys to its field; here every key goes there while open.
  const handle = m.ctl.handle.bind(m.ctl);
  m.ctl.handle = (event: InputEvent) => {
    if (!(state.open && m.ctl.fields.route(event))) handle(event);
  };
  return m;
}

const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "").replace(/▏/g, "");

/** Gives every value back, the older ones last: 40 ms, then 30, 20, 10 after each change. */
function Echo() {
  const [value, setValue] = useState("");
  const [sent, setSent] = useState("");
  let delay = 40;
  const echo = (v: string) => {
    setTimeout(() => setValue(v), delay);
    delay = Math.max(0, delay - 10);
  };
  return (
    <Box flexDirection="column">
      <TextField value={value} onChange={echo} onSubmit={setSent} width={40} />
      <Text>sent: {sent}</Text>
    </Box>
  );
}

describe("TextField", () => {
  for (const width of [40, 80, 120]) {
    it(`edits and submits one line at ${width} columns, keys one by one and in one read`, async () => {
      const m = mountField(width);
      await m.frame();
      m.app.stdin.write("hello wrld");
      m.app.stdin.write("\x1b[D\x1b[D\x1b[D");
      m.app.stdin.write("o");
      expect(strip(await m.frame())).toContain("hello world");
      // One read: two Backspaces take "wo" (the cursor stood after it), "ld!" goes in there.
      m.app.stdin.write("\x7f\x7fld!\r");
      expect(strip(await m.frame())).toMatch(/sent: hello ld!rld\s*$/);
      m.app.unmount();
    });
  }

  it("keeps its text when the owner gives back an older value late (an echo, not a change)", async () => {
    const m = mountPane(<Echo />, 40, 6);
    const handle = m.ctl.handle.bind(m.ctl);
    m.ctl.handle = (event: InputEvent) => {
      if (!m.ctl.fields.route(event)) handle(event);
    };
    await m.frame();
    for (const k of ["abc", "\x1b[D", "X", "\x7f", "Y", "Z"]) {
      m.app.stdin.write(k);
      await new Promise((r) => setTimeout(r, 5));
    }
    await new Promise((r) => setTimeout(r, 80));
    m.app.stdin.write("\r");
    expect(strip(await m.frame())).toMatch(/sent: abYZc\s*$/);
    m.app.unmount();
  });

  it("takes a paste as one line", async () => {
    const m = mountField(40);
    await m.frame();
    m.app.stdin.write("\x1b[200~one\ntwo\x1b[201~\r");
    expect(strip(await m.frame())).toMatch(/sent: one two\s*$/);
    m.app.unmount();
  });

  it("leaves Ctrl and Alt chords, Delete and Esc to the dialog", async () => {
    for (const k of [key("a", { ctrl: true }), key("b", { alt: true }), key("delete"), key("escape"), key("up")])
      expect(fieldSequence({ kind: "key", key: k })).toBeNull();
    const m = mountField(40);
    await m.frame();
    m.app.stdin.write("ab\x01\x1bx\x1b[3~\r");
    // Neither ^A's "a" nor Alt-x's "x" went in, and Delete did not act as Backspace.
    expect(strip(await m.frame())).toMatch(/sent: ab\s*$/);
    m.app.unmount();
  });

  it("gives keys typed after the Enter that closed the field to what has the focus next", async () => {
    const m = mountField(40, true);
    await m.frame();
    m.app.stdin.write("name\rnext");
    expect(strip(await m.frame())).toMatch(/sent: name\s*$/);
    expect(editorText(m.store.getState().ui.composer)).toBe("next");
    m.app.unmount();
  });

  it("keeps keys typed before the field mounted, joins typed text, and sends what followed Enter back", async () => {
    const again: InputEvent[] = [];
    const router = new FieldRouter((e) => again.push(e));
    const got: string[] = [];
    router.route({ kind: "key", key: key("a", { text: "a" }) });
    router.route({ kind: "paste", text: "b\nc" });
    router.route({ kind: "key", key: key("enter") });
    router.route({ kind: "key", key: key("z", { text: "z" }) });
    router.attach((s) => got.push(s));
    await Promise.resolve();
    // Typed and pasted text goes in as one insertion (one render, not one per character).
    expect(got).toEqual(["ab c", "\r"]);
    expect(again).toEqual([{ kind: "key", key: key("z", { text: "z" }) }]);
  });

  it("gives a long burst in turns, in order, Backspaces and arrows one at a time", async () => {
    const router = new FieldRouter(() => {});
    const got: string[] = [];
    router.attach((s) => got.push(s));
    for (let i = 0; i < 40; i++) router.route({ kind: "key", key: key("backspace") });
    router.route({ kind: "key", key: key("x", { text: "x" }) });
    router.route({ kind: "key", key: key("y", { text: "y" }) });
    await Promise.resolve();
    // At most 16 keys a turn: React stops a chain of 50 renders with no pause between them.
    expect(got).toHaveLength(16);
    for (let i = 0; i < 5 && got.length < 41; i++) await new Promise((r) => setImmediate(r));
    expect(got).toEqual([...Array.from({ length: 40 }, () => "\b"), "xy"]);
  });

  it("forgets keys for a field that never mounted", async () => {
    const router = new FieldRouter(() => {});
    const got: string[] = [];
    router.route({ kind: "key", key: key("x", { text: "x" }) });
    router.drop();
    router.attach((s) => got.push(s));
    await Promise.resolve();
    expect(got).toEqual([]);
  });
});

function key(name: string, over: Partial<Key> = {}): Key {
  return { name, ctrl: false, alt: false, shift: false, sequence: "", ...over };
}
