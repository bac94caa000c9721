import { afterEach, describe, expect, it } from "vitest";
import { decode, encode, encodingOf, type Encoding } from "../../src/node-fs/encoding.js";

const ENCODINGS: readonly Encoding[] = ["utf8", "latin1", "ascii", "base64", "base64url", "hex", "utf16le"];
const TEXT = "héllo wörld ✓ 42";
const saved = globalThis.Buffer;
afterEach(() => {
  globalThis.Buffer = saved;
});

describe("encodings without a host Buffer (a browser page) give Node's results", () => {
  for (const encoding of ENCODINGS) {
    it(`${encoding}: decode and encode as Node's Buffer does`, () => {
      const bytes = new Uint8Array(Buffer.from(TEXT, "utf8"));
      const nodeText = Buffer.from(bytes).toString(encoding);
      const nodeBytes = [...Buffer.from(nodeText, encoding)];
      // @ts-expect-error: the page has no Buffer
      delete globalThis.Buffer;
      expect(decode(bytes, encoding)).toBe(nodeText);
      expect([...encode(nodeText, encoding)]).toEqual(nodeBytes);
    });
  }
});

describe("encodingOf", () => {
  it("reads a string or an options object; null and buffer mean bytes; an unknown name is Node's TypeError", () => {
    expect([
      encodingOf("UTF8"),
      encodingOf({ encoding: "hex" }),
      encodingOf(null),
      encodingOf("buffer"),
      encodingOf({}),
    ]).toEqual(["utf8", "hex", undefined, undefined, undefined]);
    expect(() => encodingOf("klingon")).toThrow(
      expect.objectContaining({
        name: "TypeError",
        code: "ERR_INVALID_ARG_VALUE",
        message: "The argument 'encoding' is invalid encoding. Received 'klingon'",
      }),
    );
  });
});
