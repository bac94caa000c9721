/**
 * grep's linear-time engine: RE2's JavaScript port (`re2js`), for the patterns the JavaScript
 * engine could backtrack on for a long time (the shapes `patternRisk` finds: `(a+)+`, `(a|aa)+`,
 * `a*a*`, `a.*b.*c.*d`, `a.*b.*c`). RE2 runs every pattern in time linear in the line's length,
 * whatever its shape, so such a pattern runs instead of being refused. It is loaded by a dynamic
 * `import()` the first time such a pattern runs, so a bundle pays for it only then (a lazy chunk).
 *
 * The JavaScript engine stays the default: it is 10 to 100 times faster on ordinary patterns
 * (`function\s+\w+\(` over 2,000 lines: 0.2 ms against 75 ms, Node 22), and it alone knows
 * lookarounds (`(?<!x)`, `(?=x)`) and backreferences (`\1`, `\k<name>`), which no linear-time
 * engine can run. A risky pattern with one of those is still refused (see {@link backtrackingFeature}).
 *
 * RE2 reads a pattern as JavaScript does, with these differences on a line of text: `\s` is
 * `[\t\n\f\r ]` (JavaScript adds `\v`, U+00A0 and the other Unicode spaces), and `.` matches
 * U+2028 and U+2029.
 *
 * @module
 */
import { hasLookaround } from "./line-matcher.js";

/** A pattern compiled by the linear-time engine. */
export interface LinearFind {
  /** Where a line (no line break in it) matches, or -1. */
  readonly find: (line: string) => number;
  /**
   * Whether the pattern matches anywhere in a whole text read with `^` and `$` at every `"\n"`:
   * false means no line of a text without `"\r"` matches (one pass of RE2's DFA, about 4 times
   * cheaper than testing each line).
   */
  readonly anywhere: (text: string) => boolean;
}

/** The linear-time engine, once loaded; see {@link loadLinearEngine}. */
export interface LinearEngine {
  /**
   * Compile a JavaScript regular expression's source for the linear-time engine.
   *
   * @param source - the source (no slashes, no flags), as grep runs it.
   * @param ignoreCase - match letters case-insensitively.
   * @returns the compiled pattern, or the engine's syntax error message when it cannot read the pattern.
   */
  compile(source: string, ignoreCase: boolean): LinearFind | string;
}

type Re2Module = typeof import("re2js");

let loading: Promise<LinearEngine> | undefined;

/**
 * Load the linear-time engine (`re2js`, by dynamic `import()`), once per page or process.
 *
 * @returns the engine.
 * @throws whatever the dynamic import throws when `re2js` cannot be loaded (it is a dependency
 *   of this package, so only a broken install fails).
 * @example
 * ```ts
 * const engine = await loadLinearEngine();
 * const compiled = engine.compile("(a+)+$", false);
 * typeof compiled === "string" ? compiled : compiled.find("xaab"); // -1
 * ```
 */
export function loadLinearEngine(): Promise<LinearEngine> {
  loading ??= import("re2js").then(linearEngine, (error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

function linearEngine(module: Re2Module): LinearEngine {
  const { RE2JS } = module;
  return {
    compile(source, ignoreCase) {
      let compiled: InstanceType<typeof RE2JS>;
      let multiline: InstanceType<typeof RE2JS>;
      try {
        const translated = RE2JS.translateRegExp(source);
        const flags = ignoreCase ? RE2JS.CASE_INSENSITIVE : 0;
        compiled = RE2JS.compile(translated, flags);
        multiline = RE2JS.compile(translated, flags | RE2JS.MULTILINE);
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
      return {
        find(line) {
          // `test` runs on the DFA alone; `exec` (slower, it tracks where) only on a line that matches.
          if (!compiled.test(line)) return -1;
          const match = compiled.exec(line) as { index?: number } | null;
          return match?.index ?? -1;
        },
        anywhere: (text) => multiline.test(text),
      };
    },
  };
}

/**
 * The feature of a JavaScript regular expression that no linear-time engine has, if it uses
 * one: a lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) or a backreference (`\1` to `\9`, `\k<name>`)
 * outside character classes.
 *
 * @param source - a regular expression's source.
 * @returns a short description naming the feature, or undefined.
 * @example
 * ```ts
 * backtrackingFeature("(a+)+(?=x)"); // "a lookahead or lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`)"
 * backtrackingFeature("(\\w)\\1"); // "a backreference (`\\1`, `\\k<name>`)"
 * backtrackingFeature("[\\1]x"); // undefined
 * ```
 */
export function backtrackingFeature(source: string): string | undefined {
  if (hasLookaround(source)) return "a lookahead or lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`)";
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === "\\") {
      const next = source[index + 1] ?? "";
      if ((next >= "1" && next <= "9") || (next === "k" && source[index + 2] === "<"))
        return "a backreference (`\\1`, `\\k<name>`)";
      index++;
    } else if (char === "[") {
      // The first unescaped `]` closes a class, even right after `[` or `[^`.
      for (index++; index < source.length && source[index] !== "]"; index++) if (source[index] === "\\") index++;
    }
  }
  return undefined;
}
