/**
 * CRC-32 (IEEE 802.3, the zlib polynomial) over bytes: the checksum of every journal record.
 *
 * Why CRC-32 and not SHA-256: the checksum guards against a record cut short or half written by a
 * crash (a torn tail), not against tampering (the origin's own code is the only writer). CRC-32
 * catches every burst error up to 32 bits and misses random damage with odds of 2^-32; it is
 * synchronous and runs at hundreds of MB/s in plain JavaScript, so a cold start checks 100 MiB in
 * a fraction of a second with no Promise per record, where WebCrypto's `digest` is asynchronous.
 *
 * @module
 */

const TABLE = /* @__PURE__ */ (() => {
  const table = new Int32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  // Slicing-by-8 tables: eight bytes per step.
  for (let n = 0; n < 256; n++) {
    let c = table[n]!;
    for (let k = 1; k < 8; k++) {
      c = table[c & 0xff]! ^ (c >>> 8);
      table[k * 256 + n] = c;
    }
  }
  return table;
})();

/**
 * The CRC-32 of `bytes`.
 *
 * @param bytes - the data.
 * @returns the checksum as an unsigned 32-bit integer (`crc32("123456789")` is `0xcbf43926`).
 */
export function crc32(bytes: Uint8Array): number {
  const t = TABLE;
  let crc = -1;
  let i = 0;
  const length = bytes.length;
  const fast = length - (length % 8);
  while (i < fast) {
    const a = (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)) ^ crc;
    const b = bytes[i + 4]! | (bytes[i + 5]! << 8) | (bytes[i + 6]! << 16) | (bytes[i + 7]! << 24);
    crc =
      t[1792 + (a & 0xff)]! ^
      t[1536 + ((a >>> 8) & 0xff)]! ^
      t[1280 + ((a >>> 16) & 0xff)]! ^
      t[1024 + (a >>> 24)]! ^
      t[768 + (b & 0xff)]! ^
      t[512 + ((b >>> 8) & 0xff)]! ^
      t[256 + ((b >>> 16) & 0xff)]! ^
      t[b >>> 24]!;
    i += 8;
  }
  while (i < length) crc = t[(crc ^ bytes[i++]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}
