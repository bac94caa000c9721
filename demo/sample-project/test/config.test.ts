import { describe, expect, it } from "vitest";
import { DEFAULT_PORT, loadConfig } from "../src/config.js";

describe("loadConfig", () => {
  it("defaults the port", () => {
    expect(loadConfig({}).port).toBe(DEFAULT_PORT);
  });
  it("refuses a bad port", () => {
    expect(() => loadConfig({ PORT: "http" })).toThrow("PORT must be a positive integer, got http");
  });
});
