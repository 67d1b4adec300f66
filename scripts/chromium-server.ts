// One Chromium for every browser test file of a run (scripts/run-tests.mjs starts this): prints the endpoint that
// harness.ts's launchChromium() connects to, and closes the browser when its stdin ends (the runner is done).
import { chromium } from 'playwright-core';
import { chromiumLaunchOptions } from '../renderer/e2e/chromium-launch.js';

const server = await chromium.launchServer(await chromiumLaunchOptions());
console.log(server.wsEndpoint());
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
