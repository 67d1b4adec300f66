// One Chromium for every browser test file of a run (scripts/run-tests.mjs starts this): prints the endpoint that
// harness.ts's launchChromium() connects to, and closes the browser when its stdin ends (the runner is done).
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../renderer/e2e/harness.js';

const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
console.log(server.wsEndpoint());
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
