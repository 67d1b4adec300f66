import { spawn, type ChildProcess } from 'node:child_process';
import { cliArgs } from '../../../scripts/test-source.js';

/**
 * How node starts the CLI: its sources through tsx, or, when the tests run from dist/ (npm test), the bundle
 * built of them moments before (dist/ndbtop.mjs and its chunks: what package.json's `bin` ships).
 */
export const CLI_ARGS = cliArgs();

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real CLI in its own process, as a script would. `input`: written to its stdin, which then ends (without it
 * stdin is at its end from the start). `timeoutMs` only catches a CLI that hangs: at CI's load (~25 on 2 cores) one
 * CLI process has taken over 30 s from start to exit.
 */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 120_000, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env, input !== undefined);
    child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ndbtop ${args.join(' ')} did not finish; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}, stdin = false): ChildProcess {
  const cleanEnv = { ...process.env, ...env };
  if (!('NDB_CONNECTSTRING' in env)) delete cleanEnv.NDB_CONNECTSTRING;
  return spawn(process.execPath, [...CLI_ARGS, ...args], { env: cleanEnv, stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
}

/** The sim's printed addresses: its connectstring and its ndbinfo URL. */
export function simAddresses(child: ChildProcess): Promise<{ connectstring: string; url: string }> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const cs = /connectstring: (\S+)\n/.exec(out);
      const url = /ndbinfo: (mysql:\/\/\S+)\n/.exec(out);
      if (cs?.[1] && url?.[1]) resolve({ connectstring: cs[1], url: url[1] });
    });
    child.on('close', (code) => reject(new Error(`sim exited ${code}: ${out}`)));
  });
}
