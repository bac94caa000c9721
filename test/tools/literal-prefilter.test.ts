import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { createBytePrefilter, requiredLiteral } from "../../src/tools/literal-prefilter.js";
import { compileGrepPattern } from "../../src/tools/grep.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

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
    ["\\k<n>abcd", "abcd"],
    ["(?<n>x)\\1abcd", "abcd"],
    ["café", "caf"],
    ["a{b}cde", "cde"],
  ] as const)("%s → %s", (pattern, literal) => {
    expect(requiredLiteral(pattern)).toBe(literal);
  });

  it.each(["foo|bar", "ab", "abc+d", "a.b.c", "[abc]+", "(abc)", "(?:abcd)?", "\\w+\\d+", "a?b?c?d?"])(
    "%s → none",
    (pattern) => {
      expect(requiredLiteral(pattern)).toBe(undefined);
    },
  );
});

describe("createBytePrefilter", () => {
  it("rules out files without the literal: ASCII ones at once, others if they are UTF-8", () => {
    const prefilter = createBytePrefilter("createRequire", false)!;
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
    const letters = createBytePrefilter("todo", true)!;
    const punctuated = createBytePrefilter("fix\\(\\)", true)!;
    expect(
      ["// TODO\n", "// ToDo\n", "// to do\n", "@odo[ODO\n", "// tödo\n"].map((text) => letters.scan(bytes(text))),
    ).toEqual(["maybe", "maybe", "none", "none", "none-if-utf8"]);
    expect(["FIX()", "Fix( )", "fIx()x"].map((text) => punctuated.scan(bytes(text)))).toEqual([
      "maybe",
      "none",
      "maybe",
    ]);
    // U+212A KELVIN SIGN matches k and U+017F LONG S matches s under /iu: not ruled out.
    const keep = createBytePrefilter("keep", true)!;
    expect(["\u212Aeep", "ta\u017Fk", "m\u00e9lange"].map((text) => keep.scan(bytes(text)))).toEqual([
      "maybe",
      "maybe",
      "maybe",
    ]);
    expect(createBytePrefilter("keep", false)!.scan(bytes("\u212Aeep"))).toBe("none-if-utf8");
  });

  it("finds the literal at every offset and alignment of the bytes", () => {
    const prefilter = createBytePrefilter("QZqz", false)!;
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
    expect(createBytePrefilter("a|bcd", false)).toBe(undefined);
    expect(createBytePrefilter("\\d+", true)).toBe(undefined);
  });

  it("never rules out a file with a matching line (property: texts holding a match or not, with KELVIN SIGN and LONG S)", () => {
    const alphabet = fc.constantFrom(..."abcABC xyz().*+?|[]{}^$\n-_0ék\u212Aſs");
    const noise = fc.array(alphabet, { maxLength: 40 }).map((chars) => chars.join(""));
    const piece = fc.oneof(
      fc.constantFrom("a", "b", "c", "A", "x", " ", "\\(", "\\.", "\\*", "-", "_", "0"),
      fc.constantFrom(".", "\\w", "\\d", "[ab]", "(a|b)", "a?", "b*", "c+", "x{2}", "(?:ab)?"),
    );
    const sample = fc
      .array(piece, { minLength: 1, maxLength: 10 })
      .map((pieces) => pieces.join(""))
      .chain((source) =>
        fc.record({
          source: fc.constant(source),
          // A string the expression matches (case flipped at random: compared under ignoreCase).
          match: fc.stringMatching(new RegExp(source)).filter((text) => /^[\x20-\x7e]*$/.test(text)),
          flips: fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
          ignoreCase: fc.boolean(),
          include: fc.boolean(),
          before: noise,
          after: noise,
        }),
      );
    let ruledOut = 0;
    let matched = 0;
    fc.assert(
      fc.property(sample, ({ source, match, flips, ignoreCase, include, before, after }) => {
        const re = compileGrepPattern(source, ignoreCase);
        if (typeof re === "string") return;
        const flipped = ignoreCase
          ? [...match].map((char, index) => (flips[index % 64] ? char.toUpperCase() : char.toLowerCase())).join("")
          : match;
        const haystack = include ? `${before}${flipped}${after}` : `${before}${after}`;
        const matches = haystack.split("\n").some((line) => re.test(line));
        if (matches) matched++;
        const prefilter = createBytePrefilter(source, ignoreCase);
        if (prefilter === undefined || prefilter.scan(bytes(haystack)) === "maybe") return;
        ruledOut++;
        expect(matches).toBe(false);
      }),
      { numRuns: 3000 },
    );
    // The property met both kinds of case (a sanity check of the generator, not of the prefilter).
    expect({ ruledOut: ruledOut > 100, matched: matched > 500 }).toEqual({ ruledOut: true, matched: true });
  });
});
