// The parser eslint-plugin-import-x reads imported modules with (for import-x/no-cycle): typescript-estree's
// syntax tree alone. The linter's own parser (typescript-eslint's parseForESLint) also builds a scope analysis
// that import-x never reads, and every module is parsed a second time for the import graph, so skipping it keeps
// `npm run lint` from getting much slower. Visitor keys are given so import-x caches each module's facts.
const { parse } = require('@typescript-eslint/typescript-estree');
const { visitorKeys } = require('@typescript-eslint/visitor-keys');

exports.parseForESLint = (code, options) => ({ ast: parse(code, { ...options, jsx: /\.tsx$/.test(options.filePath ?? '') }), visitorKeys });
