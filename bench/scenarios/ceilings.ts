import { expectStatus, peer, scenario, SERVICE } from './requests.js';
import { SCENARIO_NAMES } from './names.js';
import type { Scenario } from './types.js';

/** The service's cheapest route and the bare servers that bound what any route can do. */
export const ceilingScenarios: Scenario[] = [
  scenario({
    name: SCENARIO_NAMES.healthz,
    subject: SERVICE,
    comparison: { kind: 'peer', scenario: SCENARIO_NAMES.expressPeer },
    load: async () => ({ path: '/healthz', method: 'GET', headers: {} }),
    problem: (response) => expectStatus(response, 'status'),
  }),
  scenario({
    name: SCENARIO_NAMES.expressPeer,
    subject: peer('express'),
    load: async () => ({ path: '/json', method: 'GET', headers: {} }),
    problem: (response) => expectStatus(response, 'status'),
  }),
  scenario({
    name: SCENARIO_NAMES.nodePeer,
    subject: peer('node-http'),
    load: async () => ({ path: '/', method: 'GET', headers: {} }),
    problem: (response) => expectStatus(response, 'status'),
  }),
];
