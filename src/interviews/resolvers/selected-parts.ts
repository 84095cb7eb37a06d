import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { NO_PARTS, type EventParts } from '../event-graph.js';

/** Fields of the events below a field whose selection makes the read bring each list along. */
const FIELDS_OF_PART: Record<keyof EventParts, readonly string[]> = {
  interviewers: ['interviewersConnection'],
  interviewees: ['intervieweesConnection'],
  lobbyTokens: ['interviewerLobbyUrl', 'interviewLandingPageUrl', 'intervieweeLobbyUrl'],
};

/** Worked out once per field of a (cached, so long-lived) document. */
const partsOfField = new WeakMap<FieldNode, EventParts>();

/**
 * The lists worth reading with the events a field answers: those whose fields are selected
 * anywhere below it. A list read for nothing (a field under a directive that skips it) costs a
 * little; a list not read here is read by its loader, as before.
 */
export function selectedEventParts(info: GraphQLResolveInfo): EventParts {
  const [field] = info.fieldNodes;
  if (!field) return NO_PARTS;
  let parts = partsOfField.get(field);
  if (!parts) {
    const names = new Set<string>();
    const fragments = new Set<string>();
    for (const node of info.fieldNodes)
      collectFieldNames(node.selectionSet, info, names, fragments);
    const selected = (part: keyof EventParts) => FIELDS_OF_PART[part].some((n) => names.has(n));
    parts = {
      interviewers: selected('interviewers'),
      interviewees: selected('interviewees'),
      lobbyTokens: selected('lobbyTokens'),
    };
    partsOfField.set(field, parts);
  }
  return parts;
}

/** Every field name selected in `selectionSet`, following each fragment once. */
function collectFieldNames(
  selectionSet: SelectionSetNode | undefined,
  info: GraphQLResolveInfo,
  names: Set<string>,
  fragments: Set<string>,
): void {
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      names.add(selection.name.value);
      collectFieldNames(selection.selectionSet, info, names, fragments);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      collectFieldNames(selection.selectionSet, info, names, fragments);
    } else if (!fragments.has(selection.name.value)) {
      fragments.add(selection.name.value);
      collectFieldNames(info.fragments[selection.name.value]?.selectionSet, info, names, fragments);
    }
  }
}
