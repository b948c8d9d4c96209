#!/usr/bin/env node
// The strata command. Node 24 runs the TypeScript sources directly (type stripping); the version is
// checked first, in plain JavaScript, and the sources are imported only once it passes.
import { checkNodeVersion } from './node-version.js'

if (checkNodeVersion('Strata')) await import('../src/cli/main.ts')
else process.exitCode = 1
