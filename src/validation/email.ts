export const MAX_EMAIL_LENGTH = 254;
const MAX_LOCAL_PART_LENGTH = 64;
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+$/;
const DOMAIN_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

/**
 * A pragmatic address check (the HTML form rules, plus length limits): one `@`, a plain local
 * part, and a domain of at least two DNS labels. Quoted local parts and IP literals are refused
 * because no mail system a hiring workflow sends to needs them.
 */
export function emailProblem(value: string): string | undefined {
  if (value.length > MAX_EMAIL_LENGTH) return `is longer than ${MAX_EMAIL_LENGTH} characters`;
  const at = value.lastIndexOf('@');
  if (at <= 0 || at !== value.indexOf('@')) return 'must contain exactly one @ after a local part';
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.length > MAX_LOCAL_PART_LENGTH) return 'has a local part longer than 64 characters';
  if (
    !LOCAL_PART.test(local) ||
    local.startsWith('.') ||
    local.endsWith('.') ||
    local.includes('..')
  ) {
    return 'has characters that are not allowed before the @';
  }
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => DOMAIN_LABEL.test(label))) {
    return 'must have a domain such as example.com after the @';
  }
  return undefined;
}

export function isValidEmail(value: string): boolean {
  return emailProblem(value) === undefined;
}
