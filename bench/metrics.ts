/** The counter whose growth per request is reported as "SQL statements/request". */
const STATEMENT_COUNTER = 'db_query_duration_seconds_count';

/**
 * Reads the service's `/metrics` (Prometheus text) with its bearer token and returns the sum of
 * `db_query_duration_seconds_count` over every label set; undefined when the service has no
 * metrics (404) or does not export the series.
 */
export async function statementsExecuted(
  serviceUrl: string,
  metricsToken: string,
): Promise<number | undefined> {
  const response = await fetch(`${serviceUrl}/metrics`, {
    headers: { authorization: `Bearer ${metricsToken}` },
  });
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`GET /metrics answered ${response.status}`);
  return sumOfSeries(await response.text(), STATEMENT_COUNTER);
}

/** Sum of every sample of one series (`name` or `name{labels}`) in Prometheus text format. */
export function sumOfSeries(text: string, name: string): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const rest = line.slice(name.length);
    if (rest[0] !== ' ' && rest[0] !== '{') continue;
    const value = Number(
      rest
        .slice(rest.lastIndexOf('}') + 1)
        .trim()
        .split(' ')[0],
    );
    if (Number.isFinite(value)) sum = (sum ?? 0) + value;
  }
  return sum;
}
