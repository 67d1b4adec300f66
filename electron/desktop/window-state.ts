import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';

const WindowStateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(400).max(20_000),
  height: z.number().int().min(300).max(20_000),
  maximized: z.boolean(),
  fullScreen: z.boolean(),
});
export type WindowState = z.infer<typeof WindowStateSchema>;

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1400, height: 900, maximized: false, fullScreen: false };

/** A missing or damaged file gives the default window; it is only geometry, never worth failing start-up for. */
export async function loadWindowState(file: string): Promise<WindowState> {
  try {
    const parsed = WindowStateSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    return parsed.success ? parsed.data : DEFAULT_WINDOW_STATE;
  } catch {
    return DEFAULT_WINDOW_STATE;
  }
}

/** Written to a temporary file and renamed, so a crash mid-write never leaves half a file. */
export async function saveWindowState(file: string, state: WindowState): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(WindowStateSchema.parse(state))}\n`);
  await rename(tmp, file);
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Saved positions from a monitor that is gone would open the window off screen: keep them only if visible. */
export function visiblePosition(state: WindowState, workAreas: Rect[]): Pick<WindowState, 'x' | 'y'> {
  const { x, y } = state;
  if (x === undefined || y === undefined) return {};
  const visible = workAreas.some((a) => x + 100 > a.x && x < a.x + a.width - 100 && y >= a.y && y < a.y + a.height - 50);
  return visible ? { x, y } : {};
}
