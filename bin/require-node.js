#!/usr/bin/env node
// Exits 1, naming the versions and the way to get the right one, when this Node is too old. Run
// before install (`preinstall`) and before each package script that loads TypeScript sources.
import { checkNodeVersion } from './node-version.js'

if (!checkNodeVersion('Strata')) process.exit(1)
