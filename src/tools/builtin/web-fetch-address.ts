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

/** The first loopback/link-local/private address `host` resolves to, if any (a failed lookup: none). */
export async function privateAddressOf(host: string): Promise<string | undefined> {
  const name = host.replace(/^\[|\]$/g, "");
  if (isIP(name)) return isPrivateAddress(name) ? name : undefined;
  try {
    const found = await lookup(name, { all: true, verbatim: true });
    return found.map((a) => a.address).find(isPrivateAddress);
  } catch {
    return undefined;
  }
}
