export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** Prints a command's result as JSON (`--json`) or as the given human-readable lines. */
export function printResult(io: CliIo, json: boolean, data: unknown, lines: () => string[]): void {
  io.stdout(json ? `${JSON.stringify(data, isoTimestamps, 2)}\n` : `${lines().join('\n')}\n`);
}

/** Rows keep instants as epoch milliseconds in `*_at` columns; JSON output shows ISO 8601. */
function isoTimestamps(key: string, value: unknown): unknown {
  return key.endsWith('_at') && typeof value === 'number' ? new Date(value).toISOString() : value;
}
