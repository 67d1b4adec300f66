// CPU time of a Chromium's zygotes and every renderer and GPU process they started: the browser exits before its
// zygotes, so init reaps them and their time never reaches the process that started the browser. Linux only
// (/proc); elsewhere null.
import { readdirSync, readFileSync } from 'node:fs';

export interface Proc {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in ticks of 10 ms. */
  ticks: number;
  cmdline: string;
}

/** Every process, or null without /proc. */
export function processes(): Proc[] | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  const out: Proc[] = [];
  for (const pid of pids) {
    try {
      const f = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      out.push({ pid: Number(pid), ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]), cmdline });
    } catch {
      // Gone between the listing and the read.
    }
  }
  return out;
}

/** The processes below `pid` in `all`, at any depth. */
export function descendants(all: readonly Proc[], pid: number): Proc[] {
  const children = new Map<number, Proc[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const below = (parent: number): Proc[] => (children.get(parent) ?? []).flatMap((c) => [c, ...below(c.pid)]);
  return below(pid);
}

/** CPU ms of `browserPid`'s zygotes with every live process under them; read just before the browser closes. */
export function zygoteCpuMs(browserPid: number): number | null {
  const all = processes();
  if (!all) return null;
  const zygotes = all.filter((p) => p.ppid === browserPid && p.cmdline.includes('--type=zygote'));
  return zygotes.flatMap((z) => [z, ...descendants(all, z.pid)]).reduce((sum, p) => sum + p.ticks, 0) * 10;
}
