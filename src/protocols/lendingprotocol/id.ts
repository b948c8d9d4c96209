/**
 * The lending protocol's one id: its API path segment, its module's `name`, and the `protocol` of its
 * snapshots, positions and actions.
 */
export const LENDING = 'lendingprotocol'
