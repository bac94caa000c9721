import { describe, expect, test } from "vitest";
import { imageConverter, sniffImageType } from "../../../src/tools/read/image.js";
import { tinyPng } from "../kit/suite.js";

const input = (bytes: Uint8Array) => ({ bytes, path: "/w/i", displayPath: "i" });

describe("imageConverter", () => {
  test("PNG, JPEG, GIF and WebP by magic bytes, not by name", () => {
    expect(sniffImageType(tinyPng())).toBe("image/png");
    expect(sniffImageType(Uint8Array.of(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(sniffImageType(new TextEncoder().encode("GIF89a\x01\x00\x01\x00"))).toBe("image/gif");
    expect(sniffImageType(new TextEncoder().encode("RIFF\x10\x00\x00\x00WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageType(new TextEncoder().encode("RIFF\x10\x00\x00\x00WAVEfmt "))).toBeUndefined();
    expect(sniffImageType(new TextEncoder().encode("not an image"))).toBeUndefined();
  });

  test("returns a text part and a base64 media part", async () => {
    const gif = new TextEncoder().encode("GIF89a\x02\x00\x03\x00");
    expect(await imageConverter().convert(input(gif))).toEqual({
      parts: [
        { type: "text", text: "Image i (image/gif, 2×3, 10 bytes)" },
        { type: "media", mediaType: "image/gif", data: "R0lGODlhAgADAA==" },
      ],
    });
    expect(await imageConverter().convert(input(Uint8Array.of(0xff, 0xd8, 0xff)))).toEqual({
      parts: [
        { type: "text", text: "Image i (image/jpeg, 3 bytes)" },
        { type: "media", mediaType: "image/jpeg", data: "/9j/" },
      ],
    });
    expect(await imageConverter().convert(input(Uint8Array.of(0, 1, 2)))).toBeUndefined();
  });

  test("an image over maxBytes is an EFBIG error", async () => {
    expect(await imageConverter({ maxBytes: 10 }).convert(input(tinyPng()))).toEqual({
      error: {
        code: "EFBIG",
        message: "i is a PNG image of 33 bytes, over the 10 bytes image limit; it cannot be shown.",
      },
    });
  });

  test("options are checked", () => {
    expect(() => imageConverter({ maxbytes: 1 } as never)).toThrow(
      new TypeError('imageConverter got an unknown option "maxbytes". Known options: maxBytes'),
    );
    expect(() => imageConverter({ maxBytes: -1 })).toThrow(
      new TypeError("imageConverter maxBytes must be a positive integer (bytes), got -1"),
    );
  });
});
