import { createLogger } from '../../src/logging.js';

/** A logger that writes nothing, for tests that do not inspect logs. */
export const silentLogger = createLogger('silent');
