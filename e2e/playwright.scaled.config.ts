import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

// The scaled-out run (`npm run test:scaled`): the same browser journeys as the main run, plus tests/scaled-out,
// against two API processes and one worker on PostgreSQL + a local S3 server + Redis, behind a round-robin proxy
// (support/scaled-setup.ts). Requests alternate between the nodes, so anything kept in one node's memory or on
// one node's disk fails here.
export default defineConfig({
  ...base,
  globalSetup: './support/scaled-setup.ts',
  testIgnore: [],
  testMatch: ['sender/send-gift.spec.ts', 'recipient/genuine-scan.spec.ts', 'scaled-out/*.spec.ts'],
});
