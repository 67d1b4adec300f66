/**
 * An absolute path: POSIX (a slash and more, at the start or after a space, quote, bracket or `=`) or a Windows
 * drive's. What a file system error quotes (`open '/root/.ndbtop/…'`).
 */
const ABSOLUTE_PATH = /(?<=^|[\s'"`(=])(?:\/|[A-Za-z]:\\)[^\s'"`()]+/g;

/**
 * `text` without the server's paths, for those who may not see them (serve's viewers): each of `named` by its name,
 * any other absolute path as "(a path on the server)".
 */
export function pathFree(text: string, named: ReadonlyArray<readonly [path: string, name: string]> = []): string {
  let out = text;
  for (const [path, name] of named) if (path !== '') out = out.split(path).join(name);
  return out.replace(ABSOLUTE_PATH, '(a path on the server)');
}
