/**
 * Dependency rules of src/ (DESIGN §7), checked by `npm run lint:deps` in CI:
 * no import cycles, and the HTTP layer (routers, route and page modules) never reaches the
 * database: it is handed finished services. Only the data layer (src/db, stores, migrations)
 * imports knex.
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
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.cjs', '.d.ts'] },
  },
};
