import { describe, expect, it } from "vitest";
import { DEFAULT_SECRET_ENV_PATTERNS, shellEnv } from "../../src/shell/shell-env.js";

describe("shellEnv", () => {
  it("reads the source on every call, drops undefined values and secrets by default", () => {
    const source: Record<string, string | undefined> = {
      PATH: "/bin",
      HOME: "/home/me",
      OPENAI_API_KEY: "sk",
      GH_TOKEN: "t",
      db_password: "p",
      GONE: undefined,
    };
    const env = shellEnv(() => source);
    expect(env()).toEqual({ PATH: "/bin", HOME: "/home/me" });
    source.LANG = "C.UTF-8";
    expect(env()).toEqual({ PATH: "/bin", HOME: "/home/me", LANG: "C.UTF-8" });
    expect(Object.isFrozen(env())).toBe(true);
    expect(DEFAULT_SECRET_ENV_PATTERNS.length).toBe(10);
  });

  it("include keeps only matching names; exclude [] keeps secrets; set overrides", () => {
    const source = { PATH: "/bin", LC_ALL: "C", LC_TIME: "C", API_KEY: "k", TERM: "xterm" };
    expect(shellEnv(() => source, { include: ["PATH", "LC_*", "API_KEY"] })()).toEqual({
      PATH: "/bin",
      LC_ALL: "C",
      LC_TIME: "C",
    });
    expect(shellEnv(() => source, { include: ["API_KEY"], exclude: [] })()).toEqual({ API_KEY: "k" });
    expect(shellEnv(() => source, { include: ["PATH"], set: { PATH: "/usr/bin", CI: "1" } })()).toEqual({
      PATH: "/usr/bin",
      CI: "1",
    });
  });

  it("throws TypeError for bad arguments", () => {
    expect(() => shellEnv({} as never)).toThrow(
      new TypeError("shellEnv needs a function returning the environment, e.g. () => process.env"),
    );
    expect(() => shellEnv(() => ({}), { include: "PATH" } as never)).toThrow(
      new TypeError("shellEnv include must be an array of non-empty name patterns"),
    );
    expect(() => shellEnv(() => ({}), { set: { A: 1 } } as never)).toThrow(
      new TypeError("shellEnv set must be an object of string values"),
    );
    expect(() => shellEnv(() => ({}), { allow: [] } as never)).toThrow(
      new TypeError('shellEnv got an unknown option "allow". Known options: include, exclude, set'),
    );
  });
});
