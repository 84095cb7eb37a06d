import type { Knex } from 'knex';

/**
 * Decision notes are stored with `\n` line breaks (src/interviews/rules/text.ts); notes saved
 * before that kept the `\r\n` a browser sends for a textarea, or a lone `\r`. They are rewritten
 * once here, so every note reads back the same way whenever it was written.
 */
export async function up(knex: Knex): Promise<void> {
  await knex('interview_outcomes')
    .where('note_text', 'like', '%\r%')
    .update({
      note_text: knex.raw('REPLACE(REPLACE(note_text, ?, ?), ?, ?)', ['\r\n', '\n', '\r', '\n']),
    });
}

/** Which line breaks a note had is not kept; the notes stay as they are. */
export async function down(): Promise<void> {}
