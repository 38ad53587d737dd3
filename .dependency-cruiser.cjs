/**
 * The import rules `npm run gates` holds the code to (issue 23). What each rule keeps:
 * no circle of imports, type-only ones included (the store's helpers name `StoreCore`, not the
 * class that calls them: docs/decisions/277);
 * the store (memory/) and the whale-persona core (whale/) stay libraries: nothing from DSH,
 * nothing from the rooms above them (prompt/, the ground floor of frames and budgets, is under
 * them); the store is reached only at its doors, and its light doors load no engine
 * (docs/decisions/281); no shipped code reaches into tests; a feature room (guard/, night/, rails/, panel/,
 * recall/, siyuan/, worldbook/, gitsync/) is reached from outside only through its
 * two doors, `index.ts` (DSH-free: what the command line and the doctor load) and `row.ts` (its
 * DSH registration), docs/decisions/101, 104 and 093; the ground floors under the rooms (prompt/,
 * doctor/) only by their index.ts, and they reach nothing above them.
 */
/** The feature rooms (issue 23): each reached from outside only at `index.ts` or `row.ts`. */
const ROOMS = 'guard|night|panel|rails|recall|siyuan|worldbook|gitsync'
/**
 * The store's doors (docs/decisions/281): the engine and its writes (index), and the smaller
 * libraries a light reader takes alone — the file formats, the layout and dates, the file
 * primitives, the near-duplicate measure — beside the upkeep, git sync, the person's settings
 * and the ownership marks. Each names at most 30 things (tests/door-size.test.ts).
 */
const STORE_DOORS = '^memory/(index|format|paths|files|near-duplicate|upkeep|git|person|marks)\\.ts$'
/** Recall has two more doors: its pure index (`recall/core/index.ts`), which the benches use alone (docs/decisions/108), and what the build takes (`recall/core/build.ts`, docs/decisions/282). */
const DOORS = `^((${ROOMS})/(index|row)|recall/core/(index|build))\\.ts$`

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'files that import each other in a loop, type-only imports included (a type circle still ties the files to be read, and changed, together)',
      from: {},
      to: { circular: true },
    },
    {
      name: 'libraries-import-no-host',
      severity: 'error',
      comment:
        'memory/ (the store) and whale/ (whale-persona core) import nothing from DSH (Schemastery, a plain validation library, aside) and nothing from the folders and feature rooms built on them; the ground floor prompt/ (the frame, the neutraliser, the budgets) is under them',
      from: { path: '^(memory|whale)/', pathNot: '\\.test\\.ts$|/testing/' },
      to: {
        path: '^(node_modules/@deepseek-ai/(?!schemastery/)|host/|runtime/|cli/|worldbook/|guard/|night/|panel/|rails/|recall/|siyuan/|modes/|client/|bench/|scripts/|persona-ab/|i18n/|doctor/)',
      },
    },
    {
      name: 'rooms-meet-at-their-doors',
      severity: 'error',
      comment:
        'shipped code (another room, host/, runtime/, cli/, bench/, scripts/) reaches a feature room only at its index.ts (what loads without DSH) or its row.ts (its DSH registration), docs/decisions/093',
      from: { path: '^([^/]+)/', pathNot: '\\.test\\.ts$|^tests/' },
      to: { path: `^(${ROOMS})/`, pathNot: ['^$1/', DOORS] },
    },
    {
      name: 'the-store-is-reached-at-its-doors',
      severity: 'error',
      comment:
        'shipped code outside memory/ reaches the store only at one of its doors (STORE_DOORS), never at a file behind them; tests may reach the module they test (docs/decisions/281)',
      from: { pathNot: '^memory/|\\.test\\.ts$|^tests/|/testing/' },
      to: { path: '^memory/', pathNot: [STORE_DOORS, '^memory/testing/'] },
    },
    {
      name: 'light-store-doors-load-no-engine',
      severity: 'error',
      comment:
        'the doors a light reader takes alone (the formats, the layout, the file primitives, the near-duplicate measure: the recall worker, the night, the panel, the guard) load nothing of the engine, its lock, git, snapshots or the importer (docs/decisions/281)',
      from: { path: '^memory/(format|paths|files|near-duplicate)\\.ts$' },
      to: { path: '^memory/(store|engine|engine-lock|restore|snapshots|importer|migrate|git-[a-z-]+)\\.ts$', reachable: true },
    },
    {
      name: 'tests-meet-guard-and-night-at-their-doors',
      severity: 'error',
      comment:
        "the guard and the night are tested through their doors too (docs/decisions/101); the other rooms' tests may reach the module they test (docs/decisions/104)",
      from: { path: '^([^/]+)/.*\\.test\\.ts$|^(tests)/' },
      to: { path: '^(guard|night)/', pathNot: ['^$1/', '^(guard|night)/(index|row)\\.ts$'] },
    },
    {
      name: 'rooms-reach-whale-at-its-index',
      severity: 'error',
      comment: 'a feature room uses the whale-persona core (whale/) only through whale/index.ts',
      from: { path: `^(${ROOMS})/`, pathNot: '\\.test\\.ts$' },
      to: { path: '^whale/', pathNot: '^whale/index\\.ts$' },
    },
    {
      name: 'feature-index-loads-no-dsh',
      severity: 'error',
      comment:
        "a room's index.ts is what the command line and the doctor load outside DSH: nothing it reaches imports a DSH package (Schemastery, a plain library, aside)",
      from: { path: '^(guard|night|recall)/index\\.ts$' },
      to: { path: '^node_modules/@deepseek-ai/(?!schemastery/)', reachable: true },
    },
    {
      name: 'prompt-is-the-ground-floor',
      severity: 'error',
      comment: 'prompt/ (frames, the neutraliser, budgets, {{…}} grammar) is reached through its index.ts, and reaches nothing above it, the store included',
      from: { path: '^prompt/' },
      to: { path: '^(host|runtime|rails|panel|siyuan|guard|night|cli|worldbook|modes|whale|gitsync|doctor|memory|recall|i18n)/' },
    },
    {
      name: 'doctor-is-a-ground-floor',
      comment: 'doctor/ (what a doctor line is, how the lines are printed) is under every room: it reaches no room above it, only the texts (i18n/)',
      severity: 'error',
      from: { path: '^doctor/' },
      to: { path: '^(host|runtime|rails|panel|siyuan|guard|night|cli|worldbook|modes|whale|memory|prompt|gitsync)/' },
    },
    {
      name: 'ground-floors-through-their-index',
      severity: 'error',
      comment: 'outside prompt/ and doctor/, only their index.ts is imported',
      from: { path: '^([^/]+)/' },
      to: { path: '^(prompt|doctor)/', pathNot: ['^$1/', '^(prompt|doctor)/index\\.ts$'] },
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
