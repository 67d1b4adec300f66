const waiting: (() => void)[] = [];
let channel: MessageChannel | null = null;

/**
 * Resolves in a task of its own, soon: a message the page posts to itself (no timer clamping), one per call and in
 * the order asked, so what the link delivered is still applied in the order it arrived.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!channel) {
      const opened = new MessageChannel();
      opened.port1.onmessage = () => {
        waiting.shift()?.();
        // Closed when nothing waits (one message per waiter, so none is in flight): an open port keeps Node alive.
        if (waiting.length === 0) {
          opened.port1.close();
          channel = null;
        }
      };
      channel = opened;
    }
    channel.port2.postMessage(null);
  });
}
