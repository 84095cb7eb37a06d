/**
 * Dependency rules of src/ (DESIGN §7), checked by `npm run lint:deps` in CI:
 * no import cycles, and the HTTP layer (routers, route and page modules) never reaches the
 * database: it is handed finished services. Only the data layer (src/db, stores, migrations)
 * imports knex. The GraphQL gateway imports no API module, and API modules reach it only through
 * its contract (src/graphql/api.ts). The interview's state has one owner, src/interviews/lifecycle:
 * the room and recordings reach it through its services, never its store, rules or notices.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: split the shared part out, or invert the dependency.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'http-layer-never-reaches-the-database',
      severity: 'error',
      comment:
        'Routers, route and page modules get services from their compose module; they never import the database or knex.',
      from: { path: '^src/(.+/(router|[a-z-]+-routes|[a-z-]+-pages|pages)|http/health)\\.ts$' },
      to: { path: '^(src/db/database\\.ts|node_modules/knex/)' },
    },
    {
      name: 'only-the-data-layer-imports-knex',
      severity: 'error',
      comment: 'SQL lives in stores (*-store.ts), src/db and migrations.',
      from: {
        path: '^src/',
        pathNot: '^src/(db/.+|.+-store\\.ts)$',
      },
      // Type-only imports (`import type { Knex }`) build no SQL.
      to: { path: '^node_modules/knex/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'the-gateway-knows-no-api',
      severity: 'error',
      comment:
        'src/graphql serves whatever APIs src/apis.ts registers (DESIGN §9): it imports its own ' +
        'infrastructure only (the database for its persisted documents), never an API module ' +
        '(src/interviews, the next APIs) or another capability.',
      from: { path: '^src/graphql/' },
      to: {
        path: '^src/',
        pathNot:
          '^src/(db|graphql|http|oauth|observability|validation)/|^src/(byte-budget|clock|config|errors|shared-dependencies)\\.ts$',
      },
    },
    {
      name: 'apis-reach-the-gateway-through-its-contract',
      severity: 'error',
      comment:
        'An API module imports from src/graphql only its public contract, src/graphql/api.ts; ' +
        "the composition roots (src/server.ts, src/apis.ts, the CLI's src/cli/services.ts) " +
        'compose the gateway.',
      from: {
        path: '^src/',
        pathNot: '^src/(graphql/|server\\.ts$|apis\\.ts$|cli/services\\.ts$)',
      },
      to: { path: '^src/graphql/', pathNot: '^src/graphql/api\\.ts$' },
    },
    {
      name: 'the-lifecycle-owns-the-interview-state',
      severity: 'error',
      comment:
        'Every transition of an interview goes through src/interviews/lifecycle (its services: ' +
        'InterviewLifecycleService, RoomLifecycle, RecordingLifecycle); the room and recordings ' +
        'keep their own tables and never lock, settle, move or notify an event themselves.',
      from: { path: '^src/(room|recordings)/' },
      to: {
        path: '^src/interviews/(lifecycle/(lifecycle-store|locked-events|settle|state-machines|event-ending|transition-guards)|interview-notices|[a-z-]+-store)\\.ts$',
      },
    },
    {
      name: 'only-the-lifecycle-builds-its-store',
      severity: 'error',
      comment:
        'LifecycleStore is the SQL of the interview state; only src/interviews/lifecycle uses it ' +
        '(composeLifecycle builds it), so no other module can change that state by itself.',
      from: { path: '^src/', pathNot: '^src/interviews/lifecycle/' },
      to: { path: '^src/interviews/lifecycle/lifecycle-store\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.cjs', '.d.ts'] },
  },
};
