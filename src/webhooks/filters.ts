/**
 * An endpoint's filters as stored: `,a,b,` (so that the outbox matches one value with LIKE
 * '%,a,%'), or '' for "everything".
 */
export function storedFilter(values: readonly string[]): string {
  const unique = [...new Set(values)];
  return unique.length === 0 ? '' : `,${unique.join(',')},`;
}

export function filterValues(stored: string): string[] {
  return stored === '' ? [] : stored.slice(1, -1).split(',');
}
