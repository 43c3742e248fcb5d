// SHA-256 in JavaScript, for the one short hash a start needs (the workspace key that names the
// sessions folder): node:crypto would load OpenSSL for it, ~1.7 MB of a headless run's memory and
// more than the hash itself costs here. Output is the standard digest, checked against
// node:crypto by the tests.

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** The first 32 bits of the fractional parts of the `root`th roots of the first `count` primes. */
function primeRootBits(count: number, root: number): Uint32Array {
  const out = new Uint32Array(count);
  for (let n = 2, found = 0; found < count; n++) {
    let prime = true;
    for (let d = 2; d * d <= n; d++) if (n % d === 0) prime = false;
    if (prime) out[found++] = ((n ** (1 / root) % 1) * 2 ** 32) >>> 0;
  }
  return out;
}

let constants: { k: Uint32Array; h: Uint32Array } | undefined;

export function sha256Hex(text: string): string {
  constants ??= { k: primeRootBits(64, 3), h: primeRootBits(8, 2) };
  const { k } = constants;
  const bytes = new TextEncoder().encode(text);
  // The message, a 1 bit, zeros, and its length in bits (big-endian, 64 bits), in 64-byte blocks.
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  const bits = bytes.length * 8;
  view.setUint32(padded.length - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(padded.length - 4, bits >>> 0);

  const h = constants.h.slice();
  const w = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  let hex = "";
  for (const word of h) hex += word.toString(16).padStart(8, "0");
  return hex;
}
