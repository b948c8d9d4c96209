/**
 * The console's protocol pages in Chromium (registered by console.test.ts, which owns the server and
 * the browser).
 */
import { describe } from 'vitest'
import type { ConsoleSuite } from './console.test.ts'

export function describeProtocolPages(_shared: () => ConsoleSuite): void {
  describe('protocol pages', () => {})
}
