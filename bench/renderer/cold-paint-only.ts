import { buildRenderer } from '../../renderer/e2e/harness.js';
import { coldFirstPaint } from './cold-paint.js';

/** The renderer part's first figure alone (its hops), on a build of its own. */
export async function coldPaintOnly(): Promise<void> {
  console.log('== renderer cold first paint');
  const built = await buildRenderer();
  try {
    await coldFirstPaint(built.dir);
  } finally {
    await built.remove();
  }
}
