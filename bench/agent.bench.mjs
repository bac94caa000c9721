// The workspace agent's own cost, side by side in one run (issue 15).
// - step: one whole run of three steps (read, read, answer; MockLanguageModelV4) through
//   createWorkspaceAgent vs a bare ToolLoopAgent given the same tools (agent.tools) and the same
//   stop condition: the agent adds the memory file read through the gate (AGENTS.md present,
//   200 bytes), the system prompt, prepareStep, and the (empty) checks. A third contender adds a
//   run cache with inputGlobs over 50 files, every run a miss (unique prompt): key before and
//   after the run, hashFiles twice, one store.
// - cache: a hit (same prompt again: 0 model calls) vs a miss (a new prompt each time) on the
//   same agent with a memoryRunCache and inputGlobs over 50 files.
// Figures are medians over rounds after a warm-up; each round times the contenders back to back.
import { isStepCount, ToolLoopAgent } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { memoryFileSystem } from "../dist/backends/memory/index.js";
import { createWorkspaceAgent, memoryRunCache } from "../dist/agent/index.js";
import { compare } from "./lib.mjs";

export const title = "Workspace agent: per-step overhead and cache hits";

const us = (ms) => `${(ms * 1000).toFixed(1)} µs`;
const ratio = (value) => `${value.toFixed(2)}×`;
const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const STEPS = 3;

/** read, read, answer: then again from the start (calls counted, the call log cleared). */
function model() {
  let n = 0;
  const mock = new MockLanguageModelV4({
    doGenerate: async () => {
      const step = n++ % STEPS;
      if (mock.doGenerateCalls.length > 64) mock.doGenerateCalls.length = 0;
      return step < STEPS - 1
        ? {
            content: [
              {
                type: "tool-call",
                toolCallId: `c${n}`,
                toolName: "read",
                input: `{"path":"src/f${step}.ts","offset":null,"limit":null}`,
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
          };
    },
  });
  mock.calls = () => n;
  return mock;
}

export async function run() {
  const files = { "/w/AGENTS.md": "# Notes\n" + "Keep answers short. ".repeat(9) + "\n" };
  for (let i = 0; i < 50; i++) files[`/w/src/f${i}.ts`] = `export const value${i} = ${i};\n`.repeat(20);
  const fs = memoryFileSystem({ files });
  const instructions = "You answer questions about the code.";

  const agentModel = model();
  const agent = createWorkspaceAgent({ model: agentModel, fs, cwd: "/w", instructions, readOnly: true });
  const bareModel = model();
  const bare = new ToolLoopAgent({
    model: bareModel,
    instructions,
    tools: agent.tools,
    stopWhen: isStepCount(41),
  });
  const cachedModel = model();
  const cached = createWorkspaceAgent({
    model: cachedModel,
    fs,
    cwd: "/w",
    instructions,
    readOnly: true,
    cache: memoryRunCache(),
    inputGlobs: ["src/**"],
  });
  let unique = 0;
  const ours = await agent.generate({ prompt: "x" });
  const theirs = await bare.generate({ prompt: "x" });
  if (ours.text !== theirs.text || ours.modelCalls !== STEPS || theirs.steps.length !== STEPS) {
    throw new Error("agent bench: the runs differ");
  }

  const step = await compare(
    {
      bare: () => bare.generate({ prompt: "x" }),
      agent: () => agent.generate({ prompt: "x" }),
      missing: () => cached.generate({ prompt: `x${unique++}` }),
    },
    { rounds: 21, iterations: 20, warmup: 2 },
  );

  // Cache: the same agent, a hit (prompt seen) vs a miss (a new prompt).
  const hitModel = model();
  const hitAgent = createWorkspaceAgent({
    model: hitModel,
    fs,
    cwd: "/w",
    instructions,
    readOnly: true,
    cache: memoryRunCache(),
    inputGlobs: ["src/**"],
  });
  await hitAgent.generate({ prompt: "seen" });
  const before = hitModel.calls();
  const hitResult = await hitAgent.generate({ prompt: "seen" });
  const hitCalls = hitModel.calls() - before;
  const missResult = await hitAgent.generate({ prompt: "unseen" });
  if (!hitResult.cached || hitCalls !== 0 || missResult.cached || missResult.modelCalls !== STEPS) {
    throw new Error("agent bench: the cache did not hit/miss as expected");
  }
  let fresh = 0;
  const cache = await compare(
    {
      hit: () => hitAgent.generate({ prompt: "seen" }),
      miss: () => hitAgent.generate({ prompt: `new ${fresh++}` }),
    },
    { rounds: 21, iterations: 20, warmup: 2 },
  );

  return `
A read-only agent over the memory backend (50 files of 20 lines in \`src/\`, a 200-byte
\`AGENTS.md\`), driven by MockLanguageModelV4: each run is ${STEPS} steps (read, read, answer).
"Bare" is a \`ToolLoopAgent\` given the same tools (\`agent.tools\`), the same instructions
and a step limit; "agent" is \`createWorkspaceAgent\`, which also reads \`AGENTS.md\` through the
gate, builds the system prompt, bounds the rounds (\`prepareStep\`) and runs its (empty) checks.

| one run of ${STEPS} steps | time per run | per step | vs bare |
| --- | --: | --: | --: |
| bare \`ToolLoopAgent\` | ${us(step.bare)} | ${us(step.bare / STEPS)} | 1.00× |
| \`createWorkspaceAgent\` | ${us(step.agent)} | ${us(step.agent / STEPS)} | ${ratio(step.ratio("agent", "bare"))} |
| \`createWorkspaceAgent\` + cache, a miss (key before and after: \`hashFiles\` of 50 files twice, one store) | ${us(step.missing)} | ${us(step.missing / STEPS)} | ${ratio(step.ratio("missing", "bare"))} |

| the same agent with \`memoryRunCache()\` and \`inputGlobs: ["src/**"]\` | model calls | time per run | vs miss |
| --- | --: | --: | --: |
| miss (a new prompt) | ${missResult.modelCalls} | ${us(cache.miss)} | 1.00× |
| hit (the prompt again, files unchanged) | ${hitCalls} | ${us(cache.hit)} | ${ratio(cache.ratio("hit", "miss"))} |

A hit still reads \`AGENTS.md\`, hashes the 50 input files and checks the expected outputs: it
is the price of knowing the files did not change. With a real model the miss costs seconds
and tokens; the hit costs what the table shows.
`;
}
