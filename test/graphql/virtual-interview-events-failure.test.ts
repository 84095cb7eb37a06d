import assert from 'node:assert/strict';
import type { GraphQLResolveInfo } from 'graphql';
import type { InterviewContext } from '../../src/interviews/context.js';
import { createInterviewLoaders } from '../../src/interviews/loaders.js';
import type { InterviewReadStore } from '../../src/interviews/read-store.js';
import { Query } from '../../src/interviews/resolvers/query.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { silentLogger } from '../support/logger.js';

describe('virtualInterviewEvents when the database fails', () => {
  it('reports the failure instead of answering null, which would read as "not found"', async () => {
    const failing = {
      eventsByIds: async () => Promise.reject(new Error('connection refused')),
      eventGraphsByIds: async () => Promise.reject(new Error('connection refused')),
    } as unknown as InterviewReadStore;
    const context = {
      requestId: 'r',
      logger: silentLogger,
      principal: {
        kind: 'app',
        appId: 'a',
        clientId: 'c',
        jti: 'j',
        ownerUserId: 'u',
        employerId: 'e',
        scopes: [],
      },
      loaders: createInterviewLoaders(
        failing,
        new SecretBox('x'.repeat(32), 'lobby-tokens'),
        'http://x',
        async (ids) => ids.map(() => null),
      ),
    } as unknown as InterviewContext;
    const resolve = Query.virtualInterviewEvents as (
      root: unknown,
      args: { input: { ids: string[] } },
      context: InterviewContext,
      info: GraphQLResolveInfo,
    ) => Promise<unknown>;
    await assert.rejects(
      resolve({}, { input: { ids: ['00000000-0000-0000-0000-000000000001'] } }, context, {
        fieldNodes: [],
        fragments: {},
      } as unknown as GraphQLResolveInfo),
      /connection refused/,
    );
  });
});
