import { ValidationError } from '../errors.js';

/**
 * A rule of the request is broken: the whole `send` is refused and nothing is stored. `path`
 * leads from the operation's input to the offending value (`['dispositions', 3,
 * 'identifiedBy']`), for the error's `validatedPath`.
 */
export class DispositionRefused extends ValidationError {
  constructor(
    message: string,
    readonly path: ReadonlyArray<string | number>,
  ) {
    super(message, path.join('.'));
  }
}
