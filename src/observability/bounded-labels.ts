/**
 * Label values taken from requests (GraphQL operation names, error codes): the first `most`
 * distinct ones are kept as they are and every later one becomes `overflow`, so that callers
 * cannot create series without end.
 */
export class BoundedLabels {
  private readonly seen = new Set<string>();

  constructor(
    private readonly most: number,
    private readonly overflow = 'other',
  ) {}

  label(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.most) return this.overflow;
    this.seen.add(value);
    return value;
  }
}
