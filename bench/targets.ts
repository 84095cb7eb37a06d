import type { RunningPeer } from './peers.js';
import type { Scenario, ServiceTokens } from './scenarios/index.js';
import type { RunningService } from './service.js';

/** One configuration of the service, with the tokens it issued to the bench app. */
export interface ServiceTarget {
  kind: 'service';
  label: string;
  url: string;
  service: RunningService;
  tokens: ServiceTokens;
}

export interface PeerTarget {
  kind: 'peer';
  label: string;
  url: string;
  peer: RunningPeer;
}

/** Where a scenario's load goes: one configuration of the service, or a peer. */
export type Target = ServiceTarget | PeerTarget;

export function serviceTarget(service: RunningService, tokens: ServiceTokens): ServiceTarget {
  return { kind: 'service', label: service.configuration.label, url: service.url, service, tokens };
}

export function peerTarget(peer: RunningPeer): PeerTarget {
  return { kind: 'peer', label: peer.name, url: peer.url, peer };
}

/** The targets of a scenario: every service configuration, or its one peer. */
export function targetsOf(scenario: Scenario, targets: readonly Target[]): Target[] {
  const { subject } = scenario;
  return targets.filter((target) =>
    subject.kind === 'service'
      ? target.kind === 'service'
      : target.kind === 'peer' && target.peer.name === subject.peer,
  );
}
