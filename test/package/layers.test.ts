/**
 * The layers of design.md, enforced: every import in src/ (static, dynamic, `export ... from`,
 * type-only included) must run downward.
 *
 * ```
 * contract ← backends            (each backend: contract and its own folder only)
 * contract ← gate ← tools ← adapters
 * ```
 *
 * - contract imports only contract.
 * - backends/<name> imports contract and its own folder; a backend never imports another one,
 *   except idb → memory (the idb backend persists a memory backend), and opfs-mirror → memory and
 *   opfs-mirror → opfs (its working set, its root and error mapping): those pairs are allowed.
 * - gate imports only contract; tools import contract and gate.
 * - conformance (the published backend suite) imports only contract.
 * - node-fs (the `node:fs` face over any backend) imports only contract; the adapters may import
 *   it (the shell's `git` runs isomorphic-git over it).
 * - adapters (ai-sdk, sandbox, shell, agent, mcp) import anything below them: contract, backends,
 *   gate, tools.
 * - Adapters and each other. Decision: **shell is the bottom adapter**, the just-bash bridge that
 *   supplies the default runner (src/shell/defaults.ts gives `createBashTool`/`createFsTools`
 *   just-bash when no runner is passed). Every other adapter may import shell, as ai-sdk does for
 *   its bash tool; shell imports no other adapter, and the other adapters do not import each
 *   other (an AI SDK tool set does not need a sandbox session, nor the reverse). The tools layer
 *   still imports no shell code: the bash tool takes a runner. One exception: agent imports
 *   ai-sdk (the workspace agent is a ToolLoopAgent over the AI SDK tool set); nothing imports agent.
 * - The root entry (src/index.ts) gathers contract, gate, tools and shell (for the defaults);
 *   it imports no backend and no other adapter. Subpath entries (`src/<layer>/index.ts`)
 *   follow the rule of their layer.
 *
 * Package imports (`memfs`, `ai`, `node:fs`...) are not layer edges and are not checked here
 * (test/package/package.test.ts checks which subpaths may reach which packages).
 */
import { posix } from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, readSource, sourceFiles } from "./source-modules.js";
import { REPOSITORY_ROOT } from "./stage.js";

/** The layer a source file belongs to: `contract`, `gate`, `tools`, `backends/memory`, `shell`, `root`... */
export function layerOf(file: string): string {
  const parts = file.split("/");
  if (parts[0] !== "src") throw new TypeError(`not a source file: ${file}`);
  if (parts.length === 2) return "root";
  if (parts[1] === "backends") return `backends/${parts[2]}`;
  return parts[1]!;
}

const ADAPTERS = ["ai-sdk", "sandbox", "shell", "agent", "mcp"] as const;
const BELOW_ADAPTERS = ["contract", "gate", "tools"] as const;

/** Pairs of backends where one may import the other, each with its reason. */
const BACKEND_PAIRS: Readonly<Record<string, string>> = {
  "backends/idb → backends/memory": "the idb backend persists a memory backend",
  "backends/opfs-mirror → backends/memory": "the mirrored OPFS backend holds its working set in a memory backend",
  "backends/opfs-mirror → backends/opfs":
    "the mirrored OPFS backend reaches its root and maps DOMExceptions as the OPFS backend does",
  "backends/redis → backends/unstorage": "the Redis backend is the unstorage backend on unstorage's redis driver",
};

/** Whether a file in layer `from` may import a file in layer `to`. */
export function mayImport(from: string, to: string): boolean {
  if (from === to) return true;
  const toBackend = to.startsWith("backends/");
  if (from.startsWith("backends/")) return to === "contract" || `${from} → ${to}` in BACKEND_PAIRS;
  switch (from) {
    case "contract":
      return false;
    case "gate":
    case "conformance":
    case "node-fs":
      return to === "contract";
    case "tools":
      return to === "contract" || to === "gate";
    case "root":
      return (BELOW_ADAPTERS as readonly string[]).includes(to) || to === "shell";
    case "shell":
      return (BELOW_ADAPTERS as readonly string[]).includes(to) || toBackend || to === "node-fs";
  }
  // The agent is built on the AI SDK tool set: the one adapter that stands on another.
  if (from === "agent" && to === "ai-sdk") return true;
  if ((ADAPTERS as readonly string[]).includes(from)) {
    return (BELOW_ADAPTERS as readonly string[]).includes(to) || toBackend || to === "shell" || to === "node-fs";
  }
  throw new TypeError(`no layer rule for ${from} (add it to this test and to design.md)`);
}

/** One import that runs against the layers. */
export interface LayerViolation {
  readonly file: string;
  readonly specifier: string;
  /** The imported file, relative to the repository. */
  readonly target: string;
  /** `from → to`. */
  readonly layers: string;
}

/**
 * The imports in `modules` that break the layer rule. Relative specifiers are resolved against
 * their file (`.js` → `.ts`); one that leaves src/ is a violation too.
 */
export function layerViolations(modules: readonly { file: string; code: string }[]): LayerViolation[] {
  const violations: LayerViolation[] = [];
  for (const { file, code } of modules) {
    const from = layerOf(file);
    for (const { specifier } of importsOf(code, file)) {
      if (!specifier.startsWith(".")) continue;
      const target = posix.join(posix.dirname(file), specifier).replace(/\.js$/, ".ts");
      const to = target.startsWith("src/") ? layerOf(target) : "outside src";
      if (to === "outside src" || !mayImport(from, to)) {
        violations.push({ file, specifier, target, layers: `${from} → ${to}` });
      }
    }
  }
  return violations;
}

describe("layers", () => {
  it("no import in src/ runs upward", async () => {
    const files = await sourceFiles(REPOSITORY_ROOT, "src");
    const modules = await Promise.all(
      files.map(async (file) => ({ file, code: await readSource(REPOSITORY_ROOT, file) })),
    );
    // Not vacuous: every layer has files, and the walk saw their imports.
    expect(new Set(files.map(layerOf))).toEqual(
      new Set([
        "root",
        "contract",
        "backends/idb",
        "backends/memory",
        "backends/node",
        "backends/opfs",
        "backends/opfs-mirror",
        "backends/redis",
        "backends/unstorage",
        "gate",
        "tools",
        "conformance",
        "node-fs",
        "shell",
        "ai-sdk",
        "sandbox",
        "agent",
        "mcp",
      ]),
    );
    expect(layerViolations(modules)).toEqual([]);
  });

  it("the allowed cross-layer pairs are in use (a rule nothing needs would be dead weight)", async () => {
    const files = await sourceFiles(REPOSITORY_ROOT, "src");
    const pairs = new Set<string>();
    for (const file of files) {
      for (const { specifier } of importsOf(await readSource(REPOSITORY_ROOT, file), file)) {
        if (!specifier.startsWith(".")) continue;
        const target = posix.join(posix.dirname(file), specifier);
        if (target.startsWith("src/")) pairs.add(`${layerOf(file)} → ${layerOf(target)}`);
      }
    }
    expect(
      [
        "backends/idb → backends/memory",
        "backends/redis → backends/unstorage",
        "ai-sdk → shell",
        "root → shell",
        "agent → ai-sdk",
        "shell → node-fs",
      ].filter((pair) => !pairs.has(pair)),
    ).toEqual([]);
  });

  it("catches an upward import of every kind: static, type-only, re-export, dynamic, import type", () => {
    const code = [
      'import { createReadTool } from "../tools/read/index.js";',
      'import type { Gate } from "../gate/gate.js";',
      'export { toJustBashFs } from "../shell/to-just-bash-fs.js";',
      'export * from "../ai-sdk/index.js";',
      'const late = () => import("../backends/memory/index.js");',
      'type Runner = typeof import("../shell/index.js");',
      'import { FsError } from "../contract/errors.js";',
      'import { parentPath } from "./path.js";',
      'import picomatch from "picomatch";',
    ].join("\n");
    expect(layerViolations([{ file: "src/contract/synthetic.ts", code }])).toEqual([
      {
        file: "src/contract/synthetic.ts",
        specifier: "../tools/read/index.js",
        target: "src/tools/read/index.ts",
        layers: "contract → tools",
      },
      {
        file: "src/contract/synthetic.ts",
        specifier: "../gate/gate.js",
        target: "src/gate/gate.ts",
        layers: "contract → gate",
      },
      {
        file: "src/contract/synthetic.ts",
        specifier: "../shell/to-just-bash-fs.js",
        target: "src/shell/to-just-bash-fs.ts",
        layers: "contract → shell",
      },
      {
        file: "src/contract/synthetic.ts",
        specifier: "../ai-sdk/index.js",
        target: "src/ai-sdk/index.ts",
        layers: "contract → ai-sdk",
      },
      {
        file: "src/contract/synthetic.ts",
        specifier: "../backends/memory/index.js",
        target: "src/backends/memory/index.ts",
        layers: "contract → backends/memory",
      },
      {
        file: "src/contract/synthetic.ts",
        specifier: "../shell/index.js",
        target: "src/shell/index.ts",
        layers: "contract → shell",
      },
    ]);
  });

  it("applies the rule per layer: backends, gate, tools, conformance, adapters, root", () => {
    const edge = (file: string, specifier: string) =>
      layerViolations([{ file, code: `import "${specifier}";` }]).map((violation) => violation.layers);
    expect({
      opfsToMemory: edge("src/backends/opfs/core.ts", "../memory/index.js"),
      idbToMemory: edge("src/backends/idb/index.ts", "../memory/index.js"),
      memoryToIdb: edge("src/backends/memory/index.ts", "../idb/index.js"),
      backendToGate: edge("src/backends/node/file-system.ts", "../../gate/gate.js"),
      gateToTools: edge("src/gate/hash-files.ts", "../tools/kit/walk.js"),
      toolsToGate: edge("src/tools/read/index.ts", "../../gate/gate.js"),
      toolsToShell: edge("src/tools/bash/index.ts", "../../shell/defaults.js"),
      toolsToBackend: edge("src/tools/read/index.ts", "../../backends/memory/index.js"),
      conformanceToBackend: edge("src/conformance/index.ts", "../backends/memory/index.js"),
      aiSdkToShell: edge("src/ai-sdk/single-tools.ts", "../shell/defaults.js"),
      aiSdkToSandbox: edge("src/ai-sdk/tool.ts", "../sandbox/index.js"),
      shellToAiSdk: edge("src/shell/defaults.ts", "../ai-sdk/index.js"),
      agentToAiSdk: edge("src/agent/agent.ts", "../ai-sdk/bundle.js"),
      aiSdkToAgent: edge("src/ai-sdk/tool.ts", "../agent/index.js"),
      sandboxToAgent: edge("src/sandbox/x.ts", "../agent/index.js"),
      sandboxToMemory: edge("src/sandbox/x.ts", "../backends/memory/index.js"),
      rootToShell: edge("src/index.ts", "./shell/defaults.js"),
      rootToBackend: edge("src/index.ts", "./backends/node/index.js"),
      outsideSrc: edge("src/tools/read/index.ts", "../../../test/helper.js"),
      nodeFsToContract: edge("src/node-fs/run.ts", "../contract/errors.js"),
      nodeFsToGate: edge("src/node-fs/run.ts", "../gate/gate.js"),
      nodeFsToMemory: edge("src/node-fs/run.ts", "../backends/memory/index.js"),
      nodeFsToShell: edge("src/node-fs/run.ts", "../shell/index.js"),
      shellToNodeFs: edge("src/shell/git/git.ts", "../../node-fs/create-node-fs.js"),
      toolsToNodeFs: edge("src/tools/read/index.ts", "../../node-fs/index.js"),
      rootToNodeFs: edge("src/index.ts", "./node-fs/index.js"),
    }).toEqual({
      opfsToMemory: ["backends/opfs → backends/memory"],
      idbToMemory: [],
      memoryToIdb: ["backends/memory → backends/idb"],
      backendToGate: ["backends/node → gate"],
      gateToTools: ["gate → tools"],
      toolsToGate: [],
      toolsToShell: ["tools → shell"],
      toolsToBackend: ["tools → backends/memory"],
      conformanceToBackend: ["conformance → backends/memory"],
      aiSdkToShell: [],
      aiSdkToSandbox: ["ai-sdk → sandbox"],
      shellToAiSdk: ["shell → ai-sdk"],
      agentToAiSdk: [],
      aiSdkToAgent: ["ai-sdk → agent"],
      sandboxToAgent: ["sandbox → agent"],
      sandboxToMemory: [],
      rootToShell: [],
      rootToBackend: ["root → backends/node"],
      outsideSrc: ["tools → outside src"],
      nodeFsToContract: [],
      nodeFsToGate: ["node-fs → gate"],
      nodeFsToMemory: ["node-fs → backends/memory"],
      nodeFsToShell: ["node-fs → shell"],
      shellToNodeFs: [],
      toolsToNodeFs: ["tools → node-fs"],
      rootToNodeFs: ["root → node-fs"],
    });
  });
});
