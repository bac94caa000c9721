import { describe, expect, it } from "vitest";
import { TOOL_SETTING_KEYS } from "../../../src/tools/kit/setting-keys.js";
import { TOOL_SETTINGS_KEYS } from "../../../src/tools/kit/tool-keys.js";

describe("TOOL_SETTINGS_KEYS", () => {
  it("names every tool that has setting keys, in the same order, and no other", () => {
    expect(TOOL_SETTINGS_KEYS).toEqual(["read", "write", "edit", "list", "glob", "grep", "applyPatch", "bash"]);
    expect(Object.keys(TOOL_SETTING_KEYS)).toEqual([...TOOL_SETTINGS_KEYS]);
  });
});
