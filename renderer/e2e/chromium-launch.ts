import { chromium, type LaunchOptions } from 'playwright-core';

/** Debian's Chromium; NDBTOP_CHROMIUM names another build (a CI runner's preinstalled Chrome). */
export const CHROMIUM = process.env.NDBTOP_CHROMIUM || '/usr/bin/chromium';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Headless Chromium builds two WebUI omnibox-popup renderers for every window, and every context a test opens is a
 * window: nobody looks at them, and they were over half of what opening a page costs (six contexts, 17–18 s of
 * CPU with them, 7 s without).
 */
export const EXTRA_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

let options: Promise<LaunchOptions> | undefined;

/**
 * Chromium honours only the last `--disable-features` of its command line, and Playwright passes a list of its
 * own (features that break automation), which it does not export: ours replaces it with that list plus ours, read
 * from the command line of a browser Playwright launched, once a process.
 */
export function chromiumLaunchOptions(): Promise<LaunchOptions> {
  options ??= (async () => {
    const probe = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const playwrights = probe.process().spawnargs.find((a) => a.startsWith('--disable-features='));
    await probe.close();
    const ours = EXTRA_DISABLED_FEATURES.join(',');
    if (!playwrights) return { executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, `--disable-features=${ours}`] };
    return { executablePath: CHROMIUM, ignoreDefaultArgs: [playwrights], args: [...CHROMIUM_ARGS, `${playwrights},${ours}`] };
  })();
  return options;
}
