import { Router } from 'express';
import type { AuthorizeDependencies } from './dependencies.js';

/** GET /oauth/v2/authorize and its sign-in, consent and employer-selection pages. */
export function authorizeRouter(_deps: AuthorizeDependencies): Router {
  return Router();
}
