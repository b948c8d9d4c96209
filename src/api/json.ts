const { rawJSON } = JSON as unknown as { rawJSON: (text: string) => unknown }

/** JSON.stringify that writes BigInt values as exact JSON integers (an int64 pin echoes unchanged). */
export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? rawJSON(v.toString()) : v))
}
