import { spawnSync } from 'node:child_process';

/**
 * A test's `skip` for an outside tool (Chromium, Prometheus, MariaDB …): false when the tool is there. When it is
 * not, the test fails with how to get it, unless NDBTOP_TEST_MISSING_OK names the tool (a comma-separated list a
 * CI job sets where the tool cannot be had, e.g. Prometheus on Windows): then the reason is the skip's message.
 */
export function missingTool(tool: string, present: boolean, reason: string): false | string {
  if (present) return false;
  const allowed = (process.env.NDBTOP_TEST_MISSING_OK ?? '').split(',').map((s) => s.trim());
  if (allowed.includes(tool)) return `${reason} (NDBTOP_TEST_MISSING_OK=${tool})`;
  throw new Error(`${reason}; set NDBTOP_TEST_MISSING_OK=${tool} to skip these tests instead`);
}

/** Whether `command` starts from PATH (it is asked its version). */
export function onPath(command: string): boolean {
  return !spawnSync(command, ['--version'], { stdio: 'ignore' }).error;
}
