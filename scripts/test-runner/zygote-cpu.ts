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

/** CPU ms of `browserPid`'s zygotes with every live process under them; read just before the browser closes. */
export function zygoteCpuMs(browserPid: number): number | null {
  const all = processes();
  if (!all) return null;
  const children = new Map<number, Proc[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const tree = (p: Proc): number => p.ticks + (children.get(p.pid) ?? []).reduce((sum, c) => sum + tree(c), 0);
  const zygotes = (children.get(browserPid) ?? []).filter((p) => p.cmdline.includes('--type=zygote'));
  return zygotes.reduce((sum, p) => sum + tree(p), 0) * 10;
}
