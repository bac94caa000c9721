// The AI SDK adapter's cost per tool call, side by side in one run (issue 3).
// - call: one `read` of a 20-line file through the adapter (schema validate hook: null → absent,
//   key check, signature.toInput, core validate; then execute and toModelOutput) vs the core tool
//   alone (the floor) vs a hand-written AI SDK tool (zod schema, raw readFile, decode, `N|text`
//   numbering: the peer a host would write without this package).
// - step: one whole generateText step (MockLanguageModelV4 calling read, then answering) with our
//   tool vs with the hand-written zod tool.
// - create: createAiSdkFsTools (strict-schema conversion of three tools) vs createFsTools-like core
//   creation (createReadTool + createEditTool + createWriteTool).
// Figures are medians over rounds after a warm-up; each round times the contenders back to back.
import { generateText, isStepCount, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { createEditTool, createReadTool, createWriteTool } from "../dist/index.js";
import { memoryFileSystem } from "../dist/backends/memory/index.js";
import { createAiSdkFsTools, createAiSdkReadTool } from "../dist/ai-sdk/index.js";
import { compare } from "./lib.mjs";

export const title = "AI SDK adapter: per-call and per-step overhead";

const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
const decoder = new TextDecoder();
const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function model(toolName) {
  let n = 0;
  return new MockLanguageModelV4({
    doGenerate: async () =>
      n++ % 2 === 0
        ? {
            content: [
              {
                type: "tool-call",
                toolCallId: `c${n}`,
                toolName,
                input: '{"path":"/w/a.txt","offset":null,"limit":null}',
              },
            ],
            finishReason: { unified: "tool-calls", raw: undefined },
            usage: USAGE,
            warnings: [],
          }
        : {
            content: [{ type: "text", text: "ok" }],
            finishReason: { unified: "stop", raw: undefined },
            usage: USAGE,
            warnings: [],
          },
  });
}

/** The peer: what a host writes by hand without this package. */
function handWrittenRead(fs) {
  return tool({
    description: "Read a file.",
    inputSchema: z.object({
      path: z.string().min(1),
      offset: z.number().int().min(1).nullable(),
      limit: z.number().int().min(1).nullable(),
    }),
    strict: true,
    execute: async ({ path, offset, limit }) => {
      const lines = decoder
        .decode(await fs.readFile(path))
        .replace(/\n$/, "")
        .split("\n");
      const start = (offset ?? 1) - 1;
      const shown = lines.slice(start, limit == null ? undefined : start + limit);
      return shown.map((line, index) => `${start + index + 1}|${line}`).join("\n");
    },
    toModelOutput: ({ output }) => ({ type: "content", value: [{ type: "text", text: output }] }),
  });
}

export async function run() {
  const text = Array.from({ length: 20 }, (_, i) => `line ${i + 1} of the file`).join("\n") + "\n";
  const fs = memoryFileSystem({ files: { "/w/a.txt": text } });
  const core = createReadTool({ fs, cwd: "/w" });
  const ours = createAiSdkReadTool({ fs, cwd: "/w" });
  const peer = handWrittenRead(fs);
  const options = { toolCallId: "c", messages: [], context: {} };
  const raw = { path: "/w/a.txt", offset: null, limit: null };

  const ourOutput = await ours.toModelOutput({
    output: await ours.execute((await ours.inputSchema.validate(raw)).value, options),
  });
  const peerOutput = await peer.toModelOutput({ output: await peer.execute(raw, options) });
  if (JSON.stringify(ourOutput) !== JSON.stringify(peerOutput)) throw new Error("ai-sdk bench: outputs differ");

  const zodSchema = peer.inputSchema;
  const call = await compare(
    {
      core: async () => core.execute(core.validate({ path: "/w/a.txt" })),
      adapter: async () => {
        const input = (await ours.inputSchema.validate(raw)).value;
        return ours.toModelOutput({ output: await ours.execute(input, options) });
      },
      peer: async () => {
        const input = await zodSchema.parseAsync(raw);
        return peer.toModelOutput({ output: await peer.execute(input, options) });
      },
    },
    { rounds: 15, iterations: 300, warmup: 3 },
  );

  const { tools } = createAiSdkFsTools({ fs, cwd: "/w" });
  const step = await compare(
    {
      adapter: () =>
        generateText({ model: model("read"), tools: { read: tools.read }, prompt: "x", stopWhen: isStepCount(3) }),
      peer: () => generateText({ model: model("read"), tools: { read: peer }, prompt: "x", stopWhen: isStepCount(3) }),
    },
    { rounds: 11, iterations: 40, warmup: 2 },
  );

  const create = await compare(
    {
      adapter: () => createAiSdkFsTools({ fs, cwd: "/w" }),
      core: () => [
        createReadTool({ fs, cwd: "/w" }),
        createEditTool({ fs, cwd: "/w" }),
        createWriteTool({ fs, cwd: "/w" }),
      ],
      peer: () => [handWrittenRead(fs), handWrittenRead(fs), handWrittenRead(fs)],
    },
    { rounds: 15, iterations: 200, warmup: 3 },
  );

  return `
A \`read\` of a 20-line file on the memory backend. "Adapter" is \`createAiSdkReadTool\`: its
schema's validate hook (null → absent, key check, \`signature.toInput\`, core \`validate\`), the core
tool, then \`toModelOutput\`. "Peer" is the AI SDK tool a host would write by hand (zod schema,
raw \`readFile\`, \`N|text\` numbering, same model output). "Core" is the core tool alone.

| per call | time | vs core | vs peer |
| --- | --: | --: | --: |
| core \`read\` (floor) | ${us(call.core)} | 1.00× | ${ratio(call.core, call.peer)} |
| adapter | ${us(call.adapter)} | ${ratio(call.adapter, call.core)} | ${ratio(call.adapter, call.peer)} |
| hand-written zod tool (peer) | ${us(call.peer)} | ${ratio(call.peer, call.core)} | 1.00× |

| one generateText round trip (tool call + answer, MockLanguageModelV4) | time | vs peer |
| --- | --: | --: |
| adapter | ${us(step.adapter)} | ${ratio(step.adapter, step.peer)} |
| hand-written zod tool (peer) | ${us(step.peer)} | 1.00× |

| creation | time | vs core |
| --- | --: | --: |
| core read + edit + write | ${us(create.core)} | 1.00× |
| createAiSdkFsTools (strict schemas for three tools) | ${us(create.adapter)} | ${ratio(create.adapter, create.core)} |
| three hand-written zod tools (peer) | ${us(create.peer)} | ${ratio(create.peer, create.core)} |
`;
}
