// Where a web_fetch would connect (§10): loopback, link-local and private addresses (and names
// resolving to them) reach the user's own machine and network, so fetching them asks in every
// mode but yolo, whatever the domain rules say.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

const V4_PRIVATE: [number, number][] = [
  [0x00000000, 8], // 0.0.0.0/8 ("this host")
  [0x0a000000, 8], // 10/8
  [0x7f000000, 8], // 127/8
  [0xa9fe0000, 16], // 169.254/16
  [0xac100000, 12], // 172.16/12
  [0xc0a80000, 16], // 192.168/16
];

function v4Number(ip: string): number {
  return ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

export function isPrivateAddress(ip: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return isPrivateAddress(mapped[1]);
  if (isIP(ip) === 4) {
    const n = v4Number(ip);
    return V4_PRIVATE.some(
      ([base, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(base / 2 ** (32 - bits)),
    );
  }
  if (isIP(ip) !== 6) return false;
  const v6 = ip.toLowerCase();
  // ::1 and ::, fc00::/7 (unique local), fe80::/10 (link-local).
  return v6 === "::1" || v6 === "::" || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6);
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
