// Linux: the seccomp filter bubblewrap loads (`--seccomp FD`) when the sandbox has no network. A
// new network namespace cuts TCP and UDP, but Unix sockets are files, reachable through the
// read-only root: a connection to the D-Bus session bus (`systemd-run --user …`), docker.sock or
// an ssh-agent lets a command act outside the sandbox. The filter refuses
// `socket(AF_UNIX, …)` with EACCES; `socketpair`, which only connects a process with itself or
// its children, stays allowed. A classic BPF program, as `seccomp_export_bpf` would write it.

const BPF_LD_W_ABS = 0x20;
const BPF_JMP_JEQ_K = 0x15;
const BPF_RET_K = 0x06;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EACCES = 13;
const EPERM = 1;
const AF_UNIX = 1;
/** Offsets in `struct seccomp_data`: nr, arch, args[0] (its low half on little-endian machines). */
const NR = 0;
const ARCH = 4;
const ARG0 = 16;

interface ArchInfo {
  audit: number;
  socket: number;
  /** The same call through the x32 ABI (x86-64 only). */
  alias: number;
}

const ARCHES: Record<string, ArchInfo> = {
  x64: { audit: 0xc000003e, socket: 41, alias: 41 | 0x40000000 },
  arm64: { audit: 0xc00000b7, socket: 198, alias: 198 },
};

/** The filter for this machine, or undefined where tern does not know the syscall numbers. */
export function unixSocketFilter(arch: string = process.arch): Buffer | undefined {
  const info = ARCHES[arch];
  if (!info) return undefined;
  const program: [number, number, number, number][] = [
    [BPF_LD_W_ABS, 0, 0, ARCH],
    // Another ABI (a 32-bit binary) would call socket by other numbers: refuse all of it.
    [BPF_JMP_JEQ_K, 1, 0, info.audit],
    [BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | EPERM],
    [BPF_LD_W_ABS, 0, 0, NR],
    [BPF_JMP_JEQ_K, 1, 0, info.socket],
    [BPF_JMP_JEQ_K, 0, 3, info.alias],
    [BPF_LD_W_ABS, 0, 0, ARG0],
    [BPF_JMP_JEQ_K, 0, 1, AF_UNIX],
    [BPF_RET_K, 0, 0, SECCOMP_RET_ERRNO | EACCES],
    [BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW],
  ];
  const out = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
