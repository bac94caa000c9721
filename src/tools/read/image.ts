/**
 * The image converter: `read` of a PNG, JPEG, GIF or WebP file returns the image as a media
 * part (base64) the model can see, detected by magic bytes, never by file name.
 *
 * @module
 */
import { bytesToBase64 } from "../kit/base64.js";
import type { ContentConverter, ConversionOutcome } from "./converter.js";
import { formatBytes, sniffMagic } from "../kit/text.js";
import { assertKnownOptions } from "../../contract/options.js";

/**
 * Largest image returned to the model: 5 MiB. Model providers reject bigger images (Anthropic's
 * limit is 5 MB per image), and base64 makes them a third larger again.
 */
export const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** The media types {@link imageConverter} handles. */
export const IMAGE_MEDIA_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;

/** Options of {@link imageConverter}. */
export interface ImageConverterOptions {
  /** Largest image returned, in bytes; bigger ones give an `EFBIG` error. @default DEFAULT_MAX_IMAGE_BYTES */
  readonly maxBytes?: number;
}

const KNOWN_OPTIONS = ["maxBytes"];

/**
 * The image type of `bytes` by magic number: `image/png`, `image/jpeg`, `image/gif`,
 * `image/webp`, or undefined for anything else.
 */
export function sniffImageType(bytes: Uint8Array): (typeof IMAGE_MEDIA_TYPES)[number] | undefined {
  const magic = sniffMagic(bytes);
  return IMAGE_MEDIA_TYPES.find((type) => type === magic?.mediaType);
}

/** Width × height for PNG and GIF (read from the header), else undefined. */
function dimensions(bytes: Uint8Array, mediaType: string): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (mediaType === "image/png" && bytes.length >= 24) return `${view.getUint32(16)}×${view.getUint32(20)}`;
  if (mediaType === "image/gif" && bytes.length >= 10) return `${view.getUint16(6, true)}×${view.getUint16(8, true)}`;
  return undefined;
}

/**
 * A {@link ContentConverter} that returns PNG, JPEG, GIF and WebP files as media parts, preceded
 * by a text part naming the file, type and size (`Image logo.png (image/png, 64×64, 1.2 KiB (1,234 bytes))`).
 *
 * @param options - `maxBytes`: largest image returned (bytes).
 * @returns the converter; it returns `undefined` for other content, and an `EFBIG` error for an
 *   image over `maxBytes`.
 * @throws TypeError for an unknown option or a `maxBytes` that is not a positive integer.
 * @example
 * ```ts
 * const read = createReadTool({ fs, converters: [imageConverter({ maxBytes: 1024 * 1024 })] });
 * ```
 */
export function imageConverter(options: ImageConverterOptions = {}): ContentConverter {
  assertKnownOptions("imageConverter", options, KNOWN_OPTIONS);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw new TypeError(`imageConverter maxBytes must be a positive integer (bytes), got ${String(maxBytes)}`);
  }
  return {
    name: "image",
    convert({ bytes, displayPath }): ConversionOutcome | undefined {
      const mediaType = sniffImageType(bytes);
      if (mediaType === undefined) return undefined;
      if (bytes.length > maxBytes) {
        return {
          error: {
            code: "EFBIG",
            message: `${displayPath} is a ${sniffMagic(bytes)?.description ?? mediaType} of ${formatBytes(bytes.length)}, over the ${formatBytes(maxBytes)} image limit; it cannot be shown.`,
          },
        };
      }
      const size = dimensions(bytes, mediaType);
      const details = [mediaType, size, formatBytes(bytes.length)].filter((part) => part !== undefined).join(", ");
      return {
        parts: [
          { type: "text", text: `Image ${displayPath} (${details})` },
          { type: "media", mediaType, data: bytesToBase64(bytes) },
        ],
      };
    },
  };
}
