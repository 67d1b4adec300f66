import { readFileSync } from 'node:fs';

/** CPU time (ms) a process has used so far, from /proc (Linux); null where there is none or the process is gone. */
export function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // Fields after the parenthesised command name: state is field 3, utime and stime fields 14 and 15 (ticks).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // USER_HZ is 100 on every Linux architecture node runs on.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}
