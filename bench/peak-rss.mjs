// node --import ./peak-rss.mjs <script>: on exit, writes the process's peak resident set size
// (bytes) to $BENCH_RSS_FILE. Used only for the memory runs, never for the timed ones.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
