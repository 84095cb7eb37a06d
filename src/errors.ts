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

/** A referenced thing does not exist (or is not visible to the caller). */
export class NotFoundError extends DomainError {}

/** The input is well-formed but collides with existing state (for example a duplicate). */
export class ConflictError extends DomainError {}
