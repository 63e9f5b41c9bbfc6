// bench:api's baseline: a bare Fastify route (no plugins, no hooks, no logging) in a process of its own.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ success: true, plans: [{ id: 'basic', price: 1 }] }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
