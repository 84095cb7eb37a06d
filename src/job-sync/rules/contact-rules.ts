import type { SourcedJobPostingJobContactInput } from '../../../generated/graphql.js';
import {
  boundedList,
  InputProblem,
  optionalLine,
  pathText,
  type InputPath,
} from '../../validation/input-text.js';
import type { PostingContact } from '../posting.js';

/** The platform's messages (platform-apis.md §3.2). */
export const NO_CONTACT = 'No contacts found with type "contact"';
export const SEVERAL_CONTACTS = 'Multiple contacts with type "contact" found';

const CONTACT_TYPES = ['contact', 'hiringManager', 'recruiter'];
const PHONE = /^\+?[0-9 ().-]{5,30}$/;

/** Exactly one contact of type `contact`; each type known; phone numbers well-formed. */
export function checkContacts(
  contacts: readonly SourcedJobPostingJobContactInput[] | null | undefined,
  path: InputPath,
): PostingContact[] {
  const checked = boundedList(contacts, path, 10).map((contact, index) =>
    checkContact(contact, [...path, index]),
  );
  const primary = checked.filter((contact) => contact.contactType.includes('contact')).length;
  if (primary === 0) throw new InputProblem(NO_CONTACT, path);
  if (primary > 1) throw new InputProblem(SEVERAL_CONTACTS, path);
  return checked;
}

function checkContact(contact: SourcedJobPostingJobContactInput, path: InputPath): PostingContact {
  const types = boundedList(contact.contactType, [...path, 'contactType'], 3);
  for (const type of types) {
    if (!CONTACT_TYPES.includes(type)) {
      throw new InputProblem(
        `${pathText([...path, 'contactType'])}: ${JSON.stringify(type.slice(0, 40))} is not ` +
          `one of ${CONTACT_TYPES.join(', ')}`,
        [...path, 'contactType'],
      );
    }
  }
  const info = contact.contactInfo;
  const phonePath = [...path, 'contactInfo', 'contactPhone'];
  const phone = optionalLine(info.contactPhone, phonePath, 30);
  if (phone !== null && (!PHONE.test(phone) || phone.replace(/\D/g, '').length < 5)) {
    throw new InputProblem(`${pathText(phonePath)} is not a valid phone number`, phonePath);
  }
  return {
    contactType: [...new Set(types)],
    contactName: optionalLine(info.contactName, [...path, 'contactInfo', 'contactName'], 200),
    contactEmail: info.contactEmail ?? null,
    contactPhone: phone,
  };
}
