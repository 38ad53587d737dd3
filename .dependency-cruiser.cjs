/**
 * The import rules `npm run gates` holds the code to (issue 23). What each rule keeps:
 * no circle of imports that run (a type-only import is erased and ties nothing at run time);
 * the store (memory/) and the whale-persona core (whale/) stay libraries: nothing from DSH,
 * nothing from the rooms above them; no shipped code reaches into tests; a feature room (guard/,
 * night/, rails/, panel/, siyuan/) is reached from outside only through its two doors, `index.ts`
 * (DSH-free: what the command line and the doctor load) and `row.ts` (its DSH registration),
 * docs/decisions/101 and 104; the ground floor under the prompt (prompt/) only by its index.ts,
 * and it reaches nothing above it.
 */
const FEATURES = 'guard|night|panel|rails|recall|siyuan|worldbook|whale'

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
      comment:
        'memory/ (the store) and whale/ (whale-persona core) import nothing from DSH (Schemastery, a plain validation library, aside) and nothing from the folders and feature rooms built on them',
      from: { path: '^(memory|whale)/', pathNot: '\\.test\\.ts$|/testing/' },
      to: {
        path: '^(node_modules/@deepseek-ai/(?!schemastery/)|host/|runtime/|cli/|worldbook/|guard/|night/|panel/|rails/|siyuan/|prompt/|modes/|client/|bench/|scripts/|persona-ab/|i18n/|doctor/)',
      },
    },
    {
      name: 'features-meet-at-their-doors',
      severity: 'error',
      comment: "a feature uses another feature only through that one's index.ts or row.ts, never its internals",
      from: { path: `^(${FEATURES})/`, pathNot: '\\.test\\.ts$' },
      to: { path: `^(${FEATURES})/`, pathNot: ['^$1/', `^(${FEATURES})/(index|row)\\.ts$`] },
    },
    {
      name: 'guard-and-night-reached-through-their-doors',
      severity: 'error',
      comment:
        'the rooms of issue 23 that are done: every other folder (host/, runtime/, cli/, bench/, tests/) reaches guard/ and night/ only through index.ts or row.ts',
      from: { path: '^([^/]+)/' },
      to: { path: '^(guard|night)/', pathNot: ['^$1/', '^(guard|night)/(index|row)\\.ts$'] },
    },
    {
      name: 'feature-index-loads-no-dsh',
      severity: 'error',
      comment:
        "a room's index.ts is what the command line and the doctor load outside DSH: nothing it reaches imports a DSH package (Schemastery, a plain library, aside)",
      from: { path: '^(guard|night)/index\\.ts$' },
      to: { path: '^node_modules/@deepseek-ai/(?!schemastery/)', reachable: true },
    },
    {
      name: 'features-meet-at-their-index',
      severity: 'error',
      comment:
        'a feature room (rails/, panel/, siyuan/) is reached from outside only through its index.ts (what loads without DSH) or its row.ts (its DSH registration); a test beside a module may reach that module',
      from: { pathNot: '^(rails|panel|siyuan)/|\\.test\\.ts$|^tests/' },
      to: { path: '^(rails|panel|siyuan)/', pathNot: '^(rails|panel|siyuan)/(index|row)\\.ts$' },
    },
    {
      name: 'features-meet-at-their-index-inside',
      severity: 'error',
      comment: 'one feature room reaches another only through its index.ts or row.ts',
      from: { path: '^(rails|panel|siyuan)/' },
      to: { path: '^(rails|panel|siyuan)/', pathNot: '^$1/|^(rails|panel|siyuan)/(index|row)\\.ts$' },
    },
    {
      name: 'prompt-is-the-ground-floor',
      severity: 'error',
      comment: 'prompt/ (frames, budgets, {{…}} grammar) is reached through its index.ts, and reaches no room above it',
      from: { path: '^prompt/' },
      to: { path: '^(host|runtime|rails|panel|siyuan|guard|night|cli|worldbook|modes|whale)/' },
    },
    {
      name: 'prompt-through-its-index',
      severity: 'error',
      comment: 'outside prompt/, only prompt/index.ts is imported',
      from: { pathNot: '^prompt/' },
      to: { path: '^prompt/', pathNot: '^prompt/index\\.ts$' },
    },
    {
      name: 'doctor-is-a-ground-floor',
      comment: 'doctor/ (what a doctor line is, how the lines are printed) is under every room: it reaches no room above it, only the texts (i18n/)',
      severity: 'error',
      from: { path: '^doctor/' },
      to: { path: '^(host|runtime|rails|panel|siyuan|guard|night|cli|worldbook|modes|whale|memory|prompt|gitsync)/' },
    },
    {
      name: 'doctor-through-its-index',
      severity: 'error',
      comment: 'outside doctor/, only doctor/index.ts is imported',
      from: { pathNot: '^doctor/' },
      to: { path: '^doctor/', pathNot: '^doctor/index\\.ts$' },
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
    // node_modules is read (so the rules see an import of a DSH package) but not followed into.
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|\\.cache)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
}
