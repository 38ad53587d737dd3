/**
 * The import rules `npm run gates` holds the code to (issue 23). What each rule keeps:
 * no circle of imports that run (a type-only import is erased and ties nothing at run time);
 * the store (memory/) and the whale-persona core (whale/) stay libraries: nothing from DSH,
 * nothing from the rooms above them; no shipped code reaches into tests.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'files that import each other in a loop (type-only imports do not count: they vanish at run time)',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'libraries-import-no-host',
      severity: 'error',
      comment: 'memory/ (the store) and whale/ (whale-persona core) import nothing from DSH and nothing from the folders built on them',
      from: { path: '^(memory|whale)/', pathNot: '\\.test\\.ts$|/testing/' },
      to: { path: '^(node_modules/@deepseek-ai/|host/|runtime/|cli/|worldbook/|modes/|client/|bench/|scripts/|persona-ab/|i18n/)' },
    },
    {
      name: 'shipped-code-reaches-no-tests',
      severity: 'error',
      comment: 'code outside tests never imports a test or the test harness',
      from: { pathNot: '\\.test\\.ts$|^tests/|/testing/|^bench/' },
      to: { path: '\\.test\\.ts$|^tests/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|\\.cache|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
