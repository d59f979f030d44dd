#!/usr/bin/env node
// The `donation-desk` command: runs the bundled CLI (built by `npm run build`).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const bundle = join(__dirname, '..', 'out', 'cli', 'index.cjs');
if (!existsSync(bundle)) {
  process.stderr.write('Donation Desk is not built yet: run `npm run build` first.\n');
  process.exit(2);
}
require(bundle);
