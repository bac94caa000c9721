import { describe, expect, it } from "vitest";
import { validateNewTodo, validatePatch } from "../src/lib/validate.js";

describe("validateNewTodo", () => {
  it("trims the title", () => {
    expect(validateNewTodo({ title: "  Buy milk " })).toEqual({ title: "Buy milk" });
  });
  it("refuses a missing title", () => {
    expect(() => validateNewTodo({})).toThrow("title is required");
  });
});

describe("validatePatch", () => {
  it("keeps only known fields", () => {
    expect(validatePatch({ done: true, extra: 1 })).toEqual({ done: true });
  });
  it("refuses a non-boolean done", () => {
    expect(() => validatePatch({ done: "yes" })).toThrow("done must be a boolean");
  });
});
