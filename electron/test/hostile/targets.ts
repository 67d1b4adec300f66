import { readFileSync } from 'node:fs';
import { EventStream } from '../../../native-mgm/client/event-stream.js';
import { MgmClient } from '../../../native-mgm/client/mgm-client.js';
import { resolveConnectstring } from '../../../native-mgm/connectstring.js';
import { MgmError } from '../../../native-mgm/errors.js';
import { EXIT, exitCodeFor } from '../../cli/exit-codes.js';
import { formatShow } from '../../cli/format/format-show.js';
import { spawnCli } from '../../cli/test/run-cli.js';
import { parsePush } from '../../contract/schemas/validate.js';
import { createEngine } from '../../engine/create-engine.js';

export interface Outcome {
  /** An exit code of docs/commands.md's list (in-process targets map their error the way the CLI does). */
  code: number;
  ms: number;
  /** Peak resident memory of a child process; in-process targets are measured by the harness. */
  rssBytes?: number;
  /** Not an error the product reports (a throw that is no MgmError, a signal, a stack trace). */
  crashed: boolean;
  detail?: string;
}

export interface Target {
  name: string;
  /** Runs against the server at `connectstring`; `timeoutMs` is what the command is given as its timeout. */
  run(connectstring: string, timeoutMs: number): Promise<Outcome>;
  /** How long past `timeoutMs` a run may take before it counts as a hang (process start-up, a watch window). */
  graceMs: number;
}

function fromError(err: unknown, started: number): Outcome {
  return { code: exitCodeFor(err), ms: Date.now() - started, crashed: !(err instanceof MgmError), detail: err instanceof Error ? err.message : String(err) };
}

/** `show`'s work in this process: connect, `get status`, format, as the command does. */
export const showInProcess: Target = {
  name: 'show (in-process)',
  graceMs: 2000,
  async run(connectstring, timeoutMs) {
    const started = Date.now();
    const { hosts } = resolveConnectstring({ explicit: connectstring });
    const client = new MgmClient({ hosts, connectTimeoutMs: timeoutMs, requestTimeoutMs: timeoutMs, reconnect: false });
    try {
      await client.connect();
      formatShow(await client.getStatus(), { host: client.state.host ?? '', port: client.state.port ?? 0 });
      return { code: EXIT.OK, ms: Date.now() - started, crashed: false };
    } catch (err) {
      return fromError(err, started);
    } finally {
      client.close();
    }
  },
};

/** `events`' work in this process: subscribe, take what comes for a moment, close. */
export const eventsInProcess = (windowMs: number): Target => ({
  name: 'events (in-process)',
  graceMs: windowMs + 2000,
  async run(connectstring, timeoutMs) {
    const started = Date.now();
    const { hosts } = resolveConnectstring({ explicit: connectstring });
    const stream = new EventStream({ hosts, connectTimeoutMs: timeoutMs, requestTimeoutMs: timeoutMs });
    let crash: string | null = null;
    stream.events.on('warning', (w) => {
      if (!(w instanceof MgmError)) crash = String(w);
    });
    stream.events.on('event', (e) => {
      if (typeof e.typeId !== 'number') crash = 'event without a type';
    });
    try {
      await stream.start();
      await new Promise((r) => setTimeout(r, windowMs));
      return { code: EXIT.OK, ms: Date.now() - started, crashed: crash !== null, ...(crash ? { detail: crash } : {}) };
    } catch (err) {
      return fromError(err, started);
    } finally {
      stream.close();
    }
  },
});

/** The engine watching the server for a moment: every push must still satisfy the contract. */
export const engineInProcess = (windowMs: number): Target => ({
  name: 'engine',
  graceMs: windowMs + 3000,
  async run(connectstring, timeoutMs) {
    const started = Date.now();
    let crash: string | null = null;
    const engine = await createEngine({ host: 'serve', clusters: [{ connectstring }], simulator: false, requestTimeoutMs: timeoutMs });
    const off = engine.subscribe((m) => {
      try {
        parsePush(JSON.parse(JSON.stringify(m)));
      } catch (err) {
        crash = `push breaks the contract: ${String(err)}`;
      }
    });
    try {
      await new Promise((r) => setTimeout(r, windowMs));
      const snap = await engine.handlers.getSnapshot({});
      if (snap.connection.status === 'live' && snap.connection.lastError === null && snap.nodes.length > 255) crash = 'more than 255 nodes taken as live';
      return { code: EXIT.OK, ms: Date.now() - started, crashed: crash !== null, ...(crash ? { detail: crash } : {}) };
    } catch (err) {
      return fromError(err, started);
    } finally {
      off();
      await engine.close();
    }
  },
});

function peakRss(pid: number | undefined): () => number {
  let peak = 0;
  return () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readStatus(pid));
      if (m) peak = Math.max(peak, Number(m[1]) * 1024);
    } catch {
      /* the process is gone */
    }
    return peak;
  };
}

const readStatus = (pid: number | undefined): string => (pid ? readFileSync(`/proc/${pid}/status`, 'utf8') : '');

/**
 * A CLI command run as a script would, in its own process, with `-c` and `--timeout` added. `runMs`: a command
 * that runs until interrupted (events) gets SIGTERM after that long and must then exit 0.
 */
export function cliTarget(argv: string[], runMs?: number, startupMs = 60_000): Target {
  return {
    name: `ndbtop ${argv.join(' ')}`,
    graceMs: startupMs + (runMs ?? 0),
    run(connectstring, timeoutMs) {
      const started = Date.now();
      const child = spawnCli([...argv, '-c', connectstring, '--timeout', String(timeoutMs)]);
      const rss = peakRss(child.pid);
      const sampler = setInterval(rss, 100);
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => (stderr += d.toString().slice(0, 4096)));
      child.stdout?.on('data', () => undefined);
      // A command that runs until interrupted is interrupted `runMs` after it first said anything (its start-up
      // on a loaded machine is not what is measured); one that never speaks is left to the hang deadline.
      let interrupt: NodeJS.Timeout | null = null;
      const armInterrupt = (): void => {
        if (runMs !== undefined && interrupt === null) interrupt = setTimeout(() => child.kill('SIGTERM'), runMs);
      };
      child.stderr?.once('data', armInterrupt);
      child.stdout?.once('data', armInterrupt);
      return new Promise<Outcome>((resolve) => {
        child.on('exit', (code, signal) => {
          clearInterval(sampler);
          if (interrupt) clearTimeout(interrupt);
          const stack = /\n\s+at .+:\d+:\d+/.test(stderr);
          const crashed = signal !== null || code === EXIT.FAILURE || stack;
          resolve({ code: code ?? -1, ms: Date.now() - started, rssBytes: rss(), crashed, detail: stderr.trim().split('\n')[0] ?? '' });
        });
      });
    },
  };
}
