// Where a web_fetch would connect (§10): loopback, link-local and private addresses (and names
// resolving to them) reach the user's own machine and network, so fetching them asks in every
// mode but yolo, whatever the domain rules say.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

const V4_PRIVATE: [number, number][] = [
  [0x00000000, 8], // 0.0.0.0/8 ("this host")
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10 (carrier-grade NAT; Tailscale's addresses: the user's own network)
  [0x7f000000, 8], // 127/8
  [0xa9fe0000, 16], // 169.254/16
  [0xac100000, 12], // 172.16/12
  [0xc0a80000, 16], // 192.168/16
];

function v4Number(ip: string): number {
  return ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

export function isPrivateAddress(ip: string): boolean {
  if (isIP(ip) === 4) {
    const n = v4Number(ip);
    return V4_PRIVATE.some(
      ([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)),
    );
  }
  const w = v6Words(ip);
  if (!w) return false;
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  // :: and ::1; fc00::/7 (unique local); fe80::/10 (link-local) and fec0::/10 (the old site-local).
  if (zeros(0, 7) && w[7] <= 1) return true;
  if ((w[0] & 0xfe00) === 0xfc00 || (w[0] & 0xffc0) === 0xfe80 || (w[0] & 0xffc0) === 0xfec0) return true;
  // An IPv4 address inside: mapped (::ffff:7f00:1, which the URL parser makes of
  // [::ffff:127.0.0.1]), compatible (::127.0.0.1) or NAT64 (64:ff9b::127.0.0.1).
  const v4 = `${w[6] >> 8}.${w[6] & 0xff}.${w[7] >> 8}.${w[7] & 0xff}`;
  const mapped = zeros(0, 5) && w[5] === 0xffff;
  const nat64 = w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6);
  return (mapped || zeros(0, 6) || nat64) && isPrivateAddress(v4);
}

/** The eight 16-bit words of an IPv6 address (a zone `%eth0` dropped), or null when it is not one. */
function v6Words(ip: string): number[] | null {
  const bare = ip.replace(/%.*$/, "");
  if (isIP(bare) !== 6) return null;
  let text = bare.toLowerCase();
  const quad = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(2).map(Number);
    text = `${quad[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const part = (s: string | undefined) => (s ? s.split(":").map((h) => Number.parseInt(h, 16)) : []);
  const front = part(head);
  const back = part(tail);
  const gap = tail === undefined ? 0 : 8 - front.length - back.length;
  return [...front, ...new Array(gap).fill(0), ...back];
}

/** An address a host name resolved to, as `dns.lookup` gives it. */
export interface PinnedAddress {
  address: string;
  family: number;
}

/** What the check of a host found: every address it resolved to, and the first private one. */
export interface ResolvedHost {
  addresses: PinnedAddress[];
  private?: string;
}

type Resolver = (name: string) => Promise<PinnedAddress[]>;
const systemResolver: Resolver = (name) => lookup(name, { all: true, verbatim: true });
let resolver = systemResolver;

/** Tests answer names themselves (no DNS there); returns the function that puts the system's back. */
export function replaceResolver(r: Resolver): () => void {
  resolver = r;
  return () => {
    resolver = systemResolver;
  };
}

/** How `host` resolves now (a failed lookup: no address), for the check and for a connection. */
export async function resolveHost(host: string): Promise<ResolvedHost> {
  const name = host.replace(/^\[|\]$/g, "");
  const ip = isIP(name);
  let addresses: PinnedAddress[] = [];
  if (ip) addresses = [{ address: name, family: ip }];
  else
    try {
      addresses = await resolver(name);
    } catch {
      // Not found: nothing to connect to, and nothing private either.
    }
  return { addresses, private: addresses.map((a) => a.address).find(isPrivateAddress) };
}

/** The first loopback/link-local/private address `host` resolves to, if any (a failed lookup: none). */
export async function privateAddressOf(host: string): Promise<string | undefined> {
  return (await resolveHost(host)).private;
}
