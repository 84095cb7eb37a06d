import type {
  SourcedJobPostingFineGrainedSalaryInput,
  SourcedJobPostingSalaryInput,
} from '../../../generated/graphql.js';
import {
  InputProblem,
  pathText,
  requiredLine,
  type InputPath,
} from '../../validation/input-text.js';
import type { StoredSalary } from '../posting.js';

export const SALARY_PERIODS = ['DAY', 'HOUR', 'MILE', 'MONTH', 'WEEK', 'YEAR', 'TASK', 'SHIFT'];

/** The platform's message for a maximum below the minimum (platform-apis.md §3.2). */
export const MAXIMUM_BELOW_MINIMUM = 'Maximum amount cannot be less than minimum amount';

/** Checks a salary: amounts above 0, maximum not below minimum, a known period. */
export function checkSalary(
  salary: SourcedJobPostingSalaryInput,
  path: InputPath,
  inJapan: boolean,
): StoredSalary {
  const minimum = BigInt(salary.minimumMinor);
  if (minimum <= 0n) {
    throw new InputProblem('Minimum amount must be greater than 0', [...path, 'minimumMinor']);
  }
  const maximum = salary.maximumMinor == null ? null : BigInt(salary.maximumMinor);
  if (maximum !== null && maximum <= 0n) {
    throw new InputProblem('Maximum amount must be greater than 0', [...path, 'maximumMinor']);
  }
  if (maximum !== null && maximum < minimum) {
    throw new InputProblem(MAXIMUM_BELOW_MINIMUM, [...path, 'maximumMinor']);
  }
  if (!SALARY_PERIODS.includes(salary.period)) {
    throw new InputProblem(
      `${pathText([...path, 'period'])} must be one of ${SALARY_PERIODS.join(', ')}`,
      [...path, 'period'],
    );
  }
  const task = salary.taskBasedSalaryInformation;
  if (salary.period === 'TASK' && !task) {
    throw new InputProblem('A TASK salary period needs taskBasedSalaryInformation', [
      ...path,
      'taskBasedSalaryInformation',
    ]);
  }
  const fineGrained = salary.fineGrainedSalaryInformation;
  if (inJapan && !fineGrained) {
    throw new InputProblem('fineGrainedSalaryInformation is required for jobs in Japan', [
      ...path,
      'fineGrainedSalaryInformation',
    ]);
  }
  return {
    currency: salary.currency,
    minimumMinor: minimum.toString(),
    maximumMinor: maximum === null ? null : maximum.toString(),
    period: salary.period,
    fineGrainedSalaryInformation: fineGrained
      ? checkFineGrained(fineGrained, salary.period, [...path, 'fineGrainedSalaryInformation'])
      : null,
    taskBasedSalaryInformation: task
      ? {
          taskDescription: requiredLine(
            task.taskDescription,
            [...path, 'taskBasedSalaryInformation', 'taskDescription'],
            200,
          ),
        }
      : null,
  };
}

function checkFineGrained(
  details: SourcedJobPostingFineGrainedSalaryInput,
  period: string,
  path: InputPath,
): Record<string, unknown> {
  if (details.totalSalaryMinor != null && BigInt(details.totalSalaryMinor) <= 0n) {
    throw new InputProblem('totalSalaryMinor must be greater than 0', [
      ...path,
      'totalSalaryMinor',
    ]);
  }
  for (const hours of ['workingHours', 'totalOvertimeHours', 'statutoryOvertimeHours'] as const) {
    const value = details[hours];
    if (value != null && (!Number.isFinite(value) || value < 0)) {
      throw new InputProblem(`${hours} must not be negative`, [...path, hours]);
    }
  }
  if (period === 'HOUR' && details.workingHours != null && details.workingHours !== 1) {
    throw new InputProblem('workingHours must be 1 when the salary period is HOUR', [
      ...path,
      'workingHours',
    ]);
  }
  if (details.fixedOvertimeSalaryMinor != null && BigInt(details.fixedOvertimeSalaryMinor) < 0n) {
    throw new InputProblem('fixedOvertimeSalaryMinor must not be negative', [
      ...path,
      'fixedOvertimeSalaryMinor',
    ]);
  }
  return Object.fromEntries(Object.entries(details).filter(([, value]) => value != null));
}
