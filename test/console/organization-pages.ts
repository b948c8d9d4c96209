/**
 * The console's organization pages in Chromium (registered by console.test.ts, which owns the server and
 * the browser).
 */
import { describe } from 'vitest'
import type { ConsoleSuite } from './console.test.ts'

export function describeOrganizationPages(_shared: () => ConsoleSuite): void {
  describe('organization pages', () => {})
}
