/**
 * Commands a TLS-requiring server still answers on a clear-text session (spec §9, auth "B" in §4.0); all
 * others get the authorization failure of §1.4. The server checks this once the request is parsed (whether it
 * refuses before reading the arguments is not settled by the spec).
 */
const ALLOWED_WITHOUT_TLS = new Set(['get version', 'set clientversion', 'start tls', 'end session', 'check connection', 'get mgmd nodeid']);

export const TLS_REQUIRED_REPLY = 'Authorization failed\nError: Requires TLS\n\n';

export function isRefusedWithoutTls(sessionHasTls: boolean, command: string): boolean {
  return !sessionHasTls && !isBootstrapCommand(command);
}

/** The bootstrap commands (auth "B"): answered before anything else a session may need. */
export function isBootstrapCommand(command: string): boolean {
  return ALLOWED_WITHOUT_TLS.has(command);
}
