#!/usr/bin/env node
// Exits 1, naming the versions and the way to get the right one, when this Node is too old. Run
// before install (`preinstall`, where it also checks the Node running npm) and before each package
// script that loads TypeScript sources.
import { checkInstall, checkNodeVersion } from './node-version.js'

const ok = process.env.npm_lifecycle_event === 'preinstall' ? checkInstall() : checkNodeVersion('Strata')
if (!ok) process.exit(1)
