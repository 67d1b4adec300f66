/** Where serve mode's WebSocket is, from the page's own address: same host, `/ws`, the page's `?token=`. */
export function webSocketTarget(location: Pick<Location, 'protocol' | 'host' | 'search'>): { url: string; token: string | undefined } {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const token = new URLSearchParams(location.search).get('token') ?? undefined;
  return { url: `${scheme}//${location.host}/ws`, token };
}
