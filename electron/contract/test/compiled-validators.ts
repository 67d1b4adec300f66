import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contractValidatorsModule } from '../../../scripts/contract-validators.js';
import { compiledPageValidators, type CompiledValidators, type PageValidators } from '../page-safe/page-validators.js';

/** The page's validators exactly as the build makes them, imported into Node from a module written the same way. */
export async function loadCompiledPageValidators(): Promise<PageValidators> {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-validators-'));
  try {
    const file = join(dir, 'contract-validators.mjs');
    await writeFile(file, contractValidatorsModule());
    return compiledPageValidators((await import(pathToFileURL(file).href)) as CompiledValidators);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
