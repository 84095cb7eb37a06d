import { multiLineTextProblem, singleLineTextProblem } from '../security/text-safety.js';
import { DispositionRefused } from './refusal.js';
import { MAX_DETAILS_LENGTH, MAX_LABEL_LENGTH } from './vocabulary.js';

type Path = ReadonlyArray<string | number>;

/** An identifier, label or name: one line of at most MAX_LABEL_LENGTH characters. */
export function checkedLabel(value: string, path: Path): string {
  return checkedText(value, path, MAX_LABEL_LENGTH, singleLineTextProblem(value));
}

/** Free text (`rawDispositionDetails`): at most MAX_DETAILS_LENGTH characters. */
export function checkedDetails(value: string, path: Path): string {
  return checkedText(value, path, MAX_DETAILS_LENGTH, multiLineTextProblem(value));
}

function checkedText(value: string, path: Path, max: number, problem: string | undefined) {
  const name = nameOf(path);
  if (value.length > max) {
    throw new DispositionRefused(`${name} must be at most ${max} characters`, path);
  }
  if (problem) throw new DispositionRefused(`${name} ${problem}`, path);
  return value;
}

/** `dispositions[3].identifiedBy.ittk` for the path to it. */
export function nameOf(path: Path): string {
  return path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : index ? `.${part}` : part))
    .join('');
}
