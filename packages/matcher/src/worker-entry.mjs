// Plain-JS entry of the matcher's worker threads. Node 20 does not apply a parent's `--import tsx` loader to
// worker threads, so register tsx's ESM hooks here (a no-op cost when they are already there), then load the
// TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
