// One Chromium for every browser test file of a run (scripts/test-runner/run-tests.mjs starts this): prints the endpoint that
// harness.ts's launchChromium() connects to, and closes the browser when its stdin ends (the runner is done). Its last
// line is the CPU ms of the browser's processes that reaping this process will not count (`orphaned-cpu-ms N`).
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../../renderer/e2e/chromium-launch.js';
import { zygoteCpuMs } from './zygote-cpu.js';

const server = await chromium.launchServer(await chromiumLaunchOptions());
console.log(server.wsEndpoint());
process.stdin.resume();
process.stdin.on('end', () => {
  const pid = server.process().pid;
  const orphaned = pid === undefined ? null : zygoteCpuMs(pid);
  void server.close().then(() => {
    console.log(`orphaned-cpu-ms ${orphaned ?? ''}`);
    process.exit(0);
  });
});
