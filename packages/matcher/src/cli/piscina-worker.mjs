// bench:pools only: the matcher's work as a piscina task (registers tsx as worker-entry.mjs does).
import { register } from 'tsx/esm/api';

register();
const { enrol } = await import('../enrol.ts');
const { match } = await import('../engine.ts');

export default async function task(req) {
  return req.op === 'enrol' ? enrol(req.image) : match(req.image, req.references);
}
