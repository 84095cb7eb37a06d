import { Store } from '../db/store.js';

/** A row of `deployment_settings`: what the process in `role` recorded at its start. */
export interface DeploymentSettingsRow {
  role: string;
  environment: string;
  issuer: string;
  audience: string;
  sandbox_tokens: boolean | number;
  recorded_at: number;
}

/** SQL for the deployment's recorded settings. */
export class DeploymentStore extends Store {
  async save(row: DeploymentSettingsRow): Promise<void> {
    await this.db('deployment_settings')
      .insert(row)
      .onConflict('role')
      .merge(['environment', 'issuer', 'audience', 'sandbox_tokens', 'recorded_at']);
  }

  find(role: string): Promise<DeploymentSettingsRow | undefined> {
    return this.db('deployment_settings').where({ role }).first();
  }
}
