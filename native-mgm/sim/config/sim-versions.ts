import { parseVersionText } from '../../version.js';

/**
 * The release the simulator plays for each family the references describe, by family name: spec §5.5's own
 * examples (7.6.36, 8.0.40, 8.4.3, 9.1.0), so a family named alone is a release the spec knows by number.
 */
export const SIM_RELEASES: ReadonlyMap<string, string> = new Map([
  ['7.6', '7.6.36'],
  ['8.0', '8.0.40'],
  ['8.4', '8.4.3'],
  ['9', '9.1.0'],
]);

/**
 * `sim --version`: a release (`8.0.22`), or a family (`7.6`, `7.6.x`, `8.4.x`, `9`, `9.x`) for its release above.
 * Throws on anything else, naming what it takes.
 */
export function simVersion(text: string): string {
  const family = text.replace(/\.x$/i, '');
  const release = SIM_RELEASES.get(family);
  if (release) return release;
  parseVersionText(text);
  return text;
}
