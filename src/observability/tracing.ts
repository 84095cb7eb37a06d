import { register } from 'node:module';
import type { Logger } from 'pino';

/** The OpenTelemetry SDK once started: flushes and stops it. */
export interface Tracing {
  shutdown(): Promise<void>;
}

export const SERVICE_NAME = 'hiring-partner-api';

/**
 * Starts OpenTelemetry tracing (OTEL_EXPORTER_OTLP_ENDPOINT is set): spans for incoming HTTP
 * requests, Express routes and middleware, GraphQL parse/validate/execute and resolvers, and
 * database statements (knex, and pg beneath it), exported over OTLP/HTTP. The exporter reads
 * the standard OTEL_EXPORTER_OTLP_* variables. Traces only: metrics are /metrics' job.
 *
 * Must run before express, knex, pg or graphql is imported. Modules loaded through `import`
 * are patched by import-in-the-middle's loader hook, registered here first; those loaded
 * with `require` by the hook the instrumentations install when they are enabled.
 */
export async function startTracing(logger: Logger): Promise<Tracing> {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [
    { NodeSDK },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    { ATTR_SERVICE_NAME },
    { HttpInstrumentation },
    { ExpressInstrumentation },
    { GraphQLInstrumentation },
    { KnexInstrumentation },
    { PgInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/semantic-conventions'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-graphql'),
    import('@opentelemetry/instrumentation-knex'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: SERVICE_NAME }),
    traceExporter: new OTLPTraceExporter(),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation(),
      new ExpressInstrumentation(),
      // Trivial resolvers (a field read off its parent) would double the spans for nothing.
      new GraphQLInstrumentation({ ignoreTrivialResolveSpans: true }),
      new KnexInstrumentation(),
      new PgInstrumentation(),
    ],
  });
  sdk.start();
  logger.info('tracing on: exporting spans over OTLP/HTTP');
  return {
    shutdown: () =>
      sdk.shutdown().catch((error: unknown) => {
        logger.warn({ err: error }, 'tracing shutdown failed: some spans were not exported');
      }),
  };
}
