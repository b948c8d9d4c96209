/** Each bad slug, with the message both the API and the CLI give for it (written out by hand). */
export const BAD_SLUGS: Array<[string, string]> = [
  [
    'Bad Slug',
    'must be lower-case letters, digits and inner hyphens (not at either end); did you mean "bad-slug"?',
  ],
  ['x', 'must be at least 2 characters of lower-case letters, digits and inner hyphens (not at either end)'],
  ['a'.repeat(100), `must be at most 64 characters, got 100; did you mean "${'a'.repeat(64)}"?`],
  ['Acme', 'must be lower case; did you mean "acme"?'],
  ['-acme', 'must be lower-case letters, digits and inner hyphens (not at either end); did you mean "acme"?'],
  [
    'ac_me',
    'must be lower-case letters, digits and inner hyphens (not at either end); did you mean "ac-me"?',
  ],
  ['ÅÅ', 'must be lower-case letters, digits and inner hyphens (not at either end)'],
]
