import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { ValidationError } from '../errors.js';
import type { CliServices } from './services.js';

type Print = (data: object, lines: () => string[]) => void;

/**
 * `graphql persist <file...>` registers GraphQL documents ahead of time, which clients then
 * run by `documentId` (the only way when GRAPHQL_PERSISTED_ONLY=on); `graphql persisted` counts
 * the stored ones.
 */
export function addGraphQLCommands(
  program: Command,
  services: () => Promise<CliServices>,
  print: Print,
): void {
  const graphql = program.command('graphql').description('persisted GraphQL documents');

  graphql
    .command('persist')
    .description(
      'register GraphQL documents (one per file, validated against the schema); prints the ' +
        'documentId clients send instead of the text: "sha256:" and the SHA-256 of the file',
    )
    .argument('<file...>', 'files of GraphQL documents (.graphql)')
    .action(async (files: string[]) => {
      const documents = await Promise.all(
        files.map(async (name) => ({ name, text: await readDocument(name) })),
      );
      const persisted = await (await services()).graphqlDocuments.persist(documents);
      print(
        {
          documents: persisted.map((document) => ({
            file: document.name,
            document_id: document.documentId,
            operations: document.operations,
            outcome: document.outcome,
          })),
        },
        () =>
          persisted.flatMap((document) => [
            `${document.outcome === 'stored' ? 'Persisted' : 'Already persisted'} ${document.name}`,
            `  documentId: ${document.documentId}`,
            `  operations: ${document.operations.map((name) => name ?? '(anonymous)').join(', ')}`,
          ]),
      );
    });

  graphql
    .command('persisted')
    .description('count the persisted documents: registered, and automatic (APQ)')
    .action(async () => {
      const counts = await (await services()).graphqlDocuments.counts();
      print(counts, () => [
        `${counts.registered} registered, ${counts.automatic} automatic persisted documents`,
      ]);
    });
}

async function readDocument(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new ValidationError(`cannot read ${file}: ${reason}`);
  }
}
