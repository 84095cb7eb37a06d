import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));

export function readme(): string {
  return readFileSync(`${REPOSITORY}/README.md`, 'utf8');
}

/** The text under a `## ` heading of the README, up to the next heading of that level. */
export function readmeSection(heading: string): string {
  const text = readme();
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md has no section "## ${heading}"`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The contents of the section's ```sh blocks, in order. */
export function shellBlocks(section: string): string[] {
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}
