/**
 * Domain errors raised by services. Each interface (HTTP, GraphQL, CLI) maps them to its own
 * error format; anything else is unexpected and gets masked.
 */
export class DomainError extends Error {
  constructor(
    message: string,
    /** The input field the problem is about, when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The input breaks a rule; nothing was written. */
export class ValidationError extends DomainError {}

export interface FieldProblem {
  field: string;
  message: string;
}

/** Several inputs break rules at once; each problem names its field. Nothing was written. */
export class InvalidFields extends ValidationError {
  constructor(readonly problems: readonly FieldProblem[]) {
    super(problems.map((problem) => problem.message).join('; '), problems[0]?.field);
  }
}

/** A referenced thing does not exist (or is not visible to the caller). */
export class NotFoundError extends DomainError {}

/** The input is well-formed but collides with existing state (for example a duplicate). */
export class ConflictError extends DomainError {}

/**
 * The database kept refusing the work for a reason that passes by itself (a deadlock, a
 * serialization failure, a database file busy for too long), after it was tried again a few
 * times. Nothing of it was written. Not the caller's fault: each interface answers 503 with
 * `Retry-After`, never a 500.
 */
export class TemporarilyUnavailable extends Error {
  /** What the answer's `Retry-After` says. */
  readonly retryAfterSeconds = 1;

  constructor(options?: { cause?: unknown }) {
    super('The service is busy; try again in a moment', options);
    this.name = 'TemporarilyUnavailable';
  }
}
