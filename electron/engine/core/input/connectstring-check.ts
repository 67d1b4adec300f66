import { parseConnectstring } from '../../../../native-mgm/index.js';
import { EngineRequestError } from '../engine-error.js';

/**
 * A connect string from the UI (a profile, a cluster to watch) is parsed before it is kept: a typo is refused at
 * once with the parser's own words, instead of becoming a cluster stuck in CONNECTING.
 */
export function checkConnectstring(text: string): void {
  let hosts: number;
  try {
    hosts = parseConnectstring(text).hosts.length;
  } catch (err) {
    throw new EngineRequestError('INVALID', `invalid connect string: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (hosts === 0) throw new EngineRequestError('INVALID', `invalid connect string: ${JSON.stringify(text)} names no management server`);
}
