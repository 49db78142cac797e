// The bottom line: the latest status message, or the keys that matter right now.
import { Text } from "ink";
import { useApp, useStore } from "../hooks/useStore.js";
import { padToWidth, truncateToWidth } from "../render/wrap.js";

export function StatusLine({ width }: { width: number }) {
  const { palette: p } = useApp();
  const status = useStore((s) => s.ui.status);
  const focus = useStore((s) => s.ui.focus);
  const running = useStore((s) => (s.current ? Boolean(s.transcripts[s.current]?.running) : false));
  const approval = useStore((s) => (s.current ? (s.transcripts[s.current]?.blocks.some((b) => b.kind === "approval" && b.resolved === null) ?? false) : false));
  let text: string;
  if (status && status.until > Date.now()) {
    const paint = status.level === "error" ? p.error : status.level === "warn" ? p.warning : p.info;
    text = paint(status.text);
  } else if (focus === "browse") text = p.dim("↑↓ blocks · Enter expand · y copy · c code · / search · n/N · p r t e a jump · Esc back");
  else if (focus === "tasks") text = p.dim("↑↓ move · Enter open · r rename · p pin · x delete · / filter · m export · Esc back");
  else if (focus === "results") text = p.dim("←→ tabs · ↑↓ move · Enter diff · [ ] hunks · Esc back");
  else if (approval) text = p.statusWaiting("approval needed: y once · a always · n deny · d deny with note · Enter full diff");
  else if (running) text = p.dim("Esc/Ctrl-C stop · Enter steer · Tab queue · PgUp scroll · Ctrl-K palette");
  else text = p.dim("Enter send · Ctrl-J newline · / commands · @ files · ? keys · Ctrl-K palette · Ctrl-T tasks · Ctrl-R results");
  return <Text wrap="truncate-end">{padToWidth(truncateToWidth(text, width), width)}</Text>;
}
