import { describe, expect, test } from "vitest";
import { createAiSdkBashTool } from "../../src/ai-sdk/index.js";
import { OptionError } from "../../src/contract/options.js";

describe("single AI SDK factories refuse misuse at creation, naming the option", () => {
  test("createAiSdkBashTool with neither a runner nor an fs", () => {
    let thrown: unknown;
    try {
      createAiSdkBashTool({ env: {} });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toEqual(
      new TypeError(
        "createAiSdkBashTool runner must be given when fs is not: pass a runner (justBashCommandRunner from better-fs-tools/shell, nodeCommandRunner from better-fs-tools/node) or an fs for the default just-bash to run over",
      ),
    );
    expect(OptionError.isInstance(thrown) && [thrown.factory, thrown.option]).toEqual([
      "createAiSdkBashTool",
      "runner",
    ]);
  });
});
