// Preloaded into a benchmarked process (node --import): prints its peak resident set size at exit, for bench/import.ts.
process.on('exit', () => process.stderr.write(`MAX_RSS_KB ${process.resourceUsage().maxRSS}\n`));
