// Which test files scripts/test-runner/run-tests.mjs runs where.

/**
 * Files whose checks need POSIX processes: signals that a process handles (SIGINT/SIGTERM end it gracefully, SIGSTOP
 * freezes it) or process groups. Windows has neither (a child's kill() there ends it at once), so on Windows they are
 * not run and the run says which and why.
 */
export const POSIX_ONLY = {
  'electron/cli/test/cli.test.ts': 'events and serve stopped by SIGINT/SIGTERM',
  'electron/cli/test/events-signal.test.ts': 'SIGINT barrages',
  'electron/cli/test/progress-bar-cli.test.ts': "SIGTERM to the process group",
  'electron/cli/test/record-report.test.ts': 'record stopped by SIGINT/SIGTERM',
  'electron/cli/test/tls-cli.test.ts': 'events and serve stopped by SIGINT',
  'electron/engine/test/faults.test.ts': 'mgmd frozen with SIGSTOP',
  'electron/serve/metrics/test/deploy-files.test.ts': 'serve stopped by SIGTERM, as systemd does',
  'electron/serve/test/serve-cli.test.ts': 'serve and replay stopped by SIGTERM/SIGINT',
  'electron/test/hostile.test.ts': 'CLI processes stopped by SIGTERM',
};
