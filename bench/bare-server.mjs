// The baseline of the throughput figures: node:http answering every request with one fixed JSON
// body (a payment as the sandbox returns it). Prints {"base_url"} once listening; stops on SIGTERM.
import { createServer } from 'node:http';

const body = Buffer.from(process.env.BENCH_BODY ?? '{"success":true,"message":"ok","data":{}}');
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ base_url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
