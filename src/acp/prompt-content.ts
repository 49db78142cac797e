// An ACP prompt (content blocks) as a NanoHermes turn: text, embedded context (a file the editor
// sent, unsaved edits included) inlined in tags, links named, images written to files the turn
// attaches (the engine checks them as it checks --image files).
import { promises as fs } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { randomId } from "../protocol/ids.js";
import { PromptContentError } from "./errors.js";

export interface TurnInput {
  text: string;
  /** Image files written for this turn; removed once it ends. */
  images: string[];
}

const EXT: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};

const pathOf = (uri: string): string => {
  try {
    return uri.startsWith("file:") ? fileURLToPath(uri) : uri;
  } catch {
    return uri;
  }
};

/**
 * Contract: rejects with PromptContentError for content we did not offer (audio, binary
 * resources, unknown image types); writes images into `uploadDir` (mode 600).
 */
export async function turnInput(blocks: readonly ContentBlock[], uploadDir: string): Promise<TurnInput> {
  const parts: string[] = [];
  const images: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        parts.push(block.text);
        break;
      case "resource_link":
        parts.push(`@${pathOf(block.uri)}`);
        break;
      case "resource": {
        const r = block.resource;
        if (!("text" in r)) throw new PromptContentError(`binary embedded resources are not supported (${r.uri})`);
        parts.push(`<context path="${pathOf(r.uri)}">\n${r.text}\n</context>`);
        break;
      }
      case "image": {
        const ext = EXT[block.mimeType];
        if (!ext) throw new PromptContentError(`image type ${block.mimeType} is not supported (png, jpeg, gif, webp)`);
        await fs.mkdir(uploadDir, { recursive: true, mode: 0o700 });
        const file = join(uploadDir, `${randomId(12)}.${ext}`);
        await fs.writeFile(file, Buffer.from(block.data, "base64"), { mode: 0o600 });
        images.push(file);
        break;
      }
      case "audio":
        throw new PromptContentError("audio prompts are not supported");
      default:
        throw new PromptContentError(`unknown content type ${(block as { type: string }).type}`);
    }
  }
  return { text: parts.join("\n\n"), images };
}
