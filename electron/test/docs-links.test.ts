import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { ROOT as root } from '../../scripts/test-source.js';
import { runCli } from '../cli/test/run-cli.js';

// The docs are a map a newcomer walks: README.md a page, docs/ARCHITECTURE.md a map, the rest in guides under docs/
// and READMEs beside the code. A link that leads nowhere or a command the CLI does not have breaks that walk.

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'release', '.git', '.cache']);

/** README.md, every Markdown file under docs/, and every room's README.md. */
function docFiles(base: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, underDocs: boolean): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path, underDocs || (dir === base && entry.name === 'docs'));
      } else if (entry.name.endsWith('.md') && (underDocs || entry.name === 'README.md')) {
        found.push(path);
      }
    }
  };
  walk(base, false);
  return found.sort();
}

/** Markdown without fenced code blocks and code spans: a link inside code is an example, not a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The targets of inline links, images and reference definitions. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/!?\[[^\]]*\]\(\s*([^)\s]+)(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '');
  const references = [...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1] ?? '');
  return [...inline, ...references];
}

/** GitHub's anchor of a heading: its text lower-cased, punctuation dropped, each space a hyphen; repeats get -1, -2. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const headings = markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm);
  for (const [, heading = ''] of headings) {
    const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_]/g, '');
    const base = text.trim().toLowerCase().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every relative link of `files` that names no file inside `base`, or an anchor its file has no heading for. */
function brokenLinks(base: string, files: readonly string[]): string[] {
  const broken: string[] = [];
  for (const file of files) {
    const where = relative(base, file);
    for (const target of linkTargets(readFileSync(file, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path = '', anchor] = target.split('#', 2);
      const to = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (relative(base, to).startsWith('..') || !existsSync(to)) {
        broken.push(`${where}: ${target} (no such file)`);
      } else if (anchor !== undefined && !(statSync(to).isFile() && anchors(readFileSync(to, 'utf8')).has(anchor))) {
        broken.push(`${where}: ${target} (no heading #${anchor})`);
      }
    }
  }
  return broken;
}

const lineCount = (path: string): number => readFileSync(join(root, path), 'utf8').replace(/\n$/, '').split('\n').length;

test('the checker finds a link to a missing file and an anchor with no heading, and passes good ones', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ndbtop-docs-'));
  try {
    writeFileSync(join(dir, 'README.md'), '# Top\n\n[ok](guide.md#the-guide-ndbtop) [ok too](#top) `[code](nowhere.md)`\n');
    writeFileSync(join(dir, 'guide.md'), '## The guide: `ndbtop`\n\n[gone](gone.md) [bad anchor](README.md#nothing) [out](../x.md)\n');
    assert.deepEqual(brokenLinks(dir, [join(dir, 'README.md'), join(dir, 'guide.md')]), [
      'guide.md: gone.md (no such file)',
      'guide.md: README.md#nothing (no heading #nothing)',
      'guide.md: ../x.md (no such file)',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every relative link in README.md, docs/ and the rooms\' READMEs leads to a file, and every anchor to a heading', () => {
  const files = docFiles(root);
  assert.ok(files.includes(join(root, 'README.md')) && files.includes(join(root, 'docs', 'ARCHITECTURE.md')), 'the two front doors are found');
  assert.ok(linkTargets(readFileSync(join(root, 'README.md'), 'utf8')).length >= 10, 'the README links its guides');
  assert.deepEqual(brokenLinks(root, files), []);
});

test('README.md is a page and docs/ARCHITECTURE.md a map: at most 200 and 300 lines', () => {
  assert.ok(lineCount('README.md') <= 200, `README.md has ${lineCount('README.md')} lines`);
  assert.ok(lineCount('docs/ARCHITECTURE.md') <= 300, `docs/ARCHITECTURE.md has ${lineCount('docs/ARCHITECTURE.md')} lines`);
});

/** The sub-commands a commander help text lists under "Commands:", without commander's own `help`. */
function helpCommands(help: string): Set<string> {
  const section = help.split(/^Commands:$/m)[1] ?? '';
  return new Set([...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1] ?? '').filter((name) => name !== 'help'));
}

/** Each command the README's table names, as its words: `ndbtop run start NAME` is ['run', 'start'], the app []. */
function tableCommands(readme: string): string[][] {
  const table = readme.split(/^## Commands$/m)[1]?.split(/^## /m)[0] ?? '';
  const firstCells = [...table.matchAll(/^\| (.+?) \|/gm)].map((m) => m[1] ?? '').filter((cell) => cell.includes('`'));
  return firstCells.flatMap((cell) =>
    [...cell.matchAll(/`([^`]+)`/g)].map((m) => {
      const words = (m[1] ?? '').split(/\s+/);
      if (words[0] === 'ndbtop') words.shift();
      const command: string[] = [];
      for (const word of words) {
        if (!/^[a-z][a-z-]*$/.test(word)) break;
        command.push(word);
      }
      return command;
    }),
  );
}

test('every command in the README\'s command table is one `ndbtop --help` lists, and every command it lists is in the table', async () => {
  const commands = tableCommands(readFileSync(join(root, 'README.md'), 'utf8'));
  assert.ok(commands.length >= 10, `the README has a command table (${commands.length} commands found)`);
  const top = await runCli(['--help']);
  assert.equal(top.code, 0, top.stderr);
  const listed = helpCommands(top.stdout);
  assert.ok(listed.size >= 10, top.stdout);
  const subHelp = new Map<string, Set<string>>();
  for (const [name, sub] of commands) {
    if (name === undefined) continue; // `ndbtop [-c CS]`: the program itself, the desktop app
    assert.ok(listed.has(name), `ndbtop ${name} is in the README's table but not in ndbtop --help`);
    if (sub === undefined) continue;
    if (!subHelp.has(name)) subHelp.set(name, helpCommands((await runCli([name, '--help'])).stdout));
    assert.ok(subHelp.get(name)?.has(sub), `ndbtop ${name} ${sub} is in the README's table but not in ndbtop ${name} --help`);
  }
  const named = new Set(commands.map(([name]) => name));
  for (const name of listed) assert.ok(named.has(name), `ndbtop ${name} is in ndbtop --help but not in the README's command table`);
});
