// ESLint rule `ndbtop/no-type-cycle`: an import circle that a type-only import closes. import-x/no-cycle leaves
// those out by design (they vanish at run time, and it has no option to count them), yet they are the same knot:
// two modules that cannot be understood, moved or tested apart. This rule reports exactly the circles import-x
// does not, those with at least one type-only edge, so each circle is reported once, by one rule.
// The graph is read with the TypeScript compiler's parser (the same one tsc uses to tell `import type` apart);
// only relative specifiers are followed, as ES modules name them (`./x.js` for `./x.ts`).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

/** A module's imports: the resolved file and whether the import carries types only. */
const graph = new Map();

function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  const candidates = /\.js$/.test(specifier) ? [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base] : [base, `${base}.ts`, `${base}.tsx`];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

const typeOnlyImport = (clause) =>
  clause.isTypeOnly || (!clause.name && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((e) => e.isTypeOnly));

/** Every import of a module's text: declarations, re-exports, `import()` calls and `import('x')` types. */
function importsOf(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const edges = [];
  const add = (specifier, typeOnly, node) => {
    const to = ts.isStringLiteralLike(specifier) ? resolveSpecifier(file, specifier.text) : null;
    if (to) edges.push({ to, typeOnly, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node.importClause ? typeOnlyImport(node.importClause) : false, node);
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier) add(node.moduleSpecifier, node.isTypeOnly, node);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true, node);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0]) add(node.arguments[0], false, node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** A module's imports as read from disk, kept while the file is unchanged. */
function storedImports(file) {
  const { mtimeMs, size } = statSync(file);
  const stamp = `${mtimeMs}:${size}`;
  const known = graph.get(file);
  if (known && known.stamp === stamp) return known.edges;
  const edges = importsOf(file, readFileSync(file, 'utf8'));
  graph.set(file, { stamp, edges });
  return edges;
}

/**
 * A way from `start` back to `file` that passes a type-only import (or any way, when `typed` already says the first
 * step was one), as the files it passes; null when there is none. Breadth first over (module, typed so far).
 */
function typedWayBack(start, typed, file) {
  const seen = new Set([`${start}|${typed}`]);
  const queue = [{ at: start, typed, route: [start] }];
  while (queue.length > 0) {
    const { at, typed: sofar, route } = queue.shift();
    for (const edge of storedImports(at)) {
      const next = sofar || edge.typeOnly;
      if (edge.to === file) {
        if (next) return route;
        continue;
      }
      const key = `${edge.to}|${next}`;
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push({ at: edge.to, typed: next, route: [...route, edge.to] });
    }
  }
  return null;
}

const noTypeCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid an import circle closed by a type-only import (import-x/no-cycle reports the others).' },
    schema: [],
    messages: { cycle: 'Import circle closed by a type-only import: {{route}}' },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!/\.tsx?$/.test(file) || !existsSync(file)) return {};
    return {
      Program(program) {
        const root = context.cwd;
        for (const edge of importsOf(file, context.sourceCode.text)) {
          if (edge.to === file) continue;
          const route = typedWayBack(edge.to, edge.typeOnly, file);
          if (!route) continue;
          const loc = { start: { line: edge.line, column: 0 }, end: { line: edge.line, column: 0 } };
          context.report({ node: program, loc, messageId: 'cycle', data: { route: [file, ...route, file].map((f) => relative(root, f)).join(' -> ') } });
        }
      },
    };
  },
};

export default { rules: { 'no-type-cycle': noTypeCycle } };
