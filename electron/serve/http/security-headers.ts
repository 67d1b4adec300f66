/**
 * The one Content-Security-Policy of the UI, for serve mode's HTTP responses and the desktop shell's app://
 * protocol. It must allow at least what renderer/index.html's own meta CSP allows, since browsers enforce both:
 * inline styles (React style attributes, chart libraries), no inline or remote script, no plugins, no framing.
 */
export function contentSecurityPolicy(): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    // Its own origin only: serve mode's HTTP and WebSocket ('self' covers ws:/wss: to the same host, CSP 3); the
    // desktop's app://ndbtop, where the page uploads a recording (everything else goes over IPC).
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The same for serve mode's HTTP answers and the desktop's app:// ones. */
export function securityHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
  };
}
