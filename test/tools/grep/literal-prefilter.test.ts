import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { createBytePrefilter, requiredLiteral } from "../../../src/tools/grep/literal-prefilter.js";
import { compileGrepPattern, createGrepTool } from "../../../src/tools/grep/index.js";
import { memoryFileSystem } from "../../../src/backends/memory/index.js";
import { resultText } from "../../../src/tools/kit/result.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The expression grep runs for `pattern`: with the `u` flag when valid there, else without. */
const compiled = (pattern: string, ignoreCase = false): RegExp => {
  const re = compileGrepPattern(pattern, ignoreCase);
  if (typeof re === "string") throw new Error(re);
  return re;
};

describe("requiredLiteral", () => {
  it.each([
    ["createRequire", "createRequire"],
    ["function \\w+\\(", "function "],
    ["\\bimport\\s+\\{", "import"],
    ["foo\\.bar\\(", "foo.bar("],
    ["colou?r", "colo"],
    ["abcd+e", "abc"],
    ["abcd{2}xyz", "abc"],
    ["x{2}wxyz", "wxyz"],
    ["(ab|cd)efgh", "efgh"],
    ["[abc]defg", "defg"],
    ["[a\\]bc]defg", "defg"],
    ["^export const", "export const"],
    ["TODO:.*fix", "TODO:"],
    ["\\p{Lu}abcd", "abcd"],
    ["\\u{41}bcd", "bcd"],
    ["\\u0041bcd", "bcd"],
    ["\\x41bcd", "bcd"],
    ["(?<n>x)\\k<n>abcd", "abcd"],
    ["(?<n>x)\\1abcd", "abcd"],
    ["café", "caf"],
    ["[^]abcd", "abcd"],
    ["[]|abcd", undefined],
    ["[^](?:[a]bcde)?", undefined],
    ["a/bcd", "a/bcd"],
    ["\\w+\\(", "("],
    ["(?:\\w+\\.)?\\w+\\(", "("],
    ["\\w+=\\d", "="],
    ["ab\\d", undefined],
  ] as const)("%s (compiled with u) → %s", (pattern, literal) => {
    expect(compiled(pattern).unicode).toBe(true);
    expect(requiredLiteral(compiled(pattern))).toBe(literal);
  });

  it.each(["foo|bar", "ab", "abc+d", "a.b.c", "[abc]+", "(abc)", "(?:abcd)?", "\\w+\\d+", "a?b?c?d?"])(
    "%s → none",
    (pattern) => {
      expect(requiredLiteral(compiled(pattern))).toBe(undefined);
    },
  );

  // Without `u`, `\x`, `\u`, `\c`, `\p` and `\k` may be identity escapes and `{`, `}`, `]` plain
  // characters: skipping a span as one escape or class could hide a `|` or a `(`.
  it.each([
    "\\x|abcd",
    "\\c|abcd",
    "\\u|abcdef",
    "\\u{a|b}xyz",
    "\\p{a|b}xyz",
    "\\k<a|b>xyz",
    "\\x(abcd)?",
    "[^]( ]abcd)?",
    "a{b}cde",
    "abcd\\-",
  ])("%s (compiled without u) → none", (pattern) => {
    expect(compiled(pattern).unicode).toBe(false);
    expect(requiredLiteral(compiled(pattern))).toBe(undefined);
  });
});

describe("grep: the prefilter never hides a matching line", () => {
  it.each([
    ["\\x|abcd", "x"],
    ["\\c|abcd", "\\c"],
    ["\\u|abcdef", "u"],
    ["\\u{a|b}xyz", "u{a"],
    ["\\p{a|b}xyz", "p{a"],
    ["\\k<a|b>xyz", "k<a"],
    ["\\x(abcd)?", "x"],
    ["[^](?:[a]bcde)?", "q"],
    ["[^]( ]abcd)?", "q"],
  ])("%s finds the line %s", async (pattern, line) => {
    // The reference: the line tested alone with the expression grep compiles.
    expect(compiled(pattern).test(line)).toBe(true);
    const fs = memoryFileSystem({ files: { "/w/a.txt": `${line}\n` } });
    const result = await createGrepTool({ fs, cwd: "/w" }).execute({ pattern });
    expect(resultText(result)).toBe(`a.txt:1:${line}`);
    expect(result.count).toBe(1);
  });
});

describe("createBytePrefilter", () => {
  it("rules out files without the literal: ASCII ones at once, others if they are UTF-8", () => {
    const prefilter = createBytePrefilter(compiled("createRequire"))!;
    expect(prefilter.literal).toBe("createRequire");
    expect(
      [
        "import { createRequire } from 'node:module';\n",
        "const x = require('y');\n",
        "createrequire\n",
        "// ça createRequire\n",
        "// ça\n",
        "",
        "createRequir",
        "xxcreateRequire",
      ].map((text) => prefilter.scan(bytes(text))),
    ).toEqual(["maybe", "none", "none", "maybe", "none-if-utf8", "none", "none", "maybe"]);
  });

  it("compares without case under ignoreCase, with a letter anchor and a punctuation one", () => {
    const letters = createBytePrefilter(compiled("todo", true))!;
    const punctuated = createBytePrefilter(compiled("fix\\(\\)", true))!;
    expect(
      ["// TODO\n", "// ToDo\n", "// to do\n", "@odo[ODO\n", "// tödo\n"].map((text) => letters.scan(bytes(text))),
    ).toEqual(["maybe", "maybe", "none", "none", "none-if-utf8"]);
    expect(["FIX()", "Fix( )", "fIx()x"].map((text) => punctuated.scan(bytes(text)))).toEqual([
      "maybe",
      "none",
      "maybe",
    ]);
    // U+212A KELVIN SIGN matches k and U+017F LONG S matches s under /iu: not ruled out.
    const keep = createBytePrefilter(compiled("keep", true))!;
    expect(["\u212Aeep", "ta\u017Fk", "m\u00e9lange"].map((text) => keep.scan(bytes(text)))).toEqual([
      "maybe",
      "maybe",
      "maybe",
    ]);
    expect(createBytePrefilter(compiled("keep"))!.scan(bytes("\u212Aeep"))).toBe("none-if-utf8");
  });

  it("finds the literal at every offset and alignment of the bytes", () => {
    const prefilter = createBytePrefilter(compiled("QZqz"))!;
    const backing = new Uint8Array(64).fill(0x2e);
    const found: boolean[] = [];
    for (let offset = 0; offset < 4; offset++) {
      for (let at = 0; at + 4 <= 40; at++) {
        const view = backing.subarray(offset, offset + 40);
        view.fill(0x2e);
        view.set(bytes("QZqz"), at);
        found.push(prefilter.scan(view) === "maybe");
      }
    }
    expect(found.every(Boolean)).toBe(true);
    expect(found.length).toBe(148);
  });

  it("returns undefined when no literal of 3 characters is required", () => {
    expect(createBytePrefilter(compiled("a|bcd"))).toBe(undefined);
    expect(createBytePrefilter(compiled("\\d+", true))).toBe(undefined);
  });

  it("never rules out a file with a matching line (property: patterns valid with `u` and only without it, texts holding a match or not, with KELVIN SIGN and LONG S)", () => {
    const alphabet = fc.constantFrom(..."abcdABC xyzupkgLJ().*+?|[]{}<>^$\\\n-_0ék\u212Aſs");
    const noise = fc.array(alphabet, { maxLength: 40 }).map((chars) => chars.join(""));
    const piece = fc.oneof(
      // text, and escaped punctuation (weighted: most patterns then hold a literal to look for)
      {
        weight: 12,
        arbitrary: fc.constantFrom(
          "a",
          "b",
          "c",
          "d",
          "A",
          "x",
          "u",
          "p",
          "k",
          " ",
          "-",
          "_",
          "0",
          "\\(",
          "\\.",
          "\\*",
        ),
      },
      // character classes and other escapes that match one character, and assertions
      { weight: 2, arbitrary: fc.constantFrom(".", "\\w", "\\d", "\\b", "[ab]", "[^a]", "[\\]a]") },
      // the complete classes `[]` (matches nothing) and `[^]` (any character): `]` closes them
      { weight: 3, arbitrary: fc.constantFrom("[^]", "[]") },
      // escapes that are complete with `u`, and identity or partial escapes without it
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          "\\x",
          "\\u",
          "\\c",
          "\\p",
          "\\k",
          "\\x61",
          "\\u0062",
          "\\u{63}",
          "\\p{L}",
          "\\cJ",
          "\\k<g>",
          "\\1",
          "\\-",
        ),
      },
      // groups, alternatives, braces: balanced or not (then valid only without `u`, or not at all)
      {
        weight: 4,
        arbitrary: fc.constantFrom("(a|b)", "(?:ab)?", "(", ")", "(?:", "(?<g>", "|", "{", "}", "]", "{a|b}", "<a|b>"),
      },
      // quantifiers
      { weight: 2, arbitrary: fc.constantFrom("a?", "b*", "c+", "x{2}", "?", "*", "+", "{2}") },
    );
    /** Strings the expression matches, when fast-check can generate them (not for `[]`, `\k`, `\1`). */
    const matching = (re: RegExp): fc.Arbitrary<string> => {
      try {
        return fc.stringMatching(re).map((text) => text.replace(/[^\x20-\x7e]/g, ""));
      } catch {
        return fc.constant("");
      }
    };
    const sample = fc
      .record({
        source: fc.array(piece, { minLength: 1, maxLength: 10 }).map((pieces) => pieces.join("")),
        ignoreCase: fc.boolean(),
      })
      .chain(({ source, ignoreCase }) => {
        const re = compileGrepPattern(source, ignoreCase);
        return fc.record({
          re: fc.constant(re),
          // A string the expression matches (case flipped at random: compared under ignoreCase).
          match: typeof re === "string" ? fc.constant("") : matching(re),
          flips: fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
          include: fc.boolean(),
          before: noise,
          after: noise,
        });
      });
    const seen = { unicode: 0, legacy: 0, matched: 0, ruledOut: 0 };
    fc.assert(
      fc.property(sample, ({ re, match, flips, include, before, after }) => {
        if (typeof re === "string") return;
        seen[re.unicode ? "unicode" : "legacy"]++;
        const flipped = re.ignoreCase
          ? [...match].map((char, index) => (flips[index % 64] ? char.toUpperCase() : char.toLowerCase())).join("")
          : match;
        const haystack = include ? `${before}${flipped}${after}` : `${before}${after}`;
        // The reference: each line alone (split on "\n", a trailing "\r" removed).
        const matches = haystack.split("\n").some((line) => re.test(line.replace(/\r$/, "")));
        if (matches) seen.matched++;
        const prefilter = createBytePrefilter(re);
        if (prefilter === undefined || prefilter.scan(bytes(haystack)) === "maybe") return;
        seen.ruledOut++;
        expect({ source: re.source, flags: re.flags, haystack, matches }).toEqual({
          source: re.source,
          flags: re.flags,
          haystack,
          matches: false,
        });
      }),
      { numRuns: 6000 },
    );
    // The property met every kind of case (a sanity check of the generator, not of the prefilter).
    expect({
      unicode: seen.unicode > 500,
      legacy: seen.legacy > 500,
      matched: seen.matched > 500,
      ruledOut: seen.ruledOut > 100,
    }).toEqual({ unicode: true, legacy: true, matched: true, ruledOut: true });
  });
});

describe("grep: \\w+\\( over a very long line without '(' (trial finding 4)", () => {
  it("the prefilter rules the file out on its bytes, so the expression never runs on it", async () => {
    const long = `${"word".repeat(250_000)}\n`;
    const prefilter = createBytePrefilter(compiled("\\w+\\("))!;
    expect(prefilter.literal).toBe("(");
    expect(prefilter.scan(bytes(long))).toBe("none");
    expect(prefilter.scan(bytes("call(x)\n"))).toBe("maybe");
    const fs = memoryFileSystem({ files: { "/w/long.txt": long, "/w/code.ts": "const a = 1;\nrun(a);\n" } });
    const grep = createGrepTool({ fs, cwd: "/w" });
    expect(resultText(await grep.execute({ pattern: "(?:\\w+\\.)?\\w+\\(" }))).toBe("code.ts:2:run(a);");
  });
});
